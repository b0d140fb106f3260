import { http } from '../../../../app/http.ts';

/** PUT /admin/service/technician/enable `{ ids, enabled }` (code service_staff_enable). Silent: the screen shows a refusal, naming the record. */
export function enableServiceStaff(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/service/technician/enable', { ids, enabled }, { noLoading: true, silent: true });
}
