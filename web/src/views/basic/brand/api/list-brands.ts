import type { Brand } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/basic/brand — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const BRAND_LIST_PATH = '/admin/basic/brand';

export function listBrands(params: QueryParams): Promise<PagedResult<Brand>> {
  return http.list<Brand>(BRAND_LIST_PATH, params, { noLoading: true });
}
