import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, type FormInstance } from 'antd';
import { LockOutlined, MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SmsPurpose } from '@p8/contract/auth';
import { CaptchaInput, useImgCaptcha } from './img-captcha.tsx';
import { applyServerError } from './login-helpers.ts';
import { SmsCodeInput } from './sms-code-input.tsx';
import { useLoginRules } from './use-login-rules.ts';

/*
 * What the forms of the login screen (account and mobile login, register, retrieve password) are made
 * of: the submit state, the form with its error line and submit button, the phone + picture captcha +
 * SMS code fields, and the new password twice.
 */

export interface LoginFormState<V> {
  form: FormInstance<V>;
  submitting: boolean;
  error: string | null;
  clearError: () => void;
  submit: (action: () => Promise<unknown>) => Promise<void>;
}

/**
 * A login-screen form's state: `submit(action)` spins while the action runs; a failure goes beside the
 * field its catalogue key is about (`fieldOf`) or, claimed by none, above the submit button.
 * `onFailure` sees a failure first (a wanted picture captcha).
 */
export function useLoginForm<V>(fieldOf: Record<string, string>, onFailure?: (failure: unknown, form: FormInstance<V>) => void): LoginFormState<V> {
  const [form] = Form.useForm<V>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (action: () => Promise<unknown>) => {
    setError(null);
    setSubmitting(true);
    try {
      await action();
    } catch (failure) {
      onFailure?.(failure, form);
      setError(applyServerError(form, failure, fieldOf));
    } finally {
      setSubmitting(false);
    }
  };

  return { form, submitting, error, clearError: () => setError(null), submit };
}

interface LoginFormProps<V> {
  state: LoginFormState<V>;
  onFinish: (values: V) => void;
  initialValues?: Partial<V>;
  /** `login`, `register` or `forget`: the error line is `<prefix>-error`, the button `<prefix>-submit`. */
  testIdPrefix: string;
  submitText: string;
  /** Tighter rows (the long register form). */
  compact?: boolean;
  children: ReactNode;
}

/** The form: its fields, the error line (cleared by the next change) and the submit button. */
export function LoginForm<V>({ state, onFinish, initialValues, testIdPrefix, submitText, compact, children }: LoginFormProps<V>) {
  const { form, submitting, error, clearError } = state;
  return (
    <Form
      form={form}
      initialValues={initialValues}
      onFinish={onFinish}
      onValuesChange={() => error && clearError()}
      size="large"
      layout="vertical"
      requiredMark={false}
      className={compact ? 'login-form login-form-compact' : 'login-form'}
    >
      {children}
      {error && <Alert className="login-alert" type="error" showIcon title={error} data-testid={`${testIdPrefix}-error`} />}
      <Button type="primary" htmlType="submit" block loading={submitting} className="login-submit" data-testid={`${testIdPrefix}-submit`}>
        {submitText}
      </Button>
    </Form>
  );
}

/** The values of {@link PhoneCodeFields}. */
export interface PhoneCodeValues {
  phone: string;
  captcha?: string;
  code: string;
}

/** Catalogue keys of a refused phone or SMS code, with the field each is about. */
export const PHONE_CODE_ERRORS: Record<string, string> = { PhoneFormatError: 'phone', PhoneCaptchaError: 'code', PhoneCaptchaExpired: 'code' };

/**
 * Phone, picture captcha and SMS code. The picture captcha is checked only when sending the SMS code
 * (always required for SMS), not when the form is submitted.
 */
export function PhoneCodeFields({ purpose, form, testIdPrefix }: { purpose: SmsPurpose; form: FormInstance; testIdPrefix: string }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const { captcha, loading, refresh } = useImgCaptcha(true);
  return (
    <>
      <Form.Item name="phone" rules={rules.phone}>
        <Input prefix={<MobileOutlined />} placeholder={t('login.phonePlaceholder')} autoComplete="tel" inputMode="tel" maxLength={20} data-testid={`${testIdPrefix}-phone`} />
      </Form.Item>
      <Form.Item name="captcha">
        <CaptchaInput captcha={captcha} loading={loading} onRefresh={() => void refresh()} testIdPrefix={testIdPrefix} />
      </Form.Item>
      <Form.Item name="code" rules={rules.smsCode}>
        <SmsCodeInput purpose={purpose} form={form} captchaId={captcha?.captchaId} onCaptchaUsed={() => void refresh()} testIdPrefix={testIdPrefix} />
      </Form.Item>
    </>
  );
}

/** The values of {@link NewPasswordFields}. */
export interface NewPasswordValues {
  password: string;
  confirmPassword: string;
}

/** Catalogue keys of a refused new password, with the field each is about. */
export const NEW_PASSWORD_ERRORS: Record<string, string> = { PasswordFormatError: 'password', PasswordInconsistent: 'confirmPassword' };

/** A new password (in the system config's format) and its confirmation. */
export function NewPasswordFields({ placeholder, testIdPrefix }: { placeholder: string; testIdPrefix: string }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  return (
    <>
      <Form.Item name="password" rules={rules.newPassword} extra={rules.passwordTip || undefined}>
        <Input.Password prefix={<LockOutlined />} placeholder={placeholder} autoComplete="new-password" maxLength={64} data-testid={`${testIdPrefix}-password`} />
      </Form.Item>
      <Form.Item name="confirmPassword" dependencies={['password']} rules={rules.confirmPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.confirmPasswordPlaceholder')} autoComplete="new-password" maxLength={64} data-testid={`${testIdPrefix}-confirm-password`} />
      </Form.Item>
    </>
  );
}
