import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin/newOrderNotify — needs system_staff_notify. */
export function setOrderNotify(id: number, enabled: boolean): Promise<null> {
  return http.put<null>('/admin/security/admin/newOrderNotify', { id, enabled }, { noLoading: true });
}
