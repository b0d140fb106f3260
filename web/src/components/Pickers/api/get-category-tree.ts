import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CategoryNode } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/category/tree — the tenant's category tree (at most three levels); `enabled` keeps only enabled (or disabled) ones. */
export function getCategoryTree(enabled?: boolean): Promise<CategoryNode[]> {
  return http.get<CategoryNode[]>('/admin/basic/category/tree', { enabled }, { noLoading: true });
}

/** Every basic screen that shows categories (the material tree, dialogs) reads this one query. */
export const categoryTreeQueryKey = ['basic', 'category', 'tree'] as const;

export const categoryTreeQuery = queryOptions({
  queryKey: categoryTreeQueryKey,
  queryFn: () => getCategoryTree(),
  staleTime: 30_000,
});

export function useCategoryTree() {
  return useQuery(categoryTreeQuery);
}
