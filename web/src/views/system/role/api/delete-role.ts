import { http } from '../../../../app/http.ts';

/**
 * DELETE /admin/security/role `{ ids }` — needs system_role_delete. Refused for the default role
 * (DefaultRoleProhibitDelete) and for a role staff still hold (RoleInUseProhibitDelete); the screen
 * shows the refusal (silent here), naming the record.
 */
export function deleteRoles(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/security/role', { ids }, { silent: true });
}
