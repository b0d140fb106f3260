import type { Dept, DeptCreate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** POST /admin/security/dept — needs system_department_add. */
export function addDept(body: DeptCreate): Promise<Dept> {
  return http.post<Dept>('/admin/security/dept', body);
}
