import { http } from '../../../app/http.ts';

/** PUT /admin/admin/tenant/logout — logs the tenant off; initial administrator only. */
export function logoffTenant(password: string): Promise<null> {
  return http.put<null>('/admin/admin/tenant/logout', { password, confirm: true });
}
