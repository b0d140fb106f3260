import { Form, Input } from 'antd';
import { IdcardOutlined, ShopOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../app/feedback.ts';
import { registerTenant } from '../api/register-tenant.ts';
import { LoginForm, NEW_PASSWORD_ERRORS, NewPasswordFields, PHONE_CODE_ERRORS, PhoneCodeFields, useLoginForm, type NewPasswordValues, type PhoneCodeValues } from './login-form.tsx';
import { useLoginRules } from './use-login-rules.ts';

interface RegisterValues extends PhoneCodeValues, NewPasswordValues {
  tenantName: string;
  name: string;
  realName?: string;
}

const FIELD_OF = { AdminExist: 'name', AccountFormatError: 'name', PhoneIsRegistered: 'phone', ...PHONE_CODE_ERRORS, ...NEW_PASSWORD_ERRORS };

/** Register a tenant with its first administrator; then back to login with the account filled in. */
export function RegisterForm({ onDone }: { onDone: (name: string) => void }) {
  const { t } = useTranslation();
  const rules = useLoginRules();
  const state = useLoginForm<RegisterValues>(FIELD_OF);

  const submit = (values: RegisterValues) =>
    state.submit(async () => {
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
    });

  return (
    <LoginForm state={state} onFinish={submit} testIdPrefix="register" submitText={t('login.registerSubmit')} compact>
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
      <PhoneCodeFields purpose="register" form={state.form} testIdPrefix="register" />
      <NewPasswordFields placeholder={t('login.passwordPlaceholder')} testIdPrefix="register" />
    </LoginForm>
  );
}
