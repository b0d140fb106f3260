import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

/**
 * PUT /admin/basic/stock/enable `{ ids, enabled }` (code basic_stock_enable). Closing a warehouse that
 * holds stock is refused (WarehouseExistInventoryProhibitClose). Silent: the screen shows the refusal.
 */
export function enableWarehouses(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${WAREHOUSE_PATH}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
