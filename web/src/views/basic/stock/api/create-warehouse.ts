import type { WarehouseDetail } from '@p8/contract/basic';
import type { z } from 'zod';
import type { warehouseSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { WAREHOUSE_PATH } from './list-warehouses.ts';

export type WarehouseCreate = z.input<typeof warehouseSchemas.create>;

/** POST /admin/basic/stock (code basic_stock_add): CodeRepeat / NameRepeat when taken. */
export function createWarehouse(body: WarehouseCreate): Promise<WarehouseDetail> {
  return http.post<WarehouseDetail>(WAREHOUSE_PATH, body);
}
