import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin/enable — needs system_staff_enable; a disabled account is signed out. Silent: the screen shows a refusal, naming the record. */
export function enableStaff(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/security/admin/enable', { ids, enabled }, { noLoading: true, silent: true });
}
