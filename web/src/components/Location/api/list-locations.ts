import type { Location } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

export const LOCATION_PATH = '/admin/basic/location';

/**
 * GET /admin/basic/location — a page of storage locations (of the warehouses the caller may see).
 * Filters `warehouseId` (one or several), `code`, `name` (contains), `enabled`; sorts on warehouseId, code, name, enabled, sort, createdAt.
 */
export function listLocations(params: QueryParams): Promise<PagedResult<Location>> {
  return http.list<Location>(LOCATION_PATH, params, { noLoading: true });
}
