import { http } from '../../../../app/http.ts';

/**
 * DELETE /admin/security/dept `{ ids }` — needs system_department_delete. Refused for the default
 * department, one with sub-departments, or one that still has staff. Silent: the screen shows
 * the refusal, naming the record.
 */
export function deleteDepts(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/security/dept', { ids }, { silent: true });
}
