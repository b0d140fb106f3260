import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nationalHolidays } from '@p8/contract/people';
import { attendancePunch } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';

/*
 * Attendance through the API (PGlite; PostgreSQL with TEST_DB=postgres): the declared records' own rules
 * (a calendar's generated holidays and its year, a shift's periods, one group per person), the clock-in by
 * distance computed in the database (inside, refused outside, recorded outside where the group allows it, no
 * rules), and the month's days and report judged from punches.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let worker: Caller;
const ids = { calendar: 0, shift: 0, group: 0, address: 0 };
const P = '/api/admin/people';

const post = (c: Caller, kind: string, body: unknown) => c.post<{ id: number }>(`${P}/${kind}`, body);
async function made(kind: string, body: unknown) {
  const res = await post(api, kind, body);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data.id;
}

/** A punch of the worker at a local time (written as the web clock-in would, for days gone by). */
async function punch(date: string, time: string, source = 'web') {
  const at = new Date(`${date}T${time}:00`);
  await ctx.database.withTenant(t.tenantId, (tx) => tx.insert(attendancePunch).values({ tenantId: t.tenantId, staffId: worker.adminId, groupId: ids.group, punchedAt: at, source }));
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'People');
  api = await adminCaller(ctx, t);
  worker = await staffCaller(ctx, t, ['people_clock', 'people_clock_add']);
});
afterAll(() => ctx?.close());

describe('attendance records', () => {
  it('a calendar added without days starts with the year’s statutory holidays; a day outside its year is refused', async () => {
    ids.calendar = await made('calendar', { name: 'CN 2026', year: 2026, weeklyRest: 'satSun' });
    const detail = await api.get<{ days: Array<{ date: string; dayType: string }> }>(`${P}/calendar/${ids.calendar}`);
    expect(detail.body.data.days.map((d) => d.date)).toEqual(nationalHolidays(2026).map((d) => d.date));
    expect(detail.body.data.days.map((d) => d.date)).toContain('2026-02-17');
    const outside = await api.put(`${P}/calendar`, { id: ids.calendar, days: [{ date: '2025-12-31', dayType: 'holiday' }] });
    expect(outside.body).toMatchObject({ status: 40001, message: 'CalendarDayOutsideYear' });
    const repeated = await api.put(`${P}/calendar`, { id: ids.calendar, days: [{ date: '2026-10-08', dayType: 'holiday' }, { date: '2026-10-08', dayType: 'workday' }] });
    expect(repeated.body).toMatchObject({ message: 'CalendarDayRepeat' });
  });

  it('a shift’s periods are in order and never overlap; a night shift ends the next day', async () => {
    expect((await post(api, 'shift', { name: 'Night', periods: [{ start: '22:00', end: '06:00' }] })).body).toMatchObject({ status: 0 });
    expect((await post(api, 'shift', { name: 'Split night', periods: [{ start: '20:00', end: '23:00' }, { start: '01:00', end: '05:00' }] })).body).toMatchObject({ status: 0 });
    expect((await post(api, 'shift', { name: 'Zero', periods: [{ start: '09:00', end: '09:00' }] })).body).toMatchObject({ message: 'StartTimeMustBeforeOffTime' });
    expect((await post(api, 'shift', { name: 'Overlap', periods: [{ start: '08:00', end: '12:00' }, { start: '11:00', end: '17:00' }] })).body).toMatchObject({ message: 'ShiftTimeOverlap' });
    expect((await post(api, 'shift', { name: 'Order', periods: [{ start: '13:00', end: '17:00' }, { start: '08:00', end: '12:00' }] })).body).toMatchObject({ message: 'ShiftTimeOrder' });
    expect((await post(api, 'shift', { name: 'Long', periods: [{ start: '08:00', end: '20:00' }, { start: '21:00', end: '09:00' }] })).body).toMatchObject({ message: 'ShiftLongerThanADay' });
    expect((await post(api, 'shift', { name: 'Bad', periods: [{ start: '8:00', end: '12:00' }] })).body).toMatchObject({ message: 'ClockTimeFormat' });
    expect((await post(api, 'shift', { name: 'None', periods: [] })).body).toMatchObject({ message: 'ShiftPeriodsEmpty' });
    ids.shift = await made('shift', { name: 'Day', lateGrace: 5, earlyGrace: 0, periods: [{ start: '09:00', end: '18:00' }] });
  });

  it('a staff member is in one attendance group', async () => {
    ids.group = await made('attendanceGroup', { name: 'Office', calendarId: ids.calendar, shiftId: ids.shift, members: [{ staffId: worker.adminId }] });
    const other = await post(api, 'attendanceGroup', { name: 'Other', calendarId: ids.calendar, shiftId: ids.shift, members: [{ staffId: worker.adminId }] });
    expect(other.body).toMatchObject({ message: 'AttendanceStaffInOtherGroup' });
    // Its own members again, at an update: not another group's.
    expect((await api.put(`${P}/attendanceGroup`, { id: ids.group, members: [{ staffId: worker.adminId }] })).body).toMatchObject({ status: 0 });
    // A calendar or shift a group names is in use.
    expect((await api.del(`${P}/shift`, { ids: [ids.shift] })).body).toMatchObject({ message: 'ShiftInUseProhibitDelete' });
  });
});

describe('clock-in', () => {
  it('no rules for someone in no group', async () => {
    expect((await api.post(`${P}/clock`, { latitude: 31.23, longitude: 121.47 })).body).toMatchObject({ message: 'NoAttendanceRules' });
  });

  it('inside an address: a punch with its distance; outside: refused, or recorded outside where the group allows it', async () => {
    expect((await worker.post(`${P}/clock`, { latitude: 31.23, longitude: 121.47 })).body).toMatchObject({ message: 'ClockNoAddress' });
    ids.address = await made('clockAddress', { name: 'HQ', groupId: ids.group, latitude: 31.2304, longitude: 121.4737, radius: 200 });
    // About 111 m north: inside.
    const inside = await worker.post<{ outside: boolean; distance: number; addressName: string }>(`${P}/clock`, { latitude: 31.2314, longitude: 121.4737, accuracy: 12 });
    expect(inside.body).toMatchObject({ status: 0, data: { outside: false, addressName: 'HQ' } });
    expect(inside.body.data.distance).toBeGreaterThan(100);
    expect(inside.body.data.distance).toBeLessThan(125);
    // About 1.1 km north: outside.
    const far = await worker.post(`${P}/clock`, { latitude: 31.2404, longitude: 121.4737 });
    expect(far.body).toMatchObject({ status: 40001, message: 'NotInClockRange' });
    expect((await api.put(`${P}/attendanceGroup`, { id: ids.group, allowOutside: true })).body).toMatchObject({ status: 0 });
    const recorded = await worker.post(`${P}/clock`, { latitude: 31.2404, longitude: 121.4737 });
    expect(recorded.body).toMatchObject({ status: 0, data: { outside: true, addressName: 'HQ' } });
    // The address and the group now hold punches.
    expect((await api.del(`${P}/clockAddress`, { ids: [ids.address] })).body).toMatchObject({ message: 'ClockAddressInUseProhibitDelete' });
    // Without the button: refused before anything is written.
    const viewer = await staffCaller(ctx, t, ['people_clock']);
    expect((await viewer.post(`${P}/clock`, { latitude: 31.2314, longitude: 121.4737 })).body).toMatchObject({ status: 40300 });
  });

  it('the month’s days are judged from the punches, and the report counts them', async () => {
    // 2026-03: Mon 2 normal, Tue 3 late (09:06 > 5 min grace), Wed 4 early, Thu 5 missing the clock-out, Fri 6 absent.
    await punch('2026-03-02', '08:55');
    await punch('2026-03-02', '18:01');
    await punch('2026-03-03', '09:06');
    await punch('2026-03-03', '18:00');
    await punch('2026-03-04', '09:00');
    await punch('2026-03-04', '17:30');
    await punch('2026-03-05', '09:03');
    await punch('2026-03-07', '10:00');
    const month = await worker.get<{ days: Array<{ date: string; weekday: number; dayType: string; result: string }> }>(`${P}/clock?month=2026-03`);
    const byDate = new Map(month.body.data.days.map((d) => [d.date, d]));
    expect(byDate.get('2026-03-02')).toMatchObject({ weekday: 0, dayType: 'workday', result: 'normal' });
    expect(byDate.get('2026-03-03')?.result).toBe('late');
    expect(byDate.get('2026-03-04')?.result).toBe('early');
    expect(byDate.get('2026-03-05')?.result).toBe('missing');
    expect(byDate.get('2026-03-06')?.result).toBe('absent');
    expect(byDate.get('2026-03-07')).toMatchObject({ weekday: 5, dayType: 'rest', result: 'rest' });
    const report = await api.get<Array<{ staffId: number; workdays: number; normal: number; late: number; early: number; absent: number; missing: number }>>(`${P}/report?month=2026-03`);
    expect(report.body).toMatchObject({ status: 0, pagination: { total: 1 } });
    // March 2026 has 22 workdays; the days without punches after the 6th are absences too.
    expect(report.body.data[0]).toMatchObject({ staffId: worker.adminId, workdays: 22, normal: 1, late: 1, early: 1, missing: 1, absent: 18 });
    // A staff name's part finds them; a wildcard is a character like any other.
    expect((await api.get(`${P}/report?month=2026-03&keyword=Staff`)).body).toMatchObject({ pagination: { total: 1 } });
    expect((await api.get(`${P}/report?month=2026-03&keyword=%25`)).body).toMatchObject({ pagination: { total: 0 } });
    const exported = await api.download(`${P}/report/export?month=2026-03`);
    expect(exported.status).toBe(200);
    expect((await api.get(`${P}/report?month=2026-13`)).body).toMatchObject({ status: 40001 });
  });

  it('another tenant sees none of it', async () => {
    const other = await adminCaller(ctx, await seedTenant(ctx.database, 'Other'));
    expect((await other.get(`${P}/calendar/${ids.calendar}`)).body).toMatchObject({ message: 'CalendarNotExist' });
    expect((await other.get(`${P}/report?month=2026-03`)).body).toMatchObject({ status: 0, pagination: { total: 0 } });
    expect((await other.get(`${P}/report/days?month=2026-03&staffId=${worker.adminId}`)).body).toMatchObject({ message: 'NoAttendanceRules' });
  });
});
