import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeptNode } from '@p8/contract/system';
import { http } from '../../../app/http.ts';

/** GET /admin/security/dept/tree — the tenant's department tree; `enabled` keeps only enabled (or disabled) ones. */
export function getDeptTree(enabled?: boolean): Promise<DeptNode[]> {
  return http.get<DeptNode[]>('/admin/security/dept/tree', { enabled }, { noLoading: true });
}

/** Every screen that shows departments (staff filter, role scope, dialogs, record assignment) reads this one query. */
export const deptTreeQueryKey = ['system', 'dept', 'tree'] as const;

export const deptTreeQuery = queryOptions({
  queryKey: deptTreeQueryKey,
  queryFn: () => getDeptTree(),
  staleTime: 30_000,
});

export function useDeptTree() {
  return useQuery(deptTreeQuery);
}
