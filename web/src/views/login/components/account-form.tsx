import { useState } from 'react';
import { Checkbox, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../app/http.ts';
import { loginByName, type LoginFailure } from '../api/login-by-name.ts';
import { CaptchaInput, useImgCaptcha } from './img-captcha.tsx';
import { readRemembered, writeRemembered } from './login-helpers.ts';
import { LoginForm, useLoginForm } from './login-form.tsx';
import { useLoginRules } from './use-login-rules.ts';

interface AccountValues {
  name: string;
  password: string;
  captcha?: string;
  remember: boolean;
}

const CAPTCHA_KEYS = ['ImgCaptchaRequired', 'ImgCaptchaError', 'ImgCaptchaExpired'];
const FIELD_OF: Record<string, string> = { ImgCaptchaError: 'captcha', ImgCaptchaExpired: 'captcha', AdminNotExist: 'name' };

/** Account login: name + password, remember password, picture captcha once the server asks for it. */
export function AccountForm({ onToken, onForget, initialName }: { onToken: (token: string) => Promise<void>; onForget: () => void; initialName?: string }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const { captcha, loading: captchaLoading, refresh } = useImgCaptcha(needCaptcha);
  const [initial] = useState<AccountValues>(() => {
    const remembered = readRemembered();
    if (initialName) return { name: initialName, password: '', remember: false };
    return remembered ? { ...remembered, remember: true } : { name: '', password: '', remember: false };
  });

  const state = useLoginForm<AccountValues>(FIELD_OF, (failure, form) => {
    if (!isHttpError(failure)) return;
    const data = failure.data as LoginFailure | undefined;
    if (!data?.needCaptcha && !CAPTCHA_KEYS.includes(failure.key)) return;
    // The captcha is single use: a new one for the next attempt.
    form.setFieldValue('captcha', '');
    if (needCaptcha) void refresh();
    else setNeedCaptcha(true);
  });

  const submit = (values: AccountValues) =>
    state.submit(async () => {
      const { token } = await loginByName({
        name: values.name.trim(),
        password: values.password,
        ...(needCaptcha && captcha ? { captchaId: captcha.captchaId, captcha: values.captcha?.trim() } : {}),
      });
      writeRemembered(values.remember ? { name: values.name.trim(), password: values.password } : null);
      await onToken(token);
    });

  return (
    <LoginForm state={state} onFinish={submit} initialValues={initial} testIdPrefix="login" submitText={t('login.submit')}>
      <Form.Item name="name" rules={rules.name}>
        <Input prefix={<UserOutlined />} placeholder={t('login.namePlaceholder')} autoComplete="username" maxLength={50} data-testid="login-name" />
      </Form.Item>
      <Form.Item name="password" rules={rules.loginPassword}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.passwordPlaceholder')} autoComplete="current-password" maxLength={100} data-testid="login-password" />
      </Form.Item>
      {needCaptcha && (
        <Form.Item name="captcha" rules={rules.captcha}>
          <CaptchaInput captcha={captcha} loading={captchaLoading} onRefresh={() => void refresh()} testIdPrefix="login" />
        </Form.Item>
      )}
      <div className="login-form-row">
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
        </Form.Item>
        <a className="login-link" onClick={onForget} data-testid="login-to-forget">
          {t('login.forget')}
        </a>
      </div>
    </LoginForm>
  );
}
