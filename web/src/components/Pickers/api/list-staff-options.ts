import type { Staff } from '@p8/contract/system';
import { http } from '../../../app/http.ts';

/** A staff member as the pickers offer it. */
export interface StaffOption {
  id: number;
  /** Real name, or the account when there is none. */
  label: string;
  account: string;
  deptName: string | null;
}

/**
 * GET /admin/security/admin — enabled staff whose real name contains `search`, first 200 by name (the
 * server applies the caller's data scope).
 */
export async function listStaffOptions(search: string): Promise<StaffOption[]> {
  const page = await http.list<Staff>(
    '/admin/security/admin',
    { realName: search.trim() || undefined, enabled: 'true', pageSize: 200, realNameSort: 'asc' },
    { noLoading: true },
  );
  return page.data.map((s) => ({ id: s.id, label: s.realName || s.name, account: s.name, deptName: s.deptName }));
}

export const staffOptionsQuery = (search: string) => ({
  queryKey: ['basic-partner', 'staff-options', search.trim()] as const,
  queryFn: () => listStaffOptions(search),
  staleTime: 30_000,
});
