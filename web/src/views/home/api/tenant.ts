import { useQuery } from '@tanstack/react-query';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../../../app/http.ts';

/** GET /admin/admin/tenant — the tenant's name and configuration. */
export const tenantQueryOptions = {
  queryKey: ['admin', 'tenant'] as const,
  queryFn: () => http.get<TenantConfigView>('/admin/admin/tenant', undefined, { noLoading: true }),
  staleTime: 60_000,
};

export function useTenant() {
  return useQuery(tenantQueryOptions).data;
}
