import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin/lock — needs system_staff_enable; a locked account cannot sign in. */
export function lockStaff(ids: number[], locked: boolean): Promise<null> {
  return http.put<null>('/admin/security/admin/lock', { ids, locked });
}
