import type { PlatformTenant } from '@p8/contract/platform';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/platform/tenant — every tenant (platform administrator); filters `name` (tenant, administrator or phone) and `enabled`. */
export function listTenants(params: QueryParams): Promise<PagedResult<PlatformTenant>> {
  return http.list<PlatformTenant>('/admin/platform/tenant', params, { noLoading: true });
}
