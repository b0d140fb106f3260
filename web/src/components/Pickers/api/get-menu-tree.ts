import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MenuRow } from '@p8/contract/system';
import { http } from '../../../app/http.ts';

/** GET /admin/security/menu/tree — every menu of the tenant with its buttons, as a tree. */
export function getMenuTree(enabled?: boolean): Promise<MenuRow[]> {
  return http.get<MenuRow[]>('/admin/security/menu/tree', { enabled }, { noLoading: true });
}

/** Read by the menu screen's dialog and the role permission dialog. */
export const menuTreeQueryKey = ['system', 'menu', 'tree'] as const;

export const menuTreeQuery = queryOptions({
  queryKey: menuTreeQueryKey,
  queryFn: () => getMenuTree(),
  staleTime: 30_000,
});

export function useMenuTree() {
  return useQuery(menuTreeQuery);
}
