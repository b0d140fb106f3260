import type { Role, RoleCreate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** POST /admin/security/role — needs system_role_add; the key is unique (RoleKeyRepeat). */
export function addRole(body: RoleCreate): Promise<Role> {
  return http.post<Role>('/admin/security/role', body);
}
