import type { Unit } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/basic/unit — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const UNIT_LIST_PATH = '/admin/basic/unit';

export function listUnits(params: QueryParams): Promise<PagedResult<Unit>> {
  return http.list<Unit>(UNIT_LIST_PATH, params, { noLoading: true });
}
