import type { RolePermission } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/**
 * PUT /admin/security/role/permission — needs system_role_update. Replaces the role's menus and buttons;
 * the server adds the screens above each granted button. Refused for the super role.
 */
export function setRolePermission(body: RolePermission): Promise<number[]> {
  return http.put<number[]>('/admin/security/role/permission', body);
}
