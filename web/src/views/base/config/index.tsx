import { useEffect } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, Row, Skeleton, Space, Switch, Typography } from 'antd';
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PlatformConfig, PlatformConfigView } from '@p8/contract/base';
import { getSystemConfig } from '../../../app/api/get-system-config.ts';
import { useSystemConfigStore } from '../../../app/system-config.ts';
import { useAuth } from '../../../components/Auth/index.tsx';
import { useFormSave } from '../../../hooks/useFormSave.ts';
import ImageUpload from '../../../components/Upload/ImageUpload.tsx';
import LogoUpload from '../../../components/Upload/LogoUpload.tsx';
import { getPlatformConfig, savePlatformConfig } from './api/config.ts';

const QUERY_KEY = ['base', 'config'];
const HTTP_URL = /^https?:\/\/\S+$/;

const formOf = (view: PlatformConfigView): PlatformConfig => ({
  system_title: view.system_title,
  system_icon: view.system_icon,
  logo: view.logo,
  shortName: view.shortName,
  icp: view.icp,
  customerServiceQrCode: view.customerServiceQrCode,
  translateUrl: view.translateUrl,
  openRegister: view.openRegister,
  openAppointment: view.openAppointment,
});

/**
 * Base content → system config: the installation's public config (title, icon, logo, ICP number, QR code,
 * switches) that the login page, the shell and the customer side read. Only the platform administrator
 * saves it; everyone else sees it read-only.
 */
export default function PlatformConfigPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.config' });
  const { message } = App.useApp();
  const can = useAuth();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: QUERY_KEY, queryFn: getPlatformConfig });
  const view = query.data;
  const editable = !!view?.editable && can('base_config_update');
  const [form] = Form.useForm<PlatformConfig>();

  useEffect(() => {
    if (view) form.setFieldsValue(formOf(view));
  }, [view, form]);

  const { saving, submit: save } = useFormSave(form, async (values) => {
    const saved = await savePlatformConfig({ ...values, system_title: values.system_title.trim() });
    queryClient.setQueryData(QUERY_KEY, saved);
    message.success(t('saved'));
    // The shell shows the new title and logo at once.
    useSystemConfigStore.getState().setConfig(await getSystemConfig());
  });

  if (!view) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }

  const image = (name: keyof PlatformConfig, logo?: boolean) => (
    <Col xs={24} md={8}>
      <Form.Item name={name} label={t(name)}>
        {logo ? <LogoUpload data-testid={`config-${name}`} /> : <ImageUpload single data-testid={`config-${name}`} />}
      </Form.Item>
    </Col>
  );

  return (
    <div className="p8-base-config" data-testid="config-page">
      {!editable && <Alert type="info" showIcon title={t('readOnly')} style={{ marginBottom: 12 }} data-testid="config-readonly" />}
      <Form<PlatformConfig> form={form} layout="vertical" initialValues={formOf(view)} disabled={!editable || saving}>
        <Card title={t('sections.brand')} style={{ marginBottom: 12 }}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item name="system_title" label={t('system_title')} rules={[{ required: true, whitespace: true }, { max: 50 }]}>
                <Input maxLength={50} data-testid="config-system_title" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="shortName" label={t('shortName')} rules={[{ max: 20 }]}>
                <Input maxLength={20} data-testid="config-shortName" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="icp" label={t('icp')} rules={[{ max: 100 }]}>
                <Input maxLength={100} data-testid="config-icp" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="translateUrl"
                label={t('translateUrl')}
                rules={[{ max: 500 }, { validator: (_, v?: string) => (!v || HTTP_URL.test(v) ? Promise.resolve() : Promise.reject(new Error(t('translateUrlInvalid')))) }]}
              >
                <Input maxLength={500} placeholder="https://" data-testid="config-translateUrl" />
              </Form.Item>
            </Col>
            {image('system_icon', true)}
            {image('logo', true)}
            {image('customerServiceQrCode')}
          </Row>
        </Card>
        <Card title={t('sections.switches')} style={{ marginBottom: 12 }}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item name="openRegister" label={t('openRegister')} valuePropName="checked" extra={t('openRegisterTip')}>
                <Switch data-testid="config-openRegister" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="openAppointment" label={t('openAppointment')} valuePropName="checked" extra={t('openAppointmentTip')}>
                <Switch data-testid="config-openAppointment" />
              </Form.Item>
            </Col>
          </Row>
        </Card>
      </Form>
      <Space size="middle">
        {editable && (
          <>
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="config-save">
              {t('save')}
            </Button>
            <Button icon={<UndoOutlined />} disabled={saving} onClick={() => form.setFieldsValue(formOf(view))}>
              {t('reset')}
            </Button>
          </>
        )}
        <Typography.Text type="secondary">{view.updatedAt ? t('updatedAt', { time: dayjs(view.updatedAt).format('YYYY-MM-DD HH:mm') }) : t('neverSaved')}</Typography.Text>
      </Space>
    </div>
  );
}
