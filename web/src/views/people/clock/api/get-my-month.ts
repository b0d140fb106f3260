import type { PersonMonth } from '@p8/contract/people';
import { http } from '../../../../app/http.ts';

/** GET /admin/people/clock?month= — the caller's days of a month, judged, with their punches (people_clock); silent: the screen says "no rules" itself. */
export function getMyMonth(month: string): Promise<PersonMonth> {
  return http.get<PersonMonth>('/admin/people/clock', { month }, { noLoading: true, silent: true });
}
