import { useTranslation } from 'react-i18next';
import { loginByPhone } from '../api/login-by-phone.ts';
import { LoginForm, PHONE_CODE_ERRORS, PhoneCodeFields, useLoginForm, type PhoneCodeValues } from './login-form.tsx';

const FIELD_OF = { PhoneNotRegistered: 'phone', AdminNotExist: 'phone', ...PHONE_CODE_ERRORS };

/** Mobile login: phone + SMS code; getting the code needs the picture captcha. */
export function MobileForm({ onToken }: { onToken: (token: string) => Promise<void> }) {
  const { t } = useTranslation();
  const state = useLoginForm<PhoneCodeValues>(FIELD_OF);

  const submit = (values: PhoneCodeValues) =>
    state.submit(async () => {
      const { token } = await loginByPhone({ phone: values.phone.trim(), code: values.code.trim() });
      await onToken(token);
    });

  return (
    <LoginForm state={state} onFinish={submit} testIdPrefix="login" submitText={t('login.submit')}>
      <PhoneCodeFields purpose="login" form={state.form} testIdPrefix="login" />
    </LoginForm>
  );
}
