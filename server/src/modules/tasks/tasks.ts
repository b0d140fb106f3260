import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { Task } from '@p8/contract/bills/office';
import type { BillStatus } from '@p8/contract/bills/status';
import type { Notice } from '@p8/contract/notices';
import {
  TaskStage,
  taskOperations,
  taskStage,
  taskTransition,
  type TaskBoard,
  type TaskCard,
  type TaskDetail,
  type TaskOperation,
  type TaskPriority,
  type TaskStage as TaskStageName,
  type TaskState,
} from '@p8/contract/tasks';
import { callerPermissions } from '../../core/permissions.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { sendNotice } from '../../core/notices.ts';
import { assertRefsExist } from '../../core/record-refs.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import type { Tx } from '../../db/connection.ts';
import { admin, bill, officeTask, officeTaskNote } from '../../db/schema/index.ts';
import { accountNames } from '../../bills/bill-rows.ts';
import { billScope } from '../../bills/list.ts';
import type { BillPostingHook } from '../../bills/posting-hooks.ts';
import type { BillRules } from '../../bills/rules.ts';
import { localDay } from '../../bills/stock-rules.ts';

/*
 * Tasks (docs/office.md). A task is the bill type `Task` (contract bills/office.ts): the engine numbers, saves,
 * submits, audits (joint review included), withdraws, lists, exports and prints it. This module adds what the
 * engine does not know: the rules of its fields, the work state once audited (start → complete | terminate, the
 * transitions of contract tasks.ts), progress notes, the board, the notices. The hold a started task has on its
 * audit is its declaration's (`keepsAuditWhen` on the stage listed here, `setListedStage`), which the engine
 * asks. Every operation here runs in its route's one transaction, on the task row locked.
 */

/** The button codes of a task's own operations (`<area>_<route>_<action>`, seeded from the declaration's ownButtons). */
export const TASK_CODES = {
  start: 'office_task_start',
  progress: 'office_task_progress',
  complete: 'office_task_complete',
  terminate: 'office_task_terminate',
  manage: 'office_task_manage',
} as const satisfies Record<TaskOperation | 'manage', string>;

interface TaskExtra {
  title?: string;
  content?: string;
  assigneeIds?: number[];
  dueDate?: string;
  remindDays?: number | null;
  priority?: TaskPriority | null;
}

const extraOf = (row: { extra: unknown }) => (row.extra ?? {}) as TaskExtra;
const assigneesOf = (row: { extra: unknown }) => (Array.isArray(extraOf(row).assigneeIds) ? extraOf(row).assigneeIds!.map(Number) : []);

/** Tasks naming `adminId` among their assignees (the jsonb array of ids). */
export const assignedTo = (adminId: number): SQL => sql`(${bill.extra} -> 'assigneeIds') @> ${JSON.stringify([adminId])}::jsonb`;

/**
 * What the caller sees of tasks: their data scope over bills (creator, the creator's department), and every task
 * they are an assignee of — someone asked to do a task sees it whatever their scope.
 */
async function visibleTasks(ctx: ServiceContext): Promise<SQL> {
  const scope = await billScope(ctx);
  const own = assignedTo(ctx.account.adminId);
  return and(eq(bill.tenantId, ctx.tenantId), eq(bill.billType, Task.type), scope ? or(scope, own)! : sql`true`)!;
}

// ---------------------------------------------------------------- the engine's hooks

/** Saving a task: its assignees are staff of the tenant, its due date not before its bill date. */
export function registerTaskRules(rules: BillRules): void {
  rules.register(Task.type, {
    async saving(ctx, _decl, draft) {
      const ids = Array.isArray(draft.header.assigneeIds) ? (draft.header.assigneeIds as number[]) : [];
      await assertRefsExist(ctx.tx, ctx.tenantId, 'staff', ids.map((id) => ({ id })));
      const due = String(draft.header.dueDate ?? '');
      const billDate = String(draft.header.billDate ?? '').slice(0, 10);
      if (due && billDate && due < billDate) throw new BizError('TaskDueBeforeBillDate', { additional: due });
    },
  });
}

/**
 * The task's stage beside its fields (`extra.taskStage`, the list's column and filter): set by the audit (not
 * started), each step, and taken away when the audit is withdrawn (only possible before the start).
 */
async function setListedStage(ctx: ServiceContext, billId: number, stage: TaskStageName | null): Promise<void> {
  const extra = stage ? sql`coalesce(${bill.extra}, '{}'::jsonb) || jsonb_build_object('taskStage', ${stage}::text)` : sql`coalesce(${bill.extra}, '{}'::jsonb) - 'taskStage'`;
  await ctx.tx.update(bill).set({ extra, updatedAt: new Date() }).where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, billId)));
}

/** An audited task is assigned: not started, and each assignee is told (not the one auditing, who knows). */
export const taskAssignedHook: BillPostingHook = {
  async audited(ctx, decl, row) {
    if (decl.type !== Task.type) return;
    await setListedStage(ctx, row.id, 'NotStarted');
    const extra = extraOf(row);
    await sendNotice(ctx, assigneesOf(row), { key: 'taskAssigned', params: { ...(await noticeParams(ctx, row)), dueDate: extra.dueDate ?? '' } });
  },
  async abandoned(ctx, decl, row) {
    if (decl.type === Task.type) await setListedStage(ctx, row.id, null);
  },
};

/** Staff named as assignees keep their accounts (as creators of bills do). */
export async function assigneeUsage(tx: Tx, tenantId: number, ids: number[]) {
  for (const id of ids) {
    const [found] = await tx.select({ id: bill.id }).from(bill).where(and(eq(bill.tenantId, tenantId), eq(bill.billType, Task.type), assignedTo(id))).limit(1);
    if (found) return { id };
  }
  return undefined;
}

// ---------------------------------------------------------------- reading

type TaskRow = typeof bill.$inferSelect;
type WorkRow = typeof officeTask.$inferSelect;

async function names(ctx: ServiceContext, ids: number[]): Promise<Map<number, string>> {
  const distinct = [...new Set(ids)];
  const found = await accountNames(ctx, distinct);
  return new Map(distinct.map((id, i) => [id, found[i]]));
}

async function noticeParams(ctx: ServiceContext, row: TaskRow): Promise<Record<string, string>> {
  const [sender] = await accountNames(ctx, [ctx.account.adminId]);
  return { sender, billCode: row.billCode, title: extraOf(row).title ?? '' };
}

interface Holder {
  adminId: number;
  manage: boolean;
  codes: ReadonlySet<string>;
  isSuper: boolean;
}

async function holderOf(ctx: ServiceContext): Promise<Holder> {
  const perms = await callerPermissions(ctx.tx, ctx.account);
  return { adminId: ctx.account.adminId, isSuper: perms.isSuper, codes: perms.buttons, manage: perms.isSuper || perms.buttons.has(TASK_CODES.manage) };
}

/** Whether the caller takes part in the task: an assignee, its creator, or a holder of "manage every task". */
const isMember = (holder: Holder, row: TaskRow) => holder.manage || row.createdBy === holder.adminId || assigneesOf(row).includes(holder.adminId);

function cardOf(row: TaskRow, work: WorkRow | undefined, named: Map<number, string>, holder: Holder, today: string): TaskCard {
  const extra = extraOf(row);
  const stage = taskStage(row.billStatus as BillStatus, (work?.state as TaskState | undefined) ?? null);
  const finished = stage === 'Completed' || stage === 'Terminated';
  const member = isMember(holder, row);
  return {
    id: row.id,
    billCode: row.billCode,
    billStatus: row.billStatus,
    title: extra.title ?? '',
    content: extra.content ?? '',
    priority: extra.priority ?? null,
    dueDate: extra.dueDate ?? '',
    remindDays: extra.remindDays ?? null,
    assignees: assigneesOf(row).map((id) => ({ id, name: named.get(id) ?? '' })),
    createdBy: row.createdBy,
    createdByName: named.get(row.createdBy) ?? '',
    stage,
    percent: work?.percent ?? null,
    startedAt: work?.startedAt?.toISOString() ?? null,
    finishedAt: work?.finishedAt?.toISOString() ?? null,
    reason: work?.reason ?? null,
    attachments: Array.isArray(row.attachments) ? (row.attachments as string[]) : [],
    overdue: !finished && !!extra.dueDate && extra.dueDate < today,
    operations: member ? taskOperations(stage).filter((op) => holder.isSuper || holder.codes.has(TASK_CODES[op])) : [],
  };
}

async function cardsOf(ctx: ServiceContext, rows: TaskRow[]): Promise<TaskCard[]> {
  if (!rows.length) return [];
  const works = await ctx.tx
    .select()
    .from(officeTask)
    .where(and(eq(officeTask.tenantId, ctx.tenantId), inArray(officeTask.billId, rows.map((r) => r.id))));
  const workOf = new Map(works.map((w) => [w.billId, w]));
  const named = await names(ctx, rows.flatMap((r) => [r.createdBy, ...assigneesOf(r)]));
  const holder = await holderOf(ctx);
  const today = localDay();
  return rows.map((row) => cardOf(row, workOf.get(row.id), named, holder, today));
}

/** Most tasks a board column shows (the newest due last); the list screen pages through all. */
const BOARD_COLUMN_LIMIT = 200;

/**
 * GET /admin/office/task/board: the tasks the caller sees, by stage (draft and in review together are "to be
 * audited" on the screen; here each stage is its own column), each column by due date. `mine`: only the
 * caller's own assignments; `keyword`: in the title or code.
 */
export async function taskBoard(ctx: ServiceContext, query: { mine?: 'true' | 'false'; keyword?: string }): Promise<TaskBoard> {
  const conditions = [await visibleTasks(ctx), sql`${bill.billStatus} <> 'Merged'`];
  if (query.mine === 'true') conditions.push(assignedTo(ctx.account.adminId));
  if (query.keyword) {
    const like = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(sql`${bill.extra} ->> 'title' ilike ${like}`, sql`${bill.billCode} ilike ${like}`)!);
  }
  const stageSql = sql<string>`coalesce((select t.state from office_task t where t.tenant_id = ${bill.tenantId} and t.bill_id = ${bill.id}),
    case when ${bill.billStatus} = 'Audit' then 'NotStarted' when ${bill.billStatus} in ('Submitted', 'UnAudit') then 'InReview' else 'Draft' end)`;
  // Each column's first BOARD_COLUMN_LIMIT tasks by due date, read in one statement.
  const ranked = await ctx.tx
    .select({ id: bill.id, stage: stageSql, rank: sql<number>`row_number() over (partition by ${stageSql} order by ${bill.extra} ->> 'dueDate', ${bill.id})` })
    .from(bill)
    .where(and(...conditions));
  const kept = ranked.filter((r) => Number(r.rank) <= BOARD_COLUMN_LIMIT).map((r) => r.id);
  const rows = kept.length
    ? await ctx.tx
        .select()
        .from(bill)
        .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, kept)))
        .orderBy(sql`${bill.extra} ->> 'dueDate'`, asc(bill.id))
    : [];
  const cards = await cardsOf(ctx, rows);
  return { columns: TaskStage.map((stage) => ({ stage, tasks: cards.filter((c) => c.stage === stage) })) };
}

async function findTask(ctx: ServiceContext, id: number, lock: boolean): Promise<TaskRow> {
  const query = ctx.tx.select().from(bill).where(and(await visibleTasks(ctx), eq(bill.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new BizError('TaskNotExist', { additional: id });
  return row;
}

/** GET /admin/office/task/{id}/work: the task as the board's drawer shows it, with its progress notes (newest first). */
export async function taskDetail(ctx: ServiceContext, id: number): Promise<TaskDetail> {
  const row = await findTask(ctx, id, false);
  const [card] = await cardsOf(ctx, [row]);
  const notes = await ctx.tx
    .select({ id: officeTaskNote.id, adminId: officeTaskNote.adminId, adminName: sql<string>`coalesce(nullif(${admin.realName}, ''), ${admin.name}, '')`, text: officeTaskNote.text, percent: officeTaskNote.percent, createdAt: officeTaskNote.createdAt })
    .from(officeTaskNote)
    .leftJoin(admin, and(eq(admin.tenantId, officeTaskNote.tenantId), eq(admin.id, officeTaskNote.adminId)))
    .where(and(eq(officeTaskNote.tenantId, ctx.tenantId), eq(officeTaskNote.billId, id)))
    .orderBy(desc(officeTaskNote.createdAt), desc(officeTaskNote.id));
  return { ...card, notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })) };
}

// ---------------------------------------------------------------- operations

/**
 * The task locked, with where `operation` leads: refused when the caller does not take part in it
 * (`OnlyTaskMemberCanOperate`) or its stage does not allow the operation (taskTransition's keys).
 */
async function stepOf(ctx: ServiceContext, id: number, operation: TaskOperation) {
  const row = await findTask(ctx, id, true);
  if (!isMember(await holderOf(ctx), row)) throw forbidden('OnlyTaskMemberCanOperate');
  const [work] = await ctx.tx.select().from(officeTask).where(and(eq(officeTask.tenantId, ctx.tenantId), eq(officeTask.billId, id))).for('update');
  const stage = taskStage(row.billStatus as BillStatus, (work?.state as TaskState | undefined) ?? null);
  const next = taskTransition(stage, operation);
  if ('refusal' in next) throw new BizError(next.refusal, { additional: stage });
  return { row, work, to: next.to };
}

/** POST /admin/office/task/start: an audited task not started yet is in progress. */
export async function startTask(ctx: ServiceContext, id: number): Promise<TaskDetail> {
  const { to } = await stepOf(ctx, id, 'start');
  await ctx.tx.insert(officeTask).values({ tenantId: ctx.tenantId, billId: id, state: to, percent: 0, startedBy: ctx.account.adminId, startedAt: new Date() });
  await setListedStage(ctx, id, to);
  ctx.audit({ action: 'start', entity: Task.type, entityId: id });
  return taskDetail(ctx, id);
}

/** POST /admin/office/task/progress: a note on a task in progress; its percentage, when given, is the task's. */
export async function addProgressNote(ctx: ServiceContext, body: { id: number; text: string; percent?: number | null }): Promise<TaskDetail> {
  await stepOf(ctx, body.id, 'progress');
  const percent = body.percent ?? null;
  await ctx.tx.insert(officeTaskNote).values({ tenantId: ctx.tenantId, billId: body.id, adminId: ctx.account.adminId, text: body.text, percent });
  if (percent !== null) await ctx.tx.update(officeTask).set({ percent, updatedAt: new Date() }).where(and(eq(officeTask.tenantId, ctx.tenantId), eq(officeTask.billId, body.id)));
  ctx.audit({ action: 'progress', entity: Task.type, entityId: body.id, detail: { percent } });
  return taskDetail(ctx, body.id);
}

/** POST /admin/office/task/complete and /terminate: only a task in progress; the creator is told by anyone else. */
export async function finishTask(ctx: ServiceContext, id: number, operation: 'complete' | 'terminate', reason?: string): Promise<TaskDetail> {
  const { row, to } = await stepOf(ctx, id, operation);
  await ctx.tx
    .update(officeTask)
    .set({ state: to, finishedBy: ctx.account.adminId, finishedAt: new Date(), reason: reason ?? null, ...(to === 'Completed' ? { percent: 100 } : {}), updatedAt: new Date() })
    .where(and(eq(officeTask.tenantId, ctx.tenantId), eq(officeTask.billId, id)));
  await setListedStage(ctx, id, to);
  const notice: Notice =
    operation === 'complete'
      ? { key: 'taskCompleted', params: await noticeParams(ctx, row) }
      : { key: 'taskTerminated', params: { ...(await noticeParams(ctx, row)), reason: reason ?? '' } };
  await sendNotice(ctx, [row.createdBy], notice);
  ctx.audit({ action: operation, entity: Task.type, entityId: id, ...(reason ? { detail: { reason } } : {}) });
  return taskDetail(ctx, id);
}
