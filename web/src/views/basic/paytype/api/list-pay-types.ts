import type { PayType } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

export const PAYTYPE_PATH = '/admin/basic/paytype';

/** GET /admin/basic/paytype — a page of pay types. Filters `name`, `remark` (contains), `enabled`; sorts on name, enabled, sort, createdAt. */
export function listPayTypes(params: QueryParams): Promise<PagedResult<PayType>> {
  return http.list<PayType>(PAYTYPE_PATH, params, { noLoading: true });
}
