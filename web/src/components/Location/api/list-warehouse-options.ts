import type { Warehouse } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** A warehouse as the location screen's selects offer it. */
export interface WarehouseOption {
  id: number;
  code: string;
  name: string;
  enabled: boolean;
}

/**
 * GET /admin/basic/stock — every warehouse the caller may see (first 200 by sort), disabled ones
 * included: the location filter lists them all, the location form offers only enabled ones.
 */
export async function listWarehouseOptions(): Promise<WarehouseOption[]> {
  const page = await http.list<Warehouse>('/admin/basic/stock', { pageSize: 200 }, { noLoading: true });
  return page.data.map((w) => ({ id: w.id, code: w.code, name: w.name, enabled: w.enabled }));
}

export const warehouseOptionsQuery = {
  queryKey: ['basic', 'stock', 'options'] as const,
  queryFn: listWarehouseOptions,
  staleTime: 30_000,
};
