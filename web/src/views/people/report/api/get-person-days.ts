import type { PersonMonth } from '@p8/contract/people';
import { http } from '../../../../app/http.ts';

/** GET /admin/people/report/days?month=&staffId= — one group member's days of a month (people_report). */
export function getPersonDays(month: string, staffId: number): Promise<PersonMonth> {
  return http.get<PersonMonth>('/admin/people/report/days', { month, staffId }, { noLoading: true });
}
