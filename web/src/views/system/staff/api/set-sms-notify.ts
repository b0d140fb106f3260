import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin/updateSmsNotify — needs system_staff_notify. */
export function setSmsNotify(id: number, enabled: boolean): Promise<null> {
  return http.put<null>('/admin/security/admin/updateSmsNotify', { id, enabled }, { noLoading: true });
}
