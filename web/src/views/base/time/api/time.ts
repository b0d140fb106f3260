import type { BusinessDay, BusinessHoursSave, TimeSettings, TimeSlotCreate, TimeSlotRow, TimeSlotUpdate } from '@p8/contract/base';
import { http } from '../../../../app/http.ts';

const URL = '/admin/base/time';

/** GET /admin/base/time — the business hours of the week and every appointment slot. */
export function getTimeSettings(): Promise<TimeSettings> {
  return http.get<TimeSettings>(URL);
}

/** PUT /admin/base/time/hours — the seven days (code base_time_update). */
export function saveBusinessHours(body: BusinessHoursSave): Promise<BusinessDay[]> {
  return http.put<BusinessDay[]>(`${URL}/hours`, body);
}

/** POST /admin/base/time/slot (code base_time_add); an overlapping enabled slot is refused. */
export function createTimeSlot(body: TimeSlotCreate): Promise<TimeSlotRow> {
  return http.post<TimeSlotRow>(`${URL}/slot`, body);
}

/** PUT /admin/base/time/slot (code base_time_update). */
export function updateTimeSlot(body: TimeSlotUpdate): Promise<TimeSlotRow> {
  return http.put<TimeSlotRow>(`${URL}/slot`, body);
}

/** DELETE /admin/base/time/slot `{ ids }` (code base_time_delete); a slot with upcoming appointments is refused. Silent: the screen names it. */
export function deleteTimeSlots(ids: number[]): Promise<null> {
  return http.delete<null>(`${URL}/slot`, { ids }, { silent: true });
}

/** PUT /admin/base/time/slot/enable (code base_time_enable). Silent: the screen names the slot in a refusal. */
export function enableTimeSlots(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${URL}/slot/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
