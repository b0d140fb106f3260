import type { Role, RoleCopy } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/role/copy — needs system_role_copy: a new role with the source's data scope and permissions. */
export function copyRole(body: RoleCopy): Promise<Role> {
  return http.put<Role>('/admin/security/role/copy', body);
}
