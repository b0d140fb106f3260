import type { DistrictNode } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/** GET /admin/basic/district/tree — the tenant's districts (at most four levels) for address cascaders. */
export function getDistrictTree(): Promise<DistrictNode[]> {
  return http.get<DistrictNode[]>('/admin/basic/district/tree', undefined, { noLoading: true });
}

export const districtTreeQuery = {
  queryKey: ['basic', 'district', 'tree'] as const,
  queryFn: getDistrictTree,
  staleTime: 60_000,
};
