import type { DeptNode } from '@p8/contract/system';
import { http } from '../../../app/http.ts';

/** GET /admin/security/dept/tree — the tenant's department tree (for assigning records to departments). */
export function getDeptTree(): Promise<DeptNode[]> {
  return http.get<DeptNode[]>('/admin/security/dept/tree', undefined, { noLoading: true });
}

/** Same key as the system screens' department tree: one request serves them all. */
export const deptTreeQuery = {
  queryKey: ['system', 'dept', 'tree'] as const,
  queryFn: getDeptTree,
  staleTime: 30_000,
};
