import type { Attribute } from '@p8/contract/basic';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/basic/attribute — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const ATTRIBUTE_LIST_PATH = '/admin/basic/attribute';

export function listAttributes(params: QueryParams): Promise<PagedResult<Attribute>> {
  return http.list<Attribute>(ATTRIBUTE_LIST_PATH, params, { noLoading: true });
}
