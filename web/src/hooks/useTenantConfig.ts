import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../app/http.ts';
import { provideRefusalDigits } from '../app/refusal-text.ts';
import { kitSettingsOf, type KitSettings } from './kit-settings.ts';

/**
 * The tenant's configuration (GET /admin/admin/tenant) as the shared screen kit reads it: page size,
 * search cache, default date range, decimal places. Same query key as every other reader of that call,
 * so one request serves them all and a save on the tenant-config screen (invalidating the key) reaches
 * the tables and number inputs.
 */
export const TENANT_CONFIG_QUERY_KEY = ['admin', 'tenant'] as const;

export const tenantConfigQuery = {
  queryKey: TENANT_CONFIG_QUERY_KEY,
  queryFn: async () => {
    const config = await http.get<TenantConfigView>('/admin/admin/tenant', undefined, { noLoading: true });
    // Refusals write their figures with the places the lists use (app/refusal-text.ts).
    provideRefusalDigits(kitSettingsOf(config));
    return config;
  },
  staleTime: 60_000,
};

/** `ready` once the call has answered (or failed: the defaults apply then). */
export function useTenantConfig(): { config: TenantConfigView | undefined; settings: KitSettings; ready: boolean } {
  const query = useQuery(tenantConfigQuery);
  const settings = useMemo(() => kitSettingsOf(query.data), [query.data]);
  return { config: query.data, settings, ready: !query.isPending };
}

export default useTenantConfig;
