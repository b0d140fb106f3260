import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { loginByPhone } from '../api/login-by-phone.ts';
import { CaptchaInput, useImgCaptcha } from './img-captcha.tsx';
import { applyServerError } from './login-helpers.ts';
import { SmsCodeInput } from './sms-code-input.tsx';
import { useLoginRules } from './use-login-rules.ts';

interface MobileValues {
  phone: string;
  captcha?: string;
  code: string;
}

const FIELD_OF: Record<string, string> = {
  PhoneFormatError: 'phone',
  PhoneNotRegistered: 'phone',
  AdminNotExist: 'phone',
  PhoneCaptchaError: 'code',
  PhoneCaptchaExpired: 'code',
};

/** Mobile login: phone + SMS code; getting the code needs the picture captcha. */
export function MobileForm({ onToken }: { onToken: (token: string) => Promise<void> }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const [form] = Form.useForm<MobileValues>();
  const { captcha, loading: captchaLoading, refresh } = useImgCaptcha(true);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: MobileValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const { token } = await loginByPhone({ phone: values.phone.trim(), code: values.code.trim() });
      await onToken(token);
    } catch (failure) {
      setError(applyServerError(form, failure, FIELD_OF));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} onFinish={submit} onValuesChange={() => error && setError(null)} size="large" layout="vertical" requiredMark={false} className="login-form">
      <Form.Item name="phone" rules={rules.phone}>
        <Input prefix={<MobileOutlined />} placeholder={t('login.phonePlaceholder')} autoComplete="tel" inputMode="tel" maxLength={20} data-testid="login-phone" />
      </Form.Item>
      {/* Checked only when sending the SMS code, not when logging in. */}
      <Form.Item name="captcha">
        <CaptchaInput captcha={captcha} loading={captchaLoading} onRefresh={() => void refresh()} testIdPrefix="login" />
      </Form.Item>
      <Form.Item name="code" rules={rules.smsCode}>
        <SmsCodeInput purpose="login" form={form} captchaId={captcha?.captchaId} onCaptchaUsed={() => void refresh()} testIdPrefix="login" />
      </Form.Item>
      {error && <Alert className="login-alert" type="error" showIcon title={error} data-testid="login-error" />}
      <Button type="primary" htmlType="submit" block loading={submitting} className="login-submit" data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}
