import { http } from '../../../../app/http.ts';

/** A colleague as pickers show it. */
export interface StaffOption {
  id: number;
  name: string;
  realName: string;
  deptId: number | null;
  deptName: string | null;
}

/**
 * GET /admin/security/admin/options — enabled staff of the tenant whose account or real name contains
 * `keyword` (at most `limit`, default 50), for pickers such as a department's leader. Not limited by
 * the caller's data scope, and only name and department.
 */
export function getStaffOptions(keyword?: string, limit = 50): Promise<StaffOption[]> {
  return http.get<StaffOption[]>('/admin/security/admin/options', { keyword: keyword?.trim() || undefined, limit }, { noLoading: true });
}
