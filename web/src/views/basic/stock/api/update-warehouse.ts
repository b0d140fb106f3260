import type { WarehouseDetail } from '@p8/contract/basic';
import type { z } from 'zod';
import type { warehouseSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

export type WarehouseUpdate = z.input<typeof warehouseSchemas.update>;

/** PUT /admin/basic/stock (code basic_stock_update). */
export function updateWarehouse(body: WarehouseUpdate): Promise<WarehouseDetail> {
  return http.put<WarehouseDetail>(WAREHOUSE_PATH, body);
}
