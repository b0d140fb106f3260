import type { SystemSettings, SystemSettingsUpdate } from '@p8/contract/tenant-config';
import { http } from '../../../../app/http.ts';

/** PUT /admin/system/setting — each key sent is replaced whole (code system_setting_update). */
export function updateSystemSettings(body: SystemSettingsUpdate): Promise<SystemSettings> {
  return http.put<SystemSettings>('/admin/system/setting', body);
}
