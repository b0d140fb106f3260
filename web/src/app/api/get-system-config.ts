import type { SystemConfig } from '@p8/contract/tenant-config';
import { http } from '../http.ts';

/** GET /base/system/config — public; never shows the loading overlay. */
export function getSystemConfig(): Promise<SystemConfig> {
  return http.get<SystemConfig>('/base/system/config', undefined, { noLoading: true, silent: true });
}
