import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { IdcardOutlined, LockOutlined, MobileOutlined, ShopOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../app/feedback.ts';
import { registerTenant } from '../api/register-tenant.ts';
import { CaptchaInput, useImgCaptcha } from './img-captcha.tsx';
import { applyServerError } from './login-helpers.ts';
import { SmsCodeInput } from './sms-code-input.tsx';
import { useLoginRules } from './use-login-rules.ts';

interface RegisterValues {
  tenantName: string;
  name: string;
  realName?: string;
  phone: string;
  captcha?: string;
  code: string;
  password: string;
  confirmPassword: string;
}

const FIELD_OF: Record<string, string> = {
  AdminExist: 'name',
  AccountFormatError: 'name',
  PhoneIsRegistered: 'phone',
  PhoneFormatError: 'phone',
  PhoneCaptchaError: 'code',
  PhoneCaptchaExpired: 'code',
  PasswordFormatError: 'password',
  PasswordInconsistent: 'confirmPassword',
};

/** Register a tenant with its first administrator; then back to login with the account filled in. */
export function RegisterForm({ onDone }: { onDone: (name: string) => void }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const [form] = Form.useForm<RegisterValues>();
  const { captcha, loading: captchaLoading, refresh } = useImgCaptcha(true);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: RegisterValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const realName = values.realName?.trim();
      const result = await registerTenant({
        tenantName: values.tenantName.trim(),
        name: values.name.trim(),
        ...(realName ? { realName } : {}),
        phone: values.phone.trim(),
        code: values.code.trim(),
        password: values.password,
        confirmPassword: values.confirmPassword,
      });
      feedback.message.success(t('login.registerSuccess'));
      onDone(result?.name ?? values.name.trim());
    } catch (failure) {
      setError(applyServerError(form, failure, FIELD_OF));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} onValuesChange={() => error && setError(null)} size="large" layout="vertical" requiredMark={false} className="login-form login-form-compact">
      <Form.Item name="tenantName" rules={rules.tenantName}>
        <Input prefix={<ShopOutlined />} placeholder={t('login.tenantNamePlaceholder')} maxLength={50} data-testid="register-tenant-name" />
      </Form.Item>
      <div className="login-form-grid">
        <Form.Item name="name" rules={rules.account}>
          <Input prefix={<UserOutlined />} placeholder={t('login.accountPlaceholder')} autoComplete="username" maxLength={20} data-testid="register-name" />
        </Form.Item>
        <Form.Item name="realName">
          <Input prefix={<IdcardOutlined />} placeholder={t('login.realNamePlaceholder')} maxLength={30} data-testid="register-real-name" />
        </Form.Item>
      </div>
      <Form.Item name="phone" rules={rules.phone}>
        <Input prefix={<MobileOutlined />} placeholder={t('login.phonePlaceholder')} autoComplete="tel" inputMode="tel" maxLength={20} data-testid="register-phone" />
      </Form.Item>
      <Form.Item name="captcha">
        <CaptchaInput captcha={captcha} loading={captchaLoading} onRefresh={() => void refresh()} testIdPrefix="register" />
      </Form.Item>
      <Form.Item name="code" rules={rules.smsCode}>
        <SmsCodeInput purpose="register" form={form} captchaId={captcha?.captchaId} onCaptchaUsed={() => void refresh()} testIdPrefix="register" />
      </Form.Item>
      <Form.Item name="password" rules={rules.newPassword} extra={rules.passwordTip || undefined}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="new-password" maxLength={64} data-testid="register-password" />
      </Form.Item>
      <Form.Item name="confirmPassword" dependencies={['password']} rules={rules.confirmPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.confirmPasswordPlaceholder')} autoComplete="new-password" maxLength={64} data-testid="register-confirm-password" />
      </Form.Item>
      {error && <Alert className="login-alert" type="error" showIcon title={error} data-testid="register-error" />}
      <Button type="primary" htmlType="submit" block loading={submitting} className="login-submit" data-testid="register-submit">
        {t('login.registerSubmit')}
      </Button>
    </Form>
  );
}
