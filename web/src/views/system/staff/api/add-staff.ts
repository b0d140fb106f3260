import type { Staff, StaffCreate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** POST /admin/security/admin — needs system_staff_add; account and phone are unique across tenants. */
export function addStaff(body: StaffCreate): Promise<Staff> {
  return http.post<Staff>('/admin/security/admin', body);
}
