import type { StaffResetPassword } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/admin/reset — needs system_staff_reset_password; signs the account out everywhere. */
export function resetStaffPassword(body: StaffResetPassword): Promise<null> {
  return http.put<null>('/admin/security/admin/reset', body);
}
