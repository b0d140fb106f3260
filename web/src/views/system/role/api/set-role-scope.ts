import type { Role, RoleScope } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/role/scope — needs system_role_update_scope; `deptIds` only for Custom (at least one). */
export function setRoleScope(body: RoleScope): Promise<Role> {
  return http.put<Role>('/admin/security/role/scope', body);
}
