import type { SlotAvailability } from '@p8/contract/base';
import { http } from '../../../../app/http.ts';

/** GET /admin/base/time/available — the bookable slots of a day with the places left. */
export function getAvailableSlots(date: string): Promise<SlotAvailability> {
  return http.get<SlotAvailability>('/admin/base/time/available', { date }, { noLoading: true });
}
