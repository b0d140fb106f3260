import type { Warehouse } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

export const WAREHOUSE_PATH = '/admin/basic/stock';

/**
 * GET /admin/basic/stock — a page of warehouses within the caller's assignment range. Filters `code`,
 * `name`, `address` (contains), `managerId`, `enabled`, `start`/`end`; sorts on code, name, enabled, sort, createdAt.
 */
export function listWarehouses(params: QueryParams): Promise<PagedResult<Warehouse>> {
  return http.list<Warehouse>(WAREHOUSE_PATH, params, { noLoading: true });
}
