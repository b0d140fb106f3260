import { queryOptions } from '@tanstack/react-query';
import type { MaterialDetail } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/material/:id — one material with its units (main unit first) and its assignment. */
export function getMaterial(id: number): Promise<MaterialDetail> {
  return http.get<MaterialDetail>(`/admin/basic/material/${id}`, undefined, { noLoading: true });
}

/** The detail as a query (the BOM lines read a material's units through it). */
export const materialQuery = (id: number) =>
  queryOptions({
    queryKey: ['basic', 'material', id],
    queryFn: () => getMaterial(id),
    staleTime: 30_000,
  });
