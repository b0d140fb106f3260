import { z } from 'zod';
import { passwordPattern, phonePattern } from './patterns.ts';
import { storableText } from './text.ts';

/**
 * Sign-in, registration and captcha payloads (the login screen and the calls behind it).
 * Password and phone formats come from the public system config; these defaults are what it serves.
 */
export { PASSWORD_REGEX, PHONE_REGEX, passwordPattern, phonePattern } from './patterns.ts';

const password = storableText().regex(passwordPattern, { message: 'PasswordFormatError' });
const phone = storableText().regex(phonePattern, { message: 'PhoneFormatError' });
const captchaFields = {
  captchaId: storableText().uuid().optional(),
  captcha: storableText().max(10).optional(),
};

export const loginByNameSchema = z.object({
  name: storableText().trim().min(1).max(50),
  // Not the format rule: an old password that predates a stricter rule must still sign in.
  password: storableText().min(1).max(100),
  ...captchaFields,
});
export type LoginByName = z.infer<typeof loginByNameSchema>;

export const loginByPhoneSchema = z.object({
  phone,
  code: storableText().regex(/^\d{4,8}$/, { message: 'PhoneCaptchaError' }),
});
export type LoginByPhone = z.infer<typeof loginByPhoneSchema>;

export const LoginResult = z.object({ token: storableText() });

export const SmsPurpose = ['login', 'register', 'forget'] as const;
export type SmsPurpose = (typeof SmsPurpose)[number];

/** POST /base/phoneCaptcha (login) and /base/phoneCaptcha/verify (register, forget): a picture captcha is required. */
export const sendPhoneCaptchaSchema = z.object({
  phone,
  type: z.enum(SmsPurpose).default('login'),
  captchaId: storableText().uuid(),
  captcha: storableText().min(1).max(10),
});
export type SendPhoneCaptcha = z.infer<typeof sendPhoneCaptchaSchema>;

export const registerSchema = z
  .object({
    tenantName: storableText().trim().min(2).max(50),
    name: storableText().trim().regex(/^[A-Za-z][A-Za-z0-9_]{3,19}$/, { message: 'AccountFormatError' }),
    realName: storableText().trim().max(30).optional(),
    phone,
    code: storableText().regex(/^\d{4,8}$/, { message: 'PhoneCaptchaError' }),
    password,
    confirmPassword: storableText(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'PasswordInconsistent', path: ['confirmPassword'] });
export type Register = z.infer<typeof registerSchema>;

export const resetPasswordSchema = z
  .object({ phone, code: storableText().regex(/^\d{4,8}$/, { message: 'PhoneCaptchaError' }), password, confirmPassword: storableText() })
  .refine((v) => v.password === v.confirmPassword, { message: 'PasswordInconsistent', path: ['confirmPassword'] });
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

export const updatePasswordSchema = z
  .object({ oldPassword: storableText().min(1).max(100), password, confirmPassword: storableText() })
  .refine((v) => v.password === v.confirmPassword, { message: 'PasswordInconsistent', path: ['confirmPassword'] });
export type UpdatePassword = z.infer<typeof updatePasswordSchema>;

/** GET /base/imgCaptcha */
export interface ImgCaptcha {
  captchaId: string;
  /** SVG markup as a data URL. */
  image: string;
  /** Only when the server runs with the test-only EXPOSE_CODES_FOR_TESTS setting. */
  code?: string;
}

/** GET /admin/current/detail — the user info the web app keeps in local storage. */
export interface CurrentUser {
  id: number;
  tenantId: number;
  name: string;
  nickName: string;
  realName: string;
  phone: string;
  email: string;
  sex: number;
  avatar: string;
  roleKey: string;
  roleName: string;
  deptId: number | null;
  deptName: string;
  /** The tenant's initial administrator: may clear data and log the tenant off. */
  isInitialAdmin: boolean;
  commonMenus: number[];
}

export const clearDataSchema = z.object({ type: z.enum(['business', 'basic']) });
export const tenantLogoffSchema = z.object({ password: storableText().min(1).max(100), confirm: z.literal(true) });
export const commonMenusSchema = z.object({ menuIds: z.array(z.number().int().positive()).max(30) });
