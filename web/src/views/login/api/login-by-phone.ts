import type { LoginByPhone } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** POST /auth/admin/phone — the form shows failures itself (silent). */
export function loginByPhone(payload: LoginByPhone): Promise<{ token: string }> {
  return http.post<{ token: string }>('/auth/admin/phone', payload, { silent: true });
}
