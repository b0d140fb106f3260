import { heldBy, type RecordUsage } from '../../core/record-usage.ts';
import { attendancePunch } from '../../db/schema/index.ts';

/** What the punches hold: their clock address and their group (the staff member too: an account with punches stays). */
export function registerPeopleUsage(usage: RecordUsage) {
  usage.register('clockAddress', 'people: punches', heldBy(attendancePunch, attendancePunch.addressId));
  usage.register('attendanceGroup', 'people: punches', heldBy(attendancePunch, attendancePunch.groupId));
  usage.register('staff', 'people: punches', heldBy(attendancePunch, attendancePunch.staffId));
}
