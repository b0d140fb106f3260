import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRow } from '@p8/contract/office';
import { attendancePunch, department, message } from '../src/db/schema/index.ts';
import { notifyAttendanceAnomalies, type AttendanceNoticeDeps } from '../src/modules/people/attendance-notices.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';

/*
 * The daily attendance notices: yesterday's late / early / absent / missing-punch days told to each person
 * and their department's leader, from the system (no sender — the leader is told even when the job acts as
 * them), in the reader's language, once per person-day however often and in parallel the job runs.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let late: Caller;
let fine: Caller;
let away: Caller;
let deps: AttendanceNoticeDeps;
const P = '/api/admin/people';
/** 2026-03-04 08:00 local: yesterday is Tuesday 2026-03-03, a workday. */
const NOW = new Date('2026-03-04T08:00:00');

async function punch(who: Caller, groupId: number, date: string, time: string) {
  await ctx.database.withTenant(t.tenantId, (tx) => tx.insert(attendancePunch).values({ tenantId: t.tenantId, staffId: who.adminId, groupId, punchedAt: new Date(`${date}T${time}:00`), source: 'web' }));
}

const noticesTo = (adminIds: number[]) =>
  ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, t.tenantId), inArray(message.receiverId, adminIds))));

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'AttNotice');
  api = await adminCaller(ctx, t);
  [late, fine, away] = [await staffCaller(ctx, t, ['system_message']), await staffCaller(ctx, t), await staffCaller(ctx, t)];
  deps = { database: ctx.database, config: ctx.config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log };
  const made = async (kind: string, body: unknown) => {
    const res = await api.post<{ id: number }>(`${P}/${kind}`, body);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
    return res.body.data.id;
  };
  const calendarId = await made('calendar', { name: 'CN 2026', year: 2026, weeklyRest: 'satSun' });
  const shiftId = await made('shift', { name: 'Day', lateGrace: 5, earlyGrace: 0, periods: [{ start: '09:00', end: '18:00' }] });
  const groupId = await made('attendanceGroup', { name: 'Office', calendarId, shiftId, members: [late, fine, away].map((c) => ({ staffId: c.adminId })) });
  await punch(late, groupId, '2026-03-03', '09:20');
  await punch(late, groupId, '2026-03-03', '18:02');
  await punch(fine, groupId, '2026-03-03', '08:55');
  await punch(fine, groupId, '2026-03-03', '18:01');
  // The department's leader is the administrator (the account the job acts as).
  await ctx.database.withTenant(t.tenantId, (tx) => tx.update(department).set({ leaderId: t.adminId }).where(and(eq(department.tenantId, t.tenantId), eq(department.id, t.deptId))));
});
afterAll(() => ctx?.close());

describe(`attendance notices (${TEST_DB})`, () => {
  it('tells each person of yesterday’s anomaly, and their department’s leader, from the system', async () => {
    const run = await notifyAttendanceAnomalies(deps, { now: NOW });
    expect(run).toMatchObject({ date: '2026-03-03', complete: true });
    const stored = await noticesTo([late.adminId, fine.adminId, away.adminId, t.adminId]);
    expect(stored.every((m) => m.senderId === null && m.notice?.key === 'attendanceAnomaly')).toBe(true);
    expect(stored.filter((m) => m.receiverId === fine.adminId)).toEqual([]);
    const [toLate] = stored.filter((m) => m.receiverId === late.adminId);
    expect(toLate).toMatchObject({ title: '考勤异常：2026-03-03', onceKey: `attendance:${late.adminId}:2026-03-03` });
    expect(toLate.content).toContain('迟到');
    expect(stored.filter((m) => m.receiverId === away.adminId).map((m) => m.content)).toEqual([expect.stringContaining('旷工')]);
    // The leader hears of both, each naming the person.
    const toLeader = stored.filter((m) => m.receiverId === t.adminId);
    expect(toLeader).toHaveLength(2);
    expect(toLeader.map((m) => m.notice?.params.person).sort()).toEqual([toLate.notice?.params.person, stored.find((m) => m.receiverId === away.adminId)?.notice?.params.person].sort());
    // Read in English by its receiver, from "System".
    const en = await ctx.app.inject({ method: 'GET', url: '/api/admin/office/message?box=inbox', headers: { authorization: `Bearer ${late.token}`, 'accept-language': 'en' } });
    expect((en.json() as { data: MessageRow[] }).data[0]).toMatchObject({ title: 'Attendance anomaly: 2026-03-03', senderId: null, senderName: 'System', isNotice: true });
    expect((en.json() as { data: MessageRow[] }).data[0].content).toContain('late');
    expect(run.sent).toBe(stored.length);
  });

  it('tells once per person-day: a second run and parallel runs store nothing more', async () => {
    const before = (await noticesTo([late.adminId, away.adminId, t.adminId])).length;
    expect((await notifyAttendanceAnomalies(deps, { now: NOW })).sent).toBe(0);
    const parallel = await Promise.all([notifyAttendanceAnomalies(deps, { now: NOW }), notifyAttendanceAnomalies(deps, { now: NOW })]);
    expect(parallel.map((r) => r.sent)).toEqual([0, 0]);
    expect((await noticesTo([late.adminId, away.adminId, t.adminId])).length).toBe(before);
    // The next day is another day: told again (everyone absent on Wednesday).
    const next = await notifyAttendanceAnomalies(deps, { now: new Date('2026-03-05T08:00:00') });
    expect(next).toMatchObject({ date: '2026-03-04' });
    expect(next.sent).toBe(6);
  });

  it('tells nothing of a rest day, nor to another tenant', async () => {
    // Sunday 2026-03-08 is a rest day.
    const sunday = await notifyAttendanceAnomalies(deps, { now: new Date('2026-03-09T08:00:00') });
    expect(sunday.sent).toBe(0);
    const other = await seedTenant(ctx.database, 'AttOther');
    const theirs = await ctx.database.withTenant(other.tenantId, (tx) => tx.select().from(message).where(eq(message.tenantId, other.tenantId)));
    expect(theirs).toEqual([]);
  });
});
