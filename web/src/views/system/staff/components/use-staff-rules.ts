import { useMemo } from 'react';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_REGEX } from '@p8/contract/auth';
import { accountNamePattern } from '@p8/contract/system';
import { formatRules, useSystemConfigStore } from '../../../../app/system-config.ts';

/**
 * Rules of the staff forms. Password and phone formats come from the public system config
 * (`passwordRegex`, `phoneRegex`), so the form refuses what the server would.
 */
export function useStaffRules() {
  const { t, i18n } = useTranslation();
  const config = useSystemConfigStore((s) => s.config);
  return useMemo(() => {
    const formats = formatRules(config);
    const pattern = (regex: RegExp, errorKey: string): FormRule => ({
      validator: (_, value: string | undefined) => (!value || regex.test(value) ? Promise.resolve() : Promise.reject(new Error(t(`error.${errorKey}`)))),
    });
    const language = i18n.language === 'en' ? 'en' : 'zh';
    const ownTip = !config?.passwordRegex || config.passwordRegex === PASSWORD_REGEX ? t('system.staff.passwordTip') : '';
    return {
      name: [{ required: true, whitespace: true, message: t('error.PleaseInputAccount') }, pattern(accountNamePattern, 'AccountFormatError')] as FormRule[],
      password: [{ required: true, message: t('error.PleaseInputPassword') }, pattern(formats.password, 'PasswordFormatError')] as FormRule[],
      /** Must equal the `password` field (the two passwords are inconsistent). */
      confirmPassword: [
        { required: true, message: t('error.PleaseInputPassword') },
        ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
          validator: (_: unknown, value: string | undefined) =>
            !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('error.PasswordInconsistent'))),
        }),
      ] as FormRule[],
      phone: [pattern(formats.phone, 'PhoneFormatError')] as FormRule[],
      passwordTip: config?.passwordRegexTip?.[language] || ownTip,
    };
  }, [config, t, i18n.language]);
}
