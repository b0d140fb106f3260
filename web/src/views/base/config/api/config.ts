import type { PlatformConfig, PlatformConfigView } from '@p8/contract/base';
import { http } from '../../../../app/http.ts';

/** GET /admin/base/config — the public system config and whether the caller (the platform administrator) may change it. */
export function getPlatformConfig(): Promise<PlatformConfigView> {
  return http.get<PlatformConfigView>('/admin/base/config');
}

/** PUT /admin/base/config (code base_config_update, platform administrator only). */
export function savePlatformConfig(body: PlatformConfig): Promise<PlatformConfigView> {
  return http.put<PlatformConfigView>('/admin/base/config', body);
}
