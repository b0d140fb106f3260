import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import RichText from '../../../../components/RichText/index.tsx';
import { useAuthStore } from '../../../../stores/auth.ts';
import type { StaffOption } from '../../../../components/Pickers/api/colleague-options.ts';
import { sendMessage } from '../api/send-message.ts';
import ColleagueSelect from '../../../../components/Pickers/ColleagueSelect.tsx';

export interface SendForm {
  receiverIds: number[];
  title: string;
  content: string;
}

export interface SendDialogState {
  open: boolean;
  /** A reply starts with the receiver and title filled in. */
  initial?: Partial<SendForm>;
  /** Names of the preset receivers. */
  known?: StaffOption[];
}

/** Writes a message to one or many staff members (one message each); the sender cannot be a receiver. */
export default function SendDialog({ state, onClose, onSent }: { state: SendDialogState; onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.message' });
  const { t: root } = useTranslation();
  const { message } = App.useApp();
  const me = useAuthStore((s) => s.userInfo?.id);

  const submit = async (values: SendForm) => {
    const { ids } = await sendMessage({ receiverIds: values.receiverIds, title: values.title.trim(), content: values.content ?? '' });
    message.success(t('sent', { count: ids.length }));
    onSent();
  };

  return (
    <FormDialog<SendForm>
      open={state.open}
      mode="add"
      title={t('sendTitle')}
      onClose={onClose}
      initialValues={{ receiverIds: [], title: '', content: '', ...state.initial }}
      onSubmit={submit}
      successMessage={false}
      okText={t('send')}
      width={760}
      layout="vertical"
      data-testid="message-send-dialog"
    >
      <Form.Item
        name="receiverIds"
        label={t('receivers')}
        extra={t('receiversHelp')}
        rules={[
          { required: true, type: 'array', min: 1, message: root('error.PleaseSelectStaff') },
          { type: 'array', max: 500 },
        ]}
      >
        <ColleagueSelect mode="multiple" exclude={me ? [me] : []} known={state.known} data-testid="message-form-receivers" />
      </Form.Item>
      <Form.Item name="title" label={t('messageTitle')} rules={[{ required: true, whitespace: true, message: root('error.PleaseInputTitle') }, { max: 100 }]}>
        <Input maxLength={100} showCount data-testid="message-form-title" />
      </Form.Item>
      <Form.Item name="content" label={t('content')} rules={[{ max: 20000 }]}>
        <RichText placeholder={t('contentPlaceholder')} height={220} maxHeight={420} data-testid="message-form-content" />
      </Form.Item>
    </FormDialog>
  );
}
