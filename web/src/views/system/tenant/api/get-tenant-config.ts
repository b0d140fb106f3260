import { useQuery } from '@tanstack/react-query';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { tenantConfigQuery } from '../../../../hooks/useTenantConfig.ts';

/**
 * GET /admin/admin/tenant — the tenant config, through the kit's query (same key): one request serves
 * the screen and every table, and a save here reaches them.
 */
export function useTenantConfigView() {
  return useQuery<TenantConfigView>({ ...tenantConfigQuery, staleTime: 0 });
}
