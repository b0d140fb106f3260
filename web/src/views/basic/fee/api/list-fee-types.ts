import type { FeeType } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

export const FEE_PATH = '/admin/basic/fee';

/** GET /admin/basic/fee — a page of fee types. Filters `name`, `remark` (contains), `enabled`, `kind`; sorts on name, enabled, sort, createdAt, kind. */
export function listFeeTypes(params: QueryParams): Promise<PagedResult<FeeType>> {
  return http.list<FeeType>(FEE_PATH, params, { noLoading: true });
}
