import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DistrictNode } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/district/tree — the tenant's districts (at most four levels): the district screen, and the address cascaders of the partner screens. */
export function getDistrictTree(): Promise<DistrictNode[]> {
  return http.get<DistrictNode[]>('/admin/basic/district/tree', undefined, { noLoading: true });
}

export const districtTreeQueryKey = ['basic', 'district', 'tree'] as const;

export const districtTreeQuery = queryOptions({
  queryKey: districtTreeQueryKey,
  queryFn: getDistrictTree,
  staleTime: 30_000,
});

export function useDistrictTree() {
  return useQuery(districtTreeQuery);
}
