import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Task } from '@p8/contract/bills/office';
import { billApiPath, billButtonCode } from '@p8/contract/bills/registry';
import type { MessageRow } from '@p8/contract/office';
import type { TaskBoard, TaskDetail } from '@p8/contract/tasks';
import { message, role } from '../src/db/schema/index.ts';
import { reminderKey, sendTaskReminders } from '../src/modules/tasks/reminders.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';

/*
 * Tasks (任务, docs/office.md) through the API, on PGlite and PostgreSQL (TEST_DB=postgres): a task is a bill of the
 * engine (saved, submitted, audited) whose work state is the office module's — started only once audited, completed
 * or terminated only in progress, progress notes only in progress; only its assignees, its creator or a holder of
 * "manage every task" act on it; an assignee sees a task outside their data scope; a started task keeps its audit;
 * the notices (assigned, completed), and the reminders job sending each assignee one due-soon and one overdue
 * notice, never twice.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
/** Creates, submits and works on tasks (no audit, no manage). */
let lead: Caller;
/** An assignee with the work buttons, whose data scope is their own bills only. */
let worker: Caller;
/** Holds the work buttons but is neither assignee nor creator. */
let outsider: Caller;

const PATH = billApiPath(Task);
const code = (action: string) => `${billButtonCode(Task, 'add').replace(/_add$/, '')}_${action}`;
const WORK = ['office_task', 'office_task_start', 'office_task_progress', 'office_task_complete', 'office_task_terminate'];

async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}
async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string) {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ message: key });
}

function day(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A task of `who` (default the lead) for the worker, saved. */
async function saveTask(extra: Record<string, unknown> = {}, who: Caller = lead): Promise<number> {
  const body = { billDate: day(0), title: 'Service the press', content: '<p>Oil <b>and</b> check</p>', priority: 'High', dueDate: day(5), assigneeIds: [worker.adminId], lines: [], ...extra };
  return (await ok(who.post<{ id: number }>(PATH, body))).id;
}
/** A task saved, submitted and audited by the administrator. */
async function auditedTask(extra: Record<string, unknown> = {}): Promise<number> {
  const id = await saveTask(extra);
  await ok(lead.post(`${PATH}/submit`, { id }));
  await ok(api.post(`${PATH}/audit`, { id }));
  return id;
}
const work = (id: number, who: Caller = worker) => ok(who.get<TaskDetail>(`${PATH}/${id}/work`));
const inbox = async (who: Caller) => ok(who.get<MessageRow[]>('/api/admin/office/message?box=inbox&current=1&pageSize=100'));

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Tasks');
  api = await adminCaller(ctx, t);
  lead = await staffCaller(ctx, t, [...WORK, code('add'), code('update'), code('delete'), code('submit'), 'office_taskBoard']);
  worker = await staffCaller(ctx, t, [...WORK, 'office_taskBoard']);
  outsider = await staffCaller(ctx, t, WORK);
  // The worker sees only their own bills: the tasks they are assigned reach them all the same.
  await ctx.database.withTenant(t.tenantId, (tx) => tx.update(role).set({ dataScope: 'Self' }).where(eq(role.id, (worker as Caller & { roleId: number }).roleId)));
});
afterAll(() => ctx?.close());

describe(`tasks (${TEST_DB})`, () => {
  it('checks its fields when saved', async () => {
    await refused(lead.post(PATH, { billDate: day(0), dueDate: day(1), assigneeIds: [worker.adminId], lines: [] }), 'PleaseInputTaskTitle');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', dueDate: day(1), assigneeIds: [], lines: [] }), 'PleaseSelectTaskAssignee');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', dueDate: day(1), assigneeIds: [worker.adminId, worker.adminId], lines: [] }), 'TaskAssigneeRepeat');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', assigneeIds: [worker.adminId], lines: [] }), 'PleaseSelectTaskDueDate');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', dueDate: day(-1), assigneeIds: [worker.adminId], lines: [] }), 'TaskDueBeforeBillDate');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', dueDate: day(1), assigneeIds: [999_999_999], lines: [] }), 'PleaseSelectStaff');
    await refused(lead.post(PATH, { billDate: day(0), title: 'x', dueDate: day(1), remindDays: 31, assigneeIds: [worker.adminId], lines: [] }), 'TaskRemindDaysOutOfRange');
    // The content is sanitised rich text.
    const id = await saveTask({ content: '<p onclick="x()">Hi<script>alert(1)</script></p>' });
    const saved = await ok(lead.get<{ content: string; title: string }>(`${PATH}/${id}`));
    expect(saved.title).toBe('Service the press');
    expect(saved.content).not.toMatch(/script|onclick/);
    // The list filters by the title.
    const found = await ok(lead.get<Array<{ id: number }>>(`${PATH}?title=press&current=1&pageSize=50`));
    expect(found.map((r) => r.id)).toContain(id);
    expect(await ok(lead.get<Array<{ id: number }>>(`${PATH}?title=nothing-like-it&current=1&pageSize=50`))).toEqual([]);
  });

  it('starts only once audited; completes and terminates only in progress; notes only in progress', async () => {
    const id = await saveTask();
    await refused(worker.post(`${PATH}/start`, { id }), 'TaskNotAudit');
    await refused(worker.post(`${PATH}/progress`, { id, text: 'x' }), 'TaskNotAudit');
    await ok(lead.post(`${PATH}/submit`, { id }));
    await refused(worker.post(`${PATH}/start`, { id }), 'TaskNotAudit');
    await ok(api.post(`${PATH}/audit`, { id }));
    expect((await work(id)).stage).toBe('NotStarted');
    expect((await work(id)).operations).toEqual(['start']);
    await refused(worker.post(`${PATH}/complete`, { id }), 'TaskNotStarted');
    await refused(worker.post(`${PATH}/terminate`, { id, reason: 'x' }), 'TaskNotStarted');
    await refused(worker.post(`${PATH}/progress`, { id, text: 'x' }), 'TaskNotStarted');

    const started = await ok(worker.post<TaskDetail>(`${PATH}/start`, { id }));
    expect(started).toMatchObject({ stage: 'InProgress', percent: 0 });
    await refused(worker.post(`${PATH}/start`, { id }), 'TaskAlreadyStarted');
    await refused(worker.post(`${PATH}/progress`, { id, text: ' ' }), 'PleaseInputProgressNote');
    await refused(worker.post(`${PATH}/progress`, { id, text: 'x', percent: 101 }), 'PercentOutOfRange');
    await ok(worker.post(`${PATH}/progress`, { id, text: 'Oiled', percent: 40 }));
    const noted = await ok(worker.post<TaskDetail>(`${PATH}/progress`, { id, text: 'Checked the belts' }));
    expect(noted.percent).toBe(40);
    expect(noted.notes.map((n) => [n.text, n.percent, n.adminId])).toEqual([
      ['Checked the belts', null, worker.adminId],
      ['Oiled', 40, worker.adminId],
    ]);
    // A started task keeps its audit.
    await refused(api.post(`${PATH}/abandonAudit`, { id }), 'TaskStartedProhibitAbandonAudit');

    // The list shows the stage and filters by it.
    const listed = async (stage: string) => (await ok(lead.get<Array<{ id: number; taskStage?: string }>>(`${PATH}?taskStage=${stage}&current=1&pageSize=200`))).map((r) => r.id);
    expect(await listed('InProgress')).toContain(id);
    expect(await listed('Completed')).not.toContain(id);

    const done = await ok(worker.post<TaskDetail>(`${PATH}/complete`, { id }));
    expect(await listed('Completed')).toContain(id);
    expect(done).toMatchObject({ stage: 'Completed', percent: 100, operations: [] });
    expect(done.finishedAt).not.toBeNull();
    await refused(worker.post(`${PATH}/complete`, { id }), 'TaskNotInProgress');
    await refused(worker.post(`${PATH}/terminate`, { id, reason: 'x' }), 'TaskNotInProgress');
    await refused(worker.post(`${PATH}/progress`, { id, text: 'x' }), 'TaskNotInProgress');
    await refused(worker.post(`${PATH}/start`, { id }), 'TaskAlreadyStarted');
    // Completed, it keeps its audit all the more.
    await refused(api.post(`${PATH}/abandonAudit`, { id }), 'TaskStartedProhibitAbandonAudit');

    // Withdrawn before it started, a task is a draft again: no stage.
    const withdrawn = await auditedTask();
    expect(await listed('NotStarted')).toContain(withdrawn);
    await ok(api.post(`${PATH}/abandonAudit`, { id: withdrawn }));
    expect((await ok(lead.get<{ taskStage?: string }>(`${PATH}/${withdrawn}`))).taskStage).toBeUndefined();
    expect((await work(withdrawn)).stage).toBe('Draft');

    const other = await auditedTask();
    await ok(lead.post(`${PATH}/start`, { id: other }));
    await refused(lead.post(`${PATH}/terminate`, { id: other, reason: ' ' }), 'PleaseInputTerminateReason');
    expect(await ok(lead.post<TaskDetail>(`${PATH}/terminate`, { id: other, reason: 'Machine sold' }))).toMatchObject({ stage: 'Terminated', reason: 'Machine sold' });
    await refused(lead.post(`${PATH}/complete`, { id: other }), 'TaskNotInProgress');
    await refused(api.post(`${PATH}/abandonAudit`, { id: other }), 'TaskStartedProhibitAbandonAudit');
  });

  it('only its assignees, its creator or a holder of manage act; each button needs its code', async () => {
    const id = await auditedTask();
    // The outsider holds every work button but takes no part in the task.
    await refused(outsider.post(`${PATH}/start`, { id }), 'OnlyTaskMemberCanOperate');
    expect((await ok(outsider.get<TaskDetail>(`${PATH}/${id}/work`))).operations).toEqual([]);
    // Someone without the start button is refused by the route, whatever their part.
    const viewer = await staffCaller(ctx, t, ['office_task']);
    expect((await viewer.post(`${PATH}/start`, { id })).body).toMatchObject({ status: 40300 });
    // A holder of manage acts on any task; the super administrator too.
    const manager = await staffCaller(ctx, t, [...WORK, code('manage')]);
    await ok(manager.post(`${PATH}/start`, { id }));
    await ok(api.post(`${PATH}/progress`, { id, text: 'Seen', percent: 10 }));
    // Another tenant's task is missing.
    const other = await seedTenant(ctx.database, 'TasksOther');
    const stranger = await adminCaller(ctx, other);
    await refused(stranger.post(`${PATH}/complete`, { id }), 'TaskNotExist');
    await refused(stranger.get(`${PATH}/${id}/work`), 'TaskNotExist');
  });

  it('an assignee sees the tasks given to them on the board, whatever their data scope', async () => {
    const id = await auditedTask({ title: 'Board task' });
    const board = await ok(worker.get<TaskBoard>(`${PATH}/board?mine=true`));
    expect(board.columns.map((c) => c.stage)).toEqual(['Draft', 'InReview', 'NotStarted', 'InProgress', 'Completed', 'Terminated']);
    const card = board.columns.find((c) => c.stage === 'NotStarted')!.tasks.find((c) => c.id === id);
    expect(card).toMatchObject({ title: 'Board task', priority: 'High', assignees: [{ id: worker.adminId }], operations: ['start'] });
    // The bill list keeps to the data scope (the worker created none).
    expect((await worker.get(`${PATH}/${id}`)).body).toMatchObject({ message: 'BillNotExist' });
    // Not the worker's: the outsider's board (scope All) lists it, their own assignments do not.
    const mine = await ok(outsider.get<TaskBoard>(`${PATH}/board?mine=true`));
    expect(mine.columns.flatMap((c) => c.tasks)).toEqual([]);
    const keyword = await ok(worker.get<TaskBoard>(`${PATH}/board?keyword=Board%20task`));
    expect(keyword.columns.flatMap((c) => c.tasks).map((c) => c.id)).toEqual([id]);
  });

  it('tells the assignees when audited and the creator when finished by someone else', async () => {
    const id = await auditedTask({ title: 'Noticed task' });
    const assigned = (await inbox(worker)).find((m) => m.title.includes('Noticed task'));
    expect(assigned?.title).toBe('新任务：Noticed task');
    await ok(worker.post(`${PATH}/start`, { id }));
    await ok(worker.post(`${PATH}/complete`, { id }));
    expect((await inbox(lead)).some((m) => m.title === '任务已完成：Noticed task')).toBe(true);
  });

  it('reminds each assignee once before the due date and once overdue, never twice', async () => {
    const second = await staffCaller(ctx, t, WORK);
    const id = await auditedTask({ title: 'Reminded task', dueDate: day(3), remindDays: 2, assigneeIds: [worker.adminId, second.adminId] });
    const finished = await auditedTask({ title: 'Finished task', dueDate: day(1) });
    await ok(worker.post(`${PATH}/start`, { id: finished }));
    await ok(worker.post(`${PATH}/complete`, { id: finished }));
    const deps = { database: ctx.database, config: ctx.config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log };
    const at = (offset: number) => new Date(`${day(offset)}T09:00:00`);
    const keyed = async (key: string) => (await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, t.tenantId), eq(message.onceKey, key))))).length;
    const reminders = (kind: 'due' | 'overdue') => keyed(reminderKey(kind, id));
    const notices = async (key: string) =>
      (await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(message).where(eq(message.tenantId, t.tenantId)))).filter((m) => m.notice?.key === key && m.title.includes('Reminded task')).length;

    // Too early: nothing.
    await sendTaskReminders(deps, { now: at(0) });
    expect(await reminders('due')).toBe(0);
    // Within two days of the due date: each assignee once, whatever runs again or at the same moment.
    await Promise.all([sendTaskReminders(deps, { now: at(1) }), sendTaskReminders(deps, { now: at(1) })]);
    await sendTaskReminders(deps, { now: at(2) });
    expect(await reminders('due')).toBe(2);
    expect(await notices('taskDueSoon')).toBe(2);
    const en = (await ok(worker.get<MessageRow[]>('/api/admin/office/message?box=inbox&current=1&pageSize=100&lang=en'))).find((m) => m.title.includes('Reminded task'));
    expect(en?.title).toBe('Task due soon: Reminded task');
    // Past due: the overdue notice, once each.
    await sendTaskReminders(deps, { now: at(4) });
    await sendTaskReminders(deps, { now: at(5) });
    expect(await reminders('overdue')).toBe(2);
    expect(await notices('taskOverdue')).toBe(2);
    // A finished task is never reminded.
    expect((await keyed(reminderKey('due', finished))) + (await keyed(reminderKey('overdue', finished)))).toBe(0);
    // From the system: no sender.
    const stored = await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(message).where(and(eq(message.tenantId, t.tenantId), eq(message.onceKey, reminderKey('due', id)))));
    expect(stored.every((m) => m.senderId === null)).toBe(true);
  });
});
