import type { Role } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/role/copy/batch — needs system_role_copy_batch: copies named "<name> (copy)", keys "<key>_copy[N]". */
export function copyRolesBatch(ids: number[]): Promise<Role[]> {
  return http.put<Role[]>('/admin/security/role/copy/batch', { ids });
}
