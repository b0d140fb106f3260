import { queryOptions } from '@tanstack/react-query';
import type { Region } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/region/children — the national regions directly below a region (the provinces without one). */
export function getRegionChildren(parentCode?: string): Promise<Region[]> {
  return http.get<Region[]>('/admin/basic/region/children', parentCode ? { parentCode } : undefined, { noLoading: true });
}

/** The national list is reference data: loaded once per level and kept for the session. */
export const regionChildrenQuery = (parentCode?: string) =>
  queryOptions({
    queryKey: ['basic', 'region', 'children', parentCode ?? ''] as const,
    queryFn: () => getRegionChildren(parentCode),
    staleTime: Infinity,
    gcTime: Infinity,
  });
