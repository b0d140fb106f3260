import type { Staff } from '@p8/contract/system';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/**
 * GET /admin/security/admin — staff within the caller's data scope, paged, with their roles. Filters
 * `name`, `realName`, `phone` (contains), `deptId` (+ `includeChild=1`), `roleId`, `enabled`, `isLock`,
 * `start` / `end` (created); sorts `nameSort`, `realNameSort`, `phoneSort`, `createdAtSort`, `lastLoginAtSort`.
 */
export function getStaff(params: QueryParams): Promise<PagedResult<Staff>> {
  return http.list<Staff>('/admin/security/admin', params, { noLoading: true });
}
