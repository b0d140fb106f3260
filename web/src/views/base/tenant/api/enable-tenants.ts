import { http } from '../../../../app/http.ts';

/** PUT /admin/platform/tenant/enable — disabling ends the tenant's sessions at once. */
export function enableTenants(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/platform/tenant/enable', { ids, enabled });
}
