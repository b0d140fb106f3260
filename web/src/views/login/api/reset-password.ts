import type { ResetPassword } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** PUT /base/tenant/reset/pwd — retrieve the password with an SMS code. */
export function resetPassword(payload: ResetPassword): Promise<null> {
  return http.put<null>('/base/tenant/reset/pwd', payload, { silent: true });
}
