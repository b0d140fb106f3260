import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MallFeedbackType, type MallFeedback } from '@p8/contract/mall';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { createFeedback, replyFeedback } from '../api/feedback.ts';

interface ReplyForm {
  reply: string;
}

/** Reply to one feedback (shows what the customer wrote). */
export function ReplyDialog({ feedback, onClose, onSaved }: { feedback: MallFeedback | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.feedback' });
  return (
    <FormDialog<ReplyForm>
      open={feedback !== null}
      mode="edit"
      title={t('reply')}
      initialValues={{ reply: feedback?.reply ?? '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        await replyFeedback(feedback!.id, values.reply.trim());
        onSaved();
      }}
      layout="vertical"
      data-testid="feedback-reply-dialog"
    >
      <Form.Item label={t('content')}>
        <Input.TextArea value={feedback?.content} readOnly autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
      <Form.Item name="reply" label={t('replyContent')} rules={[{ required: true, whitespace: true }, { max: 2000 }]}>
        <Input.TextArea rows={4} maxLength={2000} showCount data-testid="feedback-reply" />
      </Form.Item>
    </FormDialog>
  );
}

interface FeedbackForm {
  type: MallFeedbackType;
  contactName?: string;
  contactPhone?: string;
  content: string;
  images?: string[];
}

/** Record feedback received by phone or in person. */
export function AddFeedbackDialog({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.feedback' });
  const { t: tc } = useTranslation(undefined, { keyPrefix: 'mall.common' });
  return (
    <FormDialog<FeedbackForm>
      open={open}
      mode="add"
      entity={t('entity')}
      initialValues={{ type: 'suggestion', images: [] }}
      onClose={onClose}
      onSubmit={async (v) => {
        await createFeedback({ customerId: null, type: v.type, contactName: v.contactName?.trim() ?? '', contactPhone: v.contactPhone?.trim() ?? '', content: v.content.trim(), images: v.images ?? [] });
        onSaved();
      }}
      labelCol={{ flex: '90px' }}
      data-testid="feedback-add-dialog"
    >
      <Form.Item name="type" label={t('type')} rules={[{ required: true }]}>
        <Select options={MallFeedbackType.map((value) => ({ value, label: t(`types.${value}`) }))} />
      </Form.Item>
      <Form.Item name="contactName" label={t('contactName')} rules={[{ max: 30 }]}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="contactPhone" label={t('contactPhone')} rules={[{ max: 30 }]}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="content" label={t('content')} rules={[{ required: true, whitespace: true }, { max: 2000 }]}>
        <Input.TextArea rows={4} maxLength={2000} showCount />
      </Form.Item>
      <Form.Item name="images" label={tc('images')}>
        <ImageUpload limit={9} />
      </Form.Item>
    </FormDialog>
  );
}
