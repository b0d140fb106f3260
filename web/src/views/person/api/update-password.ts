import type { UpdatePassword } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** PUT /admin/current/updatePassword — other sessions of the user are revoked by the server. */
export function updatePassword(body: UpdatePassword): Promise<null> {
  return http.put<null>('/admin/current/updatePassword', body);
}
