import { http } from '../../../../app/http.ts';

/** GET /admin/security/role/:id/permission — the menu and button ids the role grants (every one for the super role). */
export function getRolePermission(id: number): Promise<number[]> {
  return http.get<number[]>(`/admin/security/role/${id}/permission`, undefined, { noLoading: true });
}
