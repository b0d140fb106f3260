import { Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UpdatePassword } from '@p8/contract/auth';
import { feedback } from '../../../app/feedback.ts';
import { formatRules } from '../../../app/system-config.ts';
import { useSystemConfig } from '../../../hooks/useSystemConfig.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { updatePassword } from '../api/update-password.ts';

interface PasswordFormProps {
  /** After the server accepted the new password. */
  onSuccess?: () => void;
  /** Extra buttons beside submit (e.g. cancel in a dialog). */
  extra?: React.ReactNode;
  /** Form field ids prefix: two forms on one page must not share ids. */
  name?: string;
}

/** Old password, new password (system config regex), confirmation (must match). */
export default function PasswordForm({ onSuccess, extra, name = 'password' }: PasswordFormProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.password' });
  const language = useGlobalStore((s) => s.language);
  const config = useSystemConfig();
  const [form] = Form.useForm<UpdatePassword>();
  const pattern = formatRules(config ?? null).password;
  const formatTip = config?.passwordRegexTip?.[language] || t('formatError');

  const mutation = useMutation({
    mutationFn: updatePassword,
    onSuccess: () => {
      feedback.message.success(t('success'));
      form.resetFields();
      onSuccess?.();
    },
  });

  return (
    <Form form={form} name={name} layout="vertical" requiredMark={false} onFinish={(values) => mutation.mutate(values)} autoComplete="off">
      <Form.Item name="oldPassword" label={t('oldPassword')} rules={[{ required: true, message: t('oldRequired') }]}>
        <Input.Password data-testid="password-old" autoComplete="current-password" maxLength={100} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('newPassword')}
        extra={formatTip}
        rules={[
          { required: true, message: t('newRequired') },
          { pattern, message: t('formatError') },
        ]}
      >
        <Input.Password data-testid="password-new" autoComplete="new-password" maxLength={20} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('confirmPassword')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_, value) => (!value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('inconsistent')))),
          }),
        ]}
      >
        <Input.Password data-testid="password-confirm" autoComplete="new-password" maxLength={20} />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
          {extra}
          <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="password-submit">
            {t('submit')}
          </Button>
        </div>
      </Form.Item>
    </Form>
  );
}
