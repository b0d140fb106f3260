import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillAuditAnswer } from '@p8/contract/bills/api';
import { Replacement } from '@p8/contract/bills/people';
import { billApiPath, billButtonCode } from '@p8/contract/bills/registry';
import type { AttendanceDay, PersonMonth, ReportRow } from '@p8/contract/people';
import type { MessageRow } from '@p8/contract/office';
import { and, eq } from 'drizzle-orm';
import { attendancePunch } from '../src/db/schema/index.ts';
import { call, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, caller, staffCaller, type Caller } from './basic-fixtures.ts';

/*
 * Replacement clock-in (补卡申请) through the bill engine's API, on PGlite and PostgreSQL (TEST_DB=postgres): its
 * rules at save, submit and audit (a day to come, no group, no replacement rules, the time limit, a rest day, a
 * day not missing anything, a time filling no missing check, the month's count with requests under review), the
 * punch an audit records and the day judged again at once (days and report), the withdrawal taking it away, joint
 * review, and two requests at the same moment never both passing the count or both filling one check.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let worker: Caller;
let reviewers: Caller[];
/** The worker signed in a second time (another session, as from a phone beside the browser). */
let workerElsewhere: Caller;
const ids = { calendar: 0, shift: 0, group: 0 };
const P = '/api/admin/people';
const PATH = billApiPath(Replacement);

/** The local `yyyy-mm-dd` of `daysAgo` days before today. */
function dayAgo(daysAgo: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
/** The worker's days, by how long ago: absent, missing the clock-out, late, normal, a rest day, missing but too long ago. */
const DAY = { absent: dayAgo(1), missing: dayAgo(2), late: dayAgo(3), normal: dayAgo(4), rest: dayAgo(5), old: dayAgo(8), future: dayAgo(-1) };

async function punch(date: string, time: string) {
  await ctx.database.withTenant(t.tenantId, (tx) => tx.insert(attendancePunch).values({ tenantId: t.tenantId, staffId: worker.adminId, groupId: ids.group, punchedAt: new Date(`${date}T${time}:00`), source: 'web' }));
}

async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}
async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string) {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ message: key });
}

/** A request of the worker, saved (a draft). */
const save = async (date: string, time: string, who: Caller = worker) => (await ok(who.post<{ id: number }>(PATH, { billDate: dayAgo(0), replaceDate: date, replaceTime: time, replaceReason: 'Forgot', lines: [] }))).id;
const submit = (id: number, who: Caller = worker) => who.post(`${PATH}/submit`, { id });
const audit = (id: number, who: Caller = api) => who.post<BillAuditAnswer>(`${PATH}/audit`, { id });
const group = (patch: Record<string, unknown>) => ok(api.put(`${P}/attendanceGroup`, { id: ids.group, ...patch }));

async function dayOf(date: string): Promise<AttendanceDay> {
  const month = await ok(api.get<PersonMonth>(`${P}/report/days?month=${date.slice(0, 7)}&staffId=${worker.adminId}`));
  return month.days.find((d) => d.date === date)!;
}
async function replacedThisMonth(date: string): Promise<number> {
  const rows = await ok(api.get<ReportRow[]>(`${P}/report?month=${date.slice(0, 7)}&pageSize=200`));
  return rows.find((r) => r.staffId === worker.adminId)!.replaced;
}
const inbox = async (who: Caller) => ok(who.get<MessageRow[]>('/api/admin/office/message?box=inbox&current=1&pageSize=50'));
async function replacementPunches(): Promise<number> {
  const found = await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(attendancePunch).where(and(eq(attendancePunch.staffId, worker.adminId), eq(attendancePunch.source, 'replacement'))));
  return found.length;
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Replace');
  api = await adminCaller(ctx, t);
  const code = (action: Parameters<typeof billButtonCode>[1]) => billButtonCode(Replacement, action);
  worker = await staffCaller(ctx, t, ['people_clock', code('add'), code('update'), code('delete'), code('submit')]);
  const { name } = await ok(worker.get<{ name: string }>('/api/admin/current/detail'));
  const { token } = await ok(call<{ token: string }>(ctx.app, 'POST', '/api/auth/admin/name', { body: { name, password: 'Passw0rd!' } }));
  workerElsewhere = caller(ctx, token, worker.adminId);
  reviewers = [await staffCaller(ctx, t, [code('audit')]), await staffCaller(ctx, t, [code('audit')])];
  const year = Number(DAY.rest.slice(0, 4));
  ids.calendar = await api.create('calendar', { name: 'Every day', year, weeklyRest: 'none', days: [{ date: DAY.rest, dayType: 'rest' }] });
  ids.shift = await api.create('shift', { name: 'Day', lateGrace: 5, earlyGrace: 0, inWindow: 60, outWindow: 60, periods: [{ start: '09:00', end: '18:00' }] });
  ids.group = await api.create('attendanceGroup', { name: 'Office', calendarId: ids.calendar, shiftId: ids.shift, allowOutside: true, replacementPerMonth: 31, replacementDays: 5, replaceLateEarly: false, members: [{ staffId: worker.adminId }] });
  await punch(DAY.missing, '08:55');
  await punch(DAY.late, '09:20');
  await punch(DAY.late, '18:05');
  await punch(DAY.normal, '08:55');
  await punch(DAY.normal, '18:05');
  await punch(DAY.old, '08:55');
});
afterAll(() => ctx?.close());

describe(`replacement clock-in (${TEST_DB})`, () => {
  it('refuses a day to come at save, and at submit whatever is not a missed check of a recent workday', async () => {
    await refused(worker.post(PATH, { billDate: dayAgo(0), replaceDate: DAY.future, replaceTime: '09:00', replaceReason: 'x', lines: [] }), 'ReplacementFutureDate');
    await refused(worker.post(PATH, { billDate: dayAgo(0), replaceDate: DAY.missing, replaceTime: '9:00', replaceReason: 'x', lines: [] }), 'ClockTimeFormat');
    await refused(worker.post(PATH, { billDate: dayAgo(0), replaceDate: DAY.missing, replaceTime: '18:00', lines: [] }), 'PleaseInputReplacementReason');
    await refused(submit(await save(DAY.rest, '09:00')), 'ReplacementRestDay');
    await refused(submit(await save(DAY.normal, '18:00')), 'ReplacementOnlyForAbsence');
    await refused(submit(await save(DAY.late, '09:00')), 'ReplacementOnlyForAbsence');
    await refused(submit(await save(DAY.old, '18:00')), 'ReplacementTimeLimitExceeded');
    // The clock-in of the missing day was punched: only its clock-out can be replaced.
    await refused(submit(await save(DAY.missing, '09:00')), 'ReplacementNotNeeded');
    // The admin is in no group; a group without replacements a month has no rules.
    await refused(submit(await save(DAY.missing, '18:00', api), api), 'NoAttendanceRules');
    await group({ replacementPerMonth: 0 });
    await refused(submit(await save(DAY.missing, '18:00')), 'NoReplacementRules');
    await group({ replacementPerMonth: 31 });
  });

  it('a late day may be replaced where the group allows it', async () => {
    await group({ replaceLateEarly: true });
    const id = await save(DAY.late, '09:00');
    await ok(submit(id));
    await ok(audit(id));
    expect((await dayOf(DAY.late)).result).toBe('normal');
    await ok(api.post(`${PATH}/abandonAudit`, { id }));
    expect((await dayOf(DAY.late)).result).toBe('late');
    await ok(worker.del(PATH, { ids: [id] }));
    await group({ replaceLateEarly: false });
  });

  it('an audited request is a replacement punch: the day turns normal, the report counts it; withdrawing takes it back', async () => {
    expect((await dayOf(DAY.missing)).result).toBe('missing');
    const before = await replacedThisMonth(DAY.missing);
    const id = await save(DAY.missing, '18:00');
    await ok(submit(id));
    expect(await replacementPunches()).toBe(0);
    expect(await ok(audit(id))).toMatchObject({ billStatus: 'Audit' });
    const day = await dayOf(DAY.missing);
    expect(day.result).toBe('normal');
    expect(day.punches.map((p) => p.source)).toEqual(['web', 'replacement']);
    expect(await replacedThisMonth(DAY.missing)).toBe(before + 1);
    // The day needs nothing more: another request for it is refused.
    await refused(submit(await save(DAY.missing, '18:30')), 'ReplacementOnlyForAbsence');
    await ok(api.post(`${PATH}/abandonAudit`, { id }));
    expect((await dayOf(DAY.missing)).result).toBe('missing');
    expect(await replacedThisMonth(DAY.missing)).toBe(before);
    expect(await replacementPunches()).toBe(0);
  });

  it('counts the requests under review against the month', async () => {
    await group({ replacementPerMonth: 1 });
    const first = await save(DAY.absent, '09:00');
    await ok(submit(first));
    const second = await save(DAY.absent, '18:00');
    await refused(submit(second), 'ReplacementMonthlyCountExceeded');
    await ok(api.post(`${PATH}/refuse`, { id: first, reason: 'Punched elsewhere' }));
    const refusedCode = (await ok(api.get<{ billCode: string }>(`${PATH}/${first}`))).billCode;
    expect((await inbox(worker)).find((m) => m.title === `已驳回：补卡申请 ${refusedCode}`)?.content).toContain('Punched elsewhere');
    await ok(submit(second));
    await ok(api.post(`${PATH}/refuse`, { id: second, reason: 'No' }));
    await group({ replacementPerMonth: 31 });
  });

  it('under joint review the punch is recorded only by the last approval', async () => {
    const rule = await ok(api.post<{ id: number }>('/api/admin/system/verify', { billType: Replacement.type, auditType: 'AllVerify', sequential: false, enabled: true, reviewerIds: reviewers.map((r) => r.adminId) }));
    const id = await save(DAY.absent, '09:00');
    await ok(submit(id));
    expect(await ok(audit(id, reviewers[0]))).toMatchObject({ billStatus: 'UnAudit' });
    expect((await dayOf(DAY.absent)).result).toBe('absent');
    expect(await ok(audit(id, reviewers[1]))).toMatchObject({ billStatus: 'Audit' });
    expect((await dayOf(DAY.absent)).result).toBe('missing');
    // The message center: each reviewer was asked at submit, the requester told of the approval.
    const { billCode } = await ok(api.get<{ billCode: string }>(`${PATH}/${id}`));
    for (const reviewer of reviewers) expect((await inbox(reviewer)).map((m) => m.title)).toContain(`待审核：补卡申请 ${billCode}`);
    expect((await inbox(worker)).map((m) => m.title)).toContain(`已审核：补卡申请 ${billCode}`);
    // In English for an English reader, from the same stored notice.
    const english = await ok(worker.get<MessageRow[]>('/api/admin/office/message?box=inbox&current=1&pageSize=50&lang=en'));
    expect(english.map((m) => m.title)).toContain(`Approved: Replacement clock-in ${billCode}`);
    await ok(api.post(`${PATH}/abandonAudit`, { id }));
    await ok(api.put('/api/admin/system/verify', { id: rule.id, billType: Replacement.type, auditType: 'AllVerify', sequential: false, enabled: false, reviewerIds: reviewers.map((r) => r.adminId) }));
  });

  it('in order, the next reviewer is asked only once the previous one approved', async () => {
    const rules = await ok(api.get<Array<{ id: number; billType: string }>>(`/api/admin/system/verify?billType=${Replacement.type}`));
    const rule = rules.find((r) => r.billType === Replacement.type)!;
    const body = { billType: Replacement.type, auditType: 'AllVerify', sequential: true, reviewerIds: reviewers.map((r) => r.adminId) };
    await ok(api.put('/api/admin/system/verify', { id: rule.id, ...body, enabled: true }));
    const id = await save(DAY.absent, '18:00');
    await ok(submit(id));
    const title = `待审核：补卡申请 ${(await ok(api.get<{ billCode: string }>(`${PATH}/${id}`))).billCode}`;
    expect((await inbox(reviewers[0])).map((m) => m.title)).toContain(title);
    expect((await inbox(reviewers[1])).map((m) => m.title)).not.toContain(title);
    expect(await ok(audit(id, reviewers[0]))).toMatchObject({ billStatus: 'UnAudit' });
    expect((await inbox(reviewers[1])).map((m) => m.title)).toContain(title);
    await ok(reviewers[1].post(`${PATH}/refuse`, { id, reason: 'No' }));
    await ok(api.put('/api/admin/system/verify', { id: rule.id, ...body, enabled: false }));
  });

  it('two requests submitted at the same moment never both pass the count', async () => {
    await group({ replacementPerMonth: 1 });
    for (let round = 0; round < 5; round += 1) {
      const a = await save(DAY.absent, '09:00');
      const b = await save(DAY.absent, '18:00');
      // From two sessions: nothing of the session serializes them.
      const answers = await Promise.all([submit(a), submit(b, workerElsewhere)]);
      expect(answers.map((r) => r.body.status).sort()).toEqual([0, 40001]);
      expect(answers.find((r) => r.body.status !== 0)!.body.message).toBe('ReplacementMonthlyCountExceeded');
      await ok(api.post(`${PATH}/refuse`, { id: answers[0].body.status === 0 ? a : b, reason: 'No' }));
    }
    await group({ replacementPerMonth: 31 });
  });

  it('two approvals at the same moment never both fill one check', async () => {
    const a = await save(DAY.absent, '09:00');
    const b = await save(DAY.absent, '09:05');
    await ok(submit(a));
    await ok(submit(b));
    const answers = await Promise.all([audit(a), audit(b, reviewers[0])]);
    expect(answers.map((r) => r.body.status).sort()).toEqual([0, 40001]);
    expect(answers.find((r) => r.body.status !== 0)!.body.message).toBe('ReplacementNotNeeded');
    expect(await replacementPunches()).toBe(1);
    expect((await dayOf(DAY.absent)).result).toBe('missing');
  });
});
