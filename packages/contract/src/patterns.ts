/**
 * The default password and phone formats (the public system config serves the tenant's own). Kept free of
 * zod so that the web's login page can read them without loading zod and every schema of `auth.ts`.
 */
export const PASSWORD_REGEX = '^(?=.*[A-Za-z])(?=.*\\d)[\\x21-\\x7e]{6,20}$';
export const PHONE_REGEX = '^1[3-9]\\d{9}$';
export const passwordPattern = new RegExp(PASSWORD_REGEX);
export const phonePattern = new RegExp(PHONE_REGEX);
