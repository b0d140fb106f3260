import type { Assignment } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

/** PUT /admin/basic/stock/assign `{ ids, deptIds, adminIds }` (code basic_stock_assign): replaces each warehouse's assignment. */
export function assignWarehouses(ids: number[], assignment: Assignment): Promise<null> {
  return http.put<null>(`${WAREHOUSE_PATH}/assign`, { ids, ...assignment });
}
