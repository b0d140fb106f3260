import type { WarehouseDetail } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

/** GET /admin/basic/stock/:id — one warehouse with its assignment. */
export function getWarehouse(id: number): Promise<WarehouseDetail> {
  return http.get<WarehouseDetail>(`${WAREHOUSE_PATH}/${id}`);
}
