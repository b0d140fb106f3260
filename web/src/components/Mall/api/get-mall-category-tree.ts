import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MallCategoryNode } from '@p8/contract/mall';
import { http } from '../../../app/http.ts';

/** GET /admin/mall/category/tree — the mall's two-level category tree; `enabled` keeps only enabled (or disabled) ones. */
export function getMallCategoryTree(enabled?: boolean): Promise<MallCategoryNode[]> {
  return http.get<MallCategoryNode[]>('/admin/mall/category/tree', { enabled }, { noLoading: true });
}

/** The category screen and the product screen (filter, dialog) read this one query. */
export const mallCategoryTreeQueryKey = ['mall', 'category', 'tree'] as const;

export function useMallCategoryTree() {
  return useQuery(queryOptions({ queryKey: mallCategoryTreeQueryKey, queryFn: () => getMallCategoryTree(), staleTime: 30_000 }));
}
