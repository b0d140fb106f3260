import { queryOptions } from '@tanstack/react-query';
import type { Unit } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/unit/picker — enabled units (first 200), for the material units and BOM lines. */
export function listUnitOptions(): Promise<Unit[]> {
  return http.list<Unit>('/admin/basic/unit/picker', { current: 1, pageSize: 200 }, { noLoading: true }).then((page) => page.data);
}

export const unitOptionsQuery = queryOptions({
  queryKey: ['basic', 'unit', 'options'],
  queryFn: listUnitOptions,
  staleTime: 30_000,
});
