import type { ClockIn } from '@p8/contract/people';
import { http } from '../../../../app/http.ts';

export interface ClockResult {
  id: number;
  punchedAt: string;
  outside: boolean;
  addressName: string | null;
  distance: number | null;
}

/** POST /admin/people/clock — a punch at the browser's position (people_clock_add); refused outside every address unless the group records outside punches. */
export function clockIn(position: ClockIn): Promise<ClockResult> {
  return http.post<ClockResult>('/admin/people/clock', position);
}
