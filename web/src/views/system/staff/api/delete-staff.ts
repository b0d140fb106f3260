import { http } from '../../../../app/http.ts';

/** DELETE /admin/security/admin `{ ids }` — needs system_staff_delete; never yourself nor the default administrator. Silent: the screen shows a refusal, naming the record. */
export function deleteStaff(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/security/admin', { ids }, { silent: true });
}
