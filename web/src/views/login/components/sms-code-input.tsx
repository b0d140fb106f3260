import { useEffect, useState } from 'react';
import { Button, Input, type FormInstance } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SmsPurpose } from '@p8/contract/auth';
import { feedback } from '../../../app/feedback.ts';
import { isHttpError } from '../../../app/http.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { sendPhoneCaptcha } from '../api/send-phone-captcha.ts';

/** Seconds left of the persisted SMS resend countdown of a purpose; ticks once a second. */
export function useSmsCountdown(purpose: SmsPurpose): number {
  const endAt = useGlobalStore((s) => s.smsEndAt[purpose] ?? 0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endAt <= Date.now()) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= endAt) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [endAt]);
  return Math.max(0, Math.ceil((endAt - now) / 1000));
}

interface SmsCodeInputProps {
  value?: string;
  onChange?: (value: string) => void;
  purpose: SmsPurpose;
  form: FormInstance;
  /** The picture captcha the send needs (always required for SMS). */
  captchaId: string | undefined;
  /** Called after every send attempt: the picture captcha is used up either way. */
  onCaptchaUsed: () => void;
  testIdPrefix: string;
}

/** SMS code input with a "get code" button that turns into a resend countdown in seconds. */
export function SmsCodeInput({ value, onChange, purpose, form, captchaId, onCaptchaUsed, testIdPrefix }: SmsCodeInputProps) {
  const { t } = useTranslation();
  const seconds = useSmsCountdown(purpose);
  const startCountdown = useGlobalStore((s) => s.startSmsCountdown);
  const [sending, setSending] = useState(false);
  const [testCode, setTestCode] = useState<string>();

  const send = async () => {
    let phone: string;
    try {
      ({ phone } = (await form.validateFields(['phone'])) as { phone: string });
    } catch {
      return;
    }
    // The picture captcha is checked here only: logging in or registering does not need it.
    const captcha = String(form.getFieldValue('captcha') ?? '').trim();
    if (!captcha) {
      form.setFields([{ name: 'captcha', errors: [t('login.captchaPlaceholder')] }]);
      return;
    }
    if (!captchaId) {
      onCaptchaUsed();
      return;
    }
    setSending(true);
    try {
      const sent = await sendPhoneCaptcha({ phone: phone.trim(), type: purpose, captchaId, captcha });
      startCountdown(purpose, sent.seconds > 0 ? sent.seconds : 60);
      setTestCode(sent.code);
      feedback.message.success(t('login.smsSent'));
    } catch (error) {
      const key = isHttpError(error) ? error.key : '';
      const text = isHttpError(error) ? error.text : t('error.SendPhoneCaptchaError');
      if (key.startsWith('ImgCaptcha')) form.setFields([{ name: 'captcha', errors: [text] }]);
      else if (key.startsWith('Phone')) form.setFields([{ name: 'phone', errors: [text] }]);
      else feedback.message.error(text);
    } finally {
      setSending(false);
      form.setFieldValue('captcha', '');
      onCaptchaUsed();
    }
  };

  return (
    <div className="login-sms-row">
      <Input
        size="large"
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        prefix={<MessageOutlined />}
        placeholder={t('login.smsCodePlaceholder')}
        maxLength={8}
        inputMode="numeric"
        autoComplete="one-time-code"
        data-testid={`${testIdPrefix}-sms-code`}
      />
      <Button
        size="large"
        className="login-sms-btn"
        disabled={seconds > 0}
        loading={sending}
        onClick={send}
        data-testid={`${testIdPrefix}-sms-send`}
        data-seconds={seconds}
        // Present only when the server runs with EXPOSE_CODES_FOR_TESTS (end-to-end tests).
        data-sms-code={testCode}
      >
        {seconds > 0 ? t('login.smsResend', { seconds }) : t('login.smsSend')}
      </Button>
    </div>
  );
}
