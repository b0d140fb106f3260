import { keepPreviousData } from '@tanstack/react-query';
import type { Staff } from '@p8/contract/system';
import { http } from '../../../app/http.ts';

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
 * GET /admin/security/admin/options — enabled colleagues whose name or real name matches `search`
 * (first 50), for the receiver, reviewer and department-leader pickers. Not limited by the caller's data scope: a user who
 * sees only their own records must still be able to address a colleague.
 */
export async function listColleagueOptions(search: string, notIn: number[] = []): Promise<StaffOption[]> {
  const options = await http.get<Array<Pick<Staff, 'id' | 'name' | 'realName' | 'deptName'>>>(
    '/admin/security/admin/options',
    { keyword: search.trim() || undefined, notInId: notIn, limit: 50 },
    { noLoading: true },
  );
  return options.map(toStaffOption);
}

export const colleagueOptionsQuery = (search: string, notIn: number[]) => ({
  queryKey: ['system', 'colleague-options', search.trim(), notIn] as const,
  queryFn: () => listColleagueOptions(search, notIn),
  staleTime: 30_000,
  // While the next search loads, the last results stay listed instead of an empty list.
  placeholderData: keepPreviousData,
});
