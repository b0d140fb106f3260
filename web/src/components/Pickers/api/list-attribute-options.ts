import { queryOptions } from '@tanstack/react-query';
import type { Attribute } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/attribute/picker — enabled attributes with their values (first 200): the material's custom attributes. */
export function listAttributeOptions(): Promise<Attribute[]> {
  return http.list<Attribute>('/admin/basic/attribute/picker', { current: 1, pageSize: 200 }, { noLoading: true }).then((page) => page.data);
}

export const attributeOptionsQuery = queryOptions({
  queryKey: ['basic', 'attribute', 'options'],
  queryFn: listAttributeOptions,
  staleTime: 30_000,
});
