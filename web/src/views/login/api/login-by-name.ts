import type { LoginByName } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** Envelope `data` of a failed login: whether the next attempt needs the picture captcha. */
export interface LoginFailure {
  needCaptcha?: boolean;
}

/** POST /auth/admin/name — the form shows failures itself (silent). */
export function loginByName(payload: LoginByName): Promise<{ token: string }> {
  return http.post<{ token: string }>('/auth/admin/name', payload, { silent: true });
}
