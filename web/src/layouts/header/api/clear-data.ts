import { http } from '../../../app/http.ts';

export type ClearDataType = 'business' | 'basic';

/** PUT /admin/admin/tenant/clearData — initial administrator only. */
export function clearTenantData(type: ClearDataType): Promise<null> {
  return http.put<null>('/admin/admin/tenant/clearData', { type });
}
