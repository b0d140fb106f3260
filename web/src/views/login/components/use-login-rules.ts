import { useMemo } from 'react';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatRules, useSystemConfigStore } from '../../../app/system-config.ts';

/**
 * Form rules of the login screens. Password and phone formats come from the system config
 * (`passwordRegex`, `phoneRegex`) and are checked before anything is sent.
 */
export function useLoginRules() {
  const { t, i18n } = useTranslation();
  const config = useSystemConfigStore((s) => s.config);
  return useMemo(() => {
    const rules = formatRules(config);
    const required = (key: string): FormRule => ({ required: true, whitespace: true, message: t(key) });
    const pattern = (regex: RegExp, errorKey: string): FormRule => ({
      validator: (_, value: string | undefined) =>
        !value || regex.test(value) ? Promise.resolve() : Promise.reject(new Error(t(`error.${errorKey}`))),
    });
    const language = i18n.language === 'en' ? 'en' : 'zh';
    return {
      name: [required('login.namePlaceholder')],
      loginPassword: [required('login.passwordPlaceholder')],
      captcha: [required('login.captchaPlaceholder')],
      phone: [required('login.phonePlaceholder'), pattern(rules.phone, 'PhoneFormatError')],
      smsCode: [required('login.smsCodePlaceholder'), pattern(/^\d{4,8}$/, 'PhoneCaptchaError')],
      tenantName: [required('login.tenantNamePlaceholder'), { min: 2, max: 50, message: t('login.tenantNamePlaceholder') }],
      account: [required('login.accountPlaceholder'), pattern(/^[A-Za-z][A-Za-z0-9_]{3,19}$/, 'AccountFormatError')],
      newPassword: [required('login.passwordPlaceholder'), pattern(rules.password, 'PasswordFormatError')],
      /** Confirmation: must equal the `password` field (PasswordInconsistent). */
      confirmPassword: [
        required('login.confirmPasswordPlaceholder'),
        ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
          validator: (_: unknown, value: string | undefined) =>
            !value || value === getFieldValue('password')
              ? Promise.resolve()
              : Promise.reject(new Error(t('error.PasswordInconsistent'))),
        }),
      ] as FormRule[],
      passwordTip: config?.passwordRegexTip?.[language] ?? '',
    };
  }, [config, t, i18n.language]);
}
