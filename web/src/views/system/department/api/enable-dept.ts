import { http } from '../../../../app/http.ts';

/** PUT /admin/security/dept/enable — needs system_department_enable. Silent: the screen shows a refusal, naming the record. */
export function enableDepts(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/security/dept/enable', { ids, enabled }, { noLoading: true, silent: true });
}
