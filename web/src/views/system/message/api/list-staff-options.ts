import type { Staff } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** A staff member as a picker offers it. */
export interface StaffOption {
  id: number;
  /** Real name, or the account when there is none. */
  label: string;
  account: string;
  deptName: string | null;
}

export const toStaffOption = (s: Pick<Staff, 'id' | 'name' | 'realName' | 'deptName'>): StaffOption => ({
  id: s.id,
  label: s.realName || s.name,
  account: s.name,
  deptName: s.deptName,
});

/**
 * GET /admin/security/admin — enabled staff whose real name matches `search` (first 50), for the
 * receiver and reviewer pickers. The server applies the caller's data scope.
 */
export async function listStaffOptions(search: string, notIn: number[] = []): Promise<StaffOption[]> {
  const page = await http.list<Staff>(
    '/admin/security/admin',
    { realName: search.trim() || undefined, enabled: 'true', notInId: notIn, pageSize: 50, realNameSort: 'asc' },
    { noLoading: true },
  );
  return page.data.map(toStaffOption);
}

export const staffOptionsQuery = (search: string, notIn: number[]) => ({
  queryKey: ['system-office', 'staff-options', search.trim(), notIn] as const,
  queryFn: () => listStaffOptions(search, notIn),
  staleTime: 30_000,
});
