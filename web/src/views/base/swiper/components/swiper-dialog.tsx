import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SwiperCreate, SwiperRow } from '@p8/contract/base';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { createSwiper, updateSwiper } from '../api/swipers.ts';

type SwiperForm = SwiperCreate;

const NEW_SWIPER: SwiperForm = { title: '', image: '', link: '', sort: 0, enabled: true };
/** The link rule the server checks: empty, a path of the app, or an http(s) address. */
const LINK_PATTERN = /^(\/|https?:\/\/)\S*$/;

const bodyOf = (values: SwiperForm): SwiperCreate => ({ ...values, title: values.title.trim(), link: (values.link ?? '').trim(), sort: values.sort ?? 0 });

/** Add / edit / view a swiper slide: title, image (through the upload path), link, order, switch. */
export default function SwiperDialog(dialog: RecordDialogProps<SwiperRow>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.swiper' });
  const { record } = dialog.state;
  const initialValues: SwiperForm = record ? { title: record.title, image: record.image, link: record.link, sort: record.sort, enabled: record.enabled } : NEW_SWIPER;
  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      bodyOf={bodyOf}
      create={createSwiper}
      update={updateSwiper}
      labelCol={{ flex: '110px' }}
      width={640}
      data-testid="swiper-dialog"
    >
      <Form.Item name="title" label={t('title')} rules={[{ required: true, whitespace: true, message: t('titlePlaceholder') }, { max: 50 }]}>
        <Input maxLength={50} placeholder={t('titlePlaceholder')} data-testid="swiper-form-title" />
      </Form.Item>
      <Form.Item name="image" label={t('image')} rules={[{ required: true, message: t('imageRequired') }]} extra={t('imageTip')}>
        <ImageUpload single data-testid="swiper-form-image" />
      </Form.Item>
      <Form.Item
        name="link"
        label={t('link')}
        extra={t('linkTip')}
        rules={[{ max: 500 }, { validator: (_, v?: string) => (!v?.trim() || LINK_PATTERN.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('linkInvalid')))) }]}
      >
        <Input maxLength={500} placeholder={t('linkPlaceholder')} data-testid="swiper-form-link" />
      </Form.Item>
      <Form.Item name="sort" label={t('sort')} tooltip={t('sortTip')}>
        <NumberInput integer min={0} max={99999} style={{ width: 160 }} data-testid="swiper-form-sort" />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch data-testid="swiper-form-enabled" />
      </Form.Item>
    </RecordFormDialog>
  );
}
