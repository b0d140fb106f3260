import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

/**
 * DELETE /admin/basic/stock `{ ids }` (code basic_stock_delete). Refused for a warehouse holding stock
 * (WarehouseExistInventoryProhibitDelete) or with locations (StockInUseProhibitDelete). Silent: the
 * screen names the refused warehouse.
 */
export function deleteWarehouses(ids: number[]): Promise<null> {
  return http.delete<null>(WAREHOUSE_PATH, { ids }, { silent: true });
}
