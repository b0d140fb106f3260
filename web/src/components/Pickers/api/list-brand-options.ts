import { queryOptions } from '@tanstack/react-query';
import type { Brand } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/brand/picker — enabled brands (first 200), for the material form and filter. */
export function listBrandOptions(): Promise<Brand[]> {
  return http.list<Brand>('/admin/basic/brand/picker', { current: 1, pageSize: 200 }, { noLoading: true }).then((page) => page.data);
}

export const brandOptionsQuery = queryOptions({
  queryKey: ['basic', 'brand', 'options'],
  queryFn: listBrandOptions,
  staleTime: 30_000,
});
