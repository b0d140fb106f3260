import type { Role, RoleUpdate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/role — needs system_role_update. */
export function updateRole(body: RoleUpdate): Promise<Role> {
  return http.put<Role>('/admin/security/role', body);
}
