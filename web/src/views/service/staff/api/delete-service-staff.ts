import { http } from '../../../../app/http.ts';

/** DELETE /admin/service/technician `{ ids }` (code service_staff_delete): their orders stay theirs. */
export function deleteServiceStaff(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/service/technician', { ids }, { silent: true });
}
