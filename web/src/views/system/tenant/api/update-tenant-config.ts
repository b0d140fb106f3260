import type { TenantConfigUpdate, TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../../../../app/http.ts';

/**
 * PUT /admin/admin/tenant — the changed keys only (code system_tenant_config_update). The server refuses
 * fewer decimal places than stored (DecimalPlacesOnlyIncrease) and more than 6 (DecimalPlacesMaxSix).
 */
export function updateTenantConfig(body: TenantConfigUpdate, options: { silent?: boolean } = {}): Promise<TenantConfigView> {
  return http.put<TenantConfigView>('/admin/admin/tenant', body, { silent: options.silent });
}
