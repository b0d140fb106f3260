import type { Bom } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/**
 * GET /admin/basic/bom — paged. Filters `materialCode`, `materialName`, `version` (contains),
 * `materialId`, `isDefault`, `enabled`, `keyword`, `start` / `end`; sorts on material code and name,
 * version, default, enabled, created.
 */
export const BOM_LIST_PATH = '/admin/basic/bom';

export function listBoms(params: QueryParams): Promise<PagedResult<Bom>> {
  return http.list<Bom>(BOM_LIST_PATH, params, { noLoading: true });
}
