import type { TenantModules } from '@p8/contract/platform';
import { http } from '../../../../app/http.ts';

/** PUT /admin/platform/tenant/modules — the tenant's whole module list with each module's last day (null = never). */
export function setTenantModules(body: TenantModules): Promise<null> {
  return http.put<null>('/admin/platform/tenant/modules', body);
}
