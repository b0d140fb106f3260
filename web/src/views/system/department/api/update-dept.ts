import type { Dept, DeptUpdate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/dept — needs system_department_update; the parent cannot be the department itself or below it. */
export function updateDept(body: DeptUpdate): Promise<Dept> {
  return http.put<Dept>('/admin/security/dept', body);
}
