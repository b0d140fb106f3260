import { Alert, Button, Checkbox, Form, Input, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { LOGIN_PATH, navigateTo } from '../../app/navigate.ts';
import { clearSession } from '../../app/session.ts';
import { logoffTenant } from './api/logoff-tenant.ts';

interface LogoffValues {
  password: string;
  phrase: string;
  acknowledge: boolean;
}

/**
 * Log the tenant off (initial administrator only). Strong confirmation: password, a typed phrase
 * and a tick. Afterwards the session is over: back to login.
 */
export default function LogoffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.logoff' });
  const { t: tc } = useTranslation(undefined, { keyPrefix: 'layout.common' });
  const [form] = Form.useForm<LogoffValues>();
  const word = t('confirmWord');

  const mutation = useMutation({
    mutationFn: logoffTenant,
    onSuccess: () => {
      feedback.message.success(t('success'));
      onClose();
      clearSession();
      navigateTo(LOGIN_PATH, { replace: true });
    },
  });

  return (
    <Modal
      open={open}
      title={t('title')}
      onCancel={onClose}
      destroyOnHidden
      width={500}
      data-testid="dialog-logoff"
      footer={[
        <Button key="cancel" onClick={onClose}>
          {tc('cancel')}
        </Button>,
        <Button key="ok" danger type="primary" loading={mutation.isPending} onClick={() => form.submit()} data-testid="logoff-submit">
          {t('submit')}
        </Button>,
      ]}
    >
      <Alert type="error" showIcon title={t('warning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={(v) => mutation.mutate(v.password)} autoComplete="off" preserve={false}>
        <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
          <Input.Password data-testid="logoff-password" autoComplete="current-password" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="phrase"
          label={t('confirmLabel', { word })}
          rules={[{ validator: (_, v) => (typeof v === 'string' && v.trim() === word ? Promise.resolve() : Promise.reject(new Error(t('confirmMismatch')))) }]}
        >
          <Input placeholder={word} data-testid="logoff-confirm" />
        </Form.Item>
        <Form.Item
          name="acknowledge"
          valuePropName="checked"
          rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('acknowledgeRequired')))) }]}
          style={{ marginBottom: 0 }}
        >
          <Checkbox data-testid="logoff-acknowledge">{t('acknowledge')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
