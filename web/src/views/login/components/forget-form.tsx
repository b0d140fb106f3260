import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../app/feedback.ts';
import { resetPassword } from '../api/reset-password.ts';
import { CaptchaInput, useImgCaptcha } from './img-captcha.tsx';
import { applyServerError } from './login-helpers.ts';
import { SmsCodeInput } from './sms-code-input.tsx';
import { useLoginRules } from './use-login-rules.ts';

interface ForgetValues {
  phone: string;
  captcha?: string;
  code: string;
  password: string;
  confirmPassword: string;
}

const FIELD_OF: Record<string, string> = {
  PhoneNotRegistered: 'phone',
  PhoneFormatError: 'phone',
  AdminNotExist: 'phone',
  PhoneCaptchaError: 'code',
  PhoneCaptchaExpired: 'code',
  PasswordFormatError: 'password',
  PasswordInconsistent: 'confirmPassword',
};

/** Retrieve the password: phone, SMS code, new password twice. */
export function ForgetForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const [form] = Form.useForm<ForgetValues>();
  const { captcha, loading: captchaLoading, refresh } = useImgCaptcha(true);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: ForgetValues) => {
    setError(null);
    setSubmitting(true);
    try {
      await resetPassword({ phone: values.phone.trim(), code: values.code.trim(), password: values.password, confirmPassword: values.confirmPassword });
      feedback.message.success(t('login.forgetSuccess'));
      onDone();
    } catch (failure) {
      setError(applyServerError(form, failure, FIELD_OF));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} onValuesChange={() => error && setError(null)} size="large" layout="vertical" requiredMark={false} className="login-form">
      <Form.Item name="phone" rules={rules.phone}>
        <Input prefix={<MobileOutlined />} placeholder={t('login.phonePlaceholder')} autoComplete="tel" inputMode="tel" maxLength={20} data-testid="forget-phone" />
      </Form.Item>
      <Form.Item name="captcha">
        <CaptchaInput captcha={captcha} loading={captchaLoading} onRefresh={() => void refresh()} testIdPrefix="forget" />
      </Form.Item>
      <Form.Item name="code" rules={rules.smsCode}>
        <SmsCodeInput purpose="forget" form={form} captchaId={captcha?.captchaId} onCaptchaUsed={() => void refresh()} testIdPrefix="forget" />
      </Form.Item>
      <Form.Item name="password" rules={rules.newPassword} extra={rules.passwordTip || undefined}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.newPasswordPlaceholder')} autoComplete="new-password" maxLength={64} data-testid="forget-password" />
      </Form.Item>
      <Form.Item name="confirmPassword" dependencies={['password']} rules={rules.confirmPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.confirmPasswordPlaceholder')} autoComplete="new-password" maxLength={64} data-testid="forget-confirm-password" />
      </Form.Item>
      {error && <Alert className="login-alert" type="error" showIcon title={error} data-testid="forget-error" />}
      <Button type="primary" htmlType="submit" block loading={submitting} className="login-submit" data-testid="forget-submit">
        {t('login.forgetSubmit')}
      </Button>
    </Form>
  );
}
