import type { Staff, StaffUpdate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin — needs system_staff_update. */
export function updateStaff(body: StaffUpdate): Promise<Staff> {
  return http.put<Staff>('/admin/security/admin', body);
}
