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
 * GET /admin/security/admin/options — enabled colleagues whose name or real name contains `search`, first
 * 200: the colleague picker, which every screen with a person-in-charge field may read (the staff list
 * itself belongs to the staff screen).
 */
export async function listStaffOptions(search: string): Promise<StaffOption[]> {
  const options = await http.get<Array<Pick<Staff, 'id' | 'name' | 'realName' | 'deptName'>>>(
    '/admin/security/admin/options',
    { keyword: search.trim() || undefined, limit: 200 },
    { noLoading: true },
  );
  return options.map((s) => ({ id: s.id, label: s.realName || s.name, account: s.name, deptName: s.deptName }));
}

export const staffOptionsQuery = (search: string) => ({
  queryKey: ['basic-partner', 'staff-options', search.trim()] as const,
  queryFn: () => listStaffOptions(search),
  staleTime: 30_000,
});
