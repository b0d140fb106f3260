import { useTranslation } from 'react-i18next';
import { feedback } from '../../../app/feedback.ts';
import { resetPassword } from '../api/reset-password.ts';
import { LoginForm, NEW_PASSWORD_ERRORS, NewPasswordFields, PHONE_CODE_ERRORS, PhoneCodeFields, useLoginForm, type NewPasswordValues, type PhoneCodeValues } from './login-form.tsx';

type ForgetValues = PhoneCodeValues & NewPasswordValues;

const FIELD_OF = { PhoneNotRegistered: 'phone', AdminNotExist: 'phone', ...PHONE_CODE_ERRORS, ...NEW_PASSWORD_ERRORS };

/** Retrieve the password: phone, SMS code, new password twice. */
export function ForgetForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const state = useLoginForm<ForgetValues>(FIELD_OF);

  const submit = (values: ForgetValues) =>
    state.submit(async () => {
      await resetPassword({ phone: values.phone.trim(), code: values.code.trim(), password: values.password, confirmPassword: values.confirmPassword });
      feedback.message.success(t('login.forgetSuccess'));
      onDone();
    });

  return (
    <LoginForm state={state} onFinish={submit} testIdPrefix="forget" submitText={t('login.forgetSubmit')}>
      <PhoneCodeFields purpose="forget" form={state.form} testIdPrefix="forget" />
      <NewPasswordFields placeholder={t('login.newPasswordPlaceholder')} testIdPrefix="forget" />
    </LoginForm>
  );
}
