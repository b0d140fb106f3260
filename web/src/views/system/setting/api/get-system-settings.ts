import { useQuery } from '@tanstack/react-query';
import type { SystemSettings } from '@p8/contract/tenant-config';
import { http } from '../../../../app/http.ts';

/** GET /admin/system/setting — the tenant's system settings, every key with its default. */
export function getSystemSettings(): Promise<SystemSettings> {
  return http.get<SystemSettings>('/admin/system/setting', undefined, { noLoading: true });
}

export const SYSTEM_SETTINGS_QUERY_KEY = ['admin', 'system', 'setting'] as const;

export function useSystemSettings() {
  return useQuery({ queryKey: SYSTEM_SETTINGS_QUERY_KEY, queryFn: getSystemSettings, staleTime: 0 });
}
