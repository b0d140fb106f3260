import { z } from 'zod';
import type { BillStatus, Label } from './bills/status.ts';
import { storableText } from './text.ts';

/**
 * Tasks (任务, docs/office.md): a task is a bill of the engine (contract bills/office.ts), and once audited it has
 * a work state of its own. What a task is now, as the board shows it (`TaskStage`):
 * - Draft: saved, refused or withdrawn — its creator edits and submits it;
 * - InReview: submitted, or in joint review;
 * - NotStarted: audited, not started yet;
 * - InProgress: started by an assignee (or its creator, or a holder of the manage button);
 * - Completed / Terminated: only an in-progress task is completed or terminated (with a reason).
 * The transitions are `taskTransition` (below), shared by the server, which refuses by it, and the web, which
 * offers only the buttons it allows.
 */

export const TaskState = ['InProgress', 'Completed', 'Terminated'] as const;
export type TaskState = (typeof TaskState)[number];

export const TaskStage = ['Draft', 'InReview', 'NotStarted', 'InProgress', 'Completed', 'Terminated'] as const;
export type TaskStage = (typeof TaskStage)[number];

export const TASK_STAGE_LABELS: Record<TaskStage, Label> = {
  Draft: { zh: '草稿', en: 'Draft' },
  InReview: { zh: '待审核', en: 'In review' },
  NotStarted: { zh: '未开始', en: 'Not started' },
  InProgress: { zh: '进行中', en: 'In progress' },
  Completed: { zh: '已完成', en: 'Completed' },
  Terminated: { zh: '已终止', en: 'Terminated' },
};

export const TaskPriority = ['Low', 'Normal', 'High', 'Urgent'] as const;
export type TaskPriority = (typeof TaskPriority)[number];
export const TASK_PRIORITY_LABELS: Record<TaskPriority, Label> = {
  Low: { zh: '低', en: 'Low' },
  Normal: { zh: '普通', en: 'Normal' },
  High: { zh: '高', en: 'High' },
  Urgent: { zh: '紧急', en: 'Urgent' },
};

export const TaskOperation = ['start', 'progress', 'complete', 'terminate'] as const;
export type TaskOperation = (typeof TaskOperation)[number];

/** The reminder lead a task without `remindDays` gets: a day before it is due. */
export const DEFAULT_TASK_REMIND_DAYS = 1;

/** A task's stage from its bill status and its work state (none: not started). */
export function taskStage(billStatus: BillStatus | string, state: TaskState | null | undefined): TaskStage {
  if (state) return state;
  if (billStatus === 'Audit') return 'NotStarted';
  if (billStatus === 'Submitted' || billStatus === 'UnAudit') return 'InReview';
  return 'Draft';
}

/**
 * Where an operation leads from a stage, or the refusal's key. Start: only an audited task (`TaskNotAudit`) not
 * started yet (`TaskAlreadyStarted`). Progress notes, completion and termination: only in progress — a task
 * not audited is `TaskNotAudit`, one audited but not started `TaskNotStarted`, a finished one `TaskNotInProgress`.
 */
export function taskTransition(stage: TaskStage, operation: TaskOperation): { to: TaskState } | { refusal: 'TaskNotAudit' | 'TaskNotStarted' | 'TaskAlreadyStarted' | 'TaskNotInProgress' } {
  const unaudited = stage === 'Draft' || stage === 'InReview';
  if (operation === 'start') {
    if (stage === 'NotStarted') return { to: 'InProgress' };
    return { refusal: unaudited ? 'TaskNotAudit' : 'TaskAlreadyStarted' };
  }
  if (stage !== 'InProgress') return { refusal: unaudited ? 'TaskNotAudit' : stage === 'NotStarted' ? 'TaskNotStarted' : 'TaskNotInProgress' };
  return { to: operation === 'complete' ? 'Completed' : operation === 'terminate' ? 'Terminated' : 'InProgress' };
}

/** The operations a stage allows (the web offers only these). */
export const taskOperations = (stage: TaskStage): TaskOperation[] => TaskOperation.filter((op) => 'to' in taskTransition(stage, op));

const id = z.number().int().positive();

/** POST /admin/office/task/start and /complete. */
export const taskIdSchema = z.object({ id });
/** POST /admin/office/task/terminate: the reason is required. */
export const taskTerminateSchema = z.object({
  id,
  reason: storableText().trim().min(1, { message: 'PleaseInputTerminateReason' }).max(500),
});
/** POST /admin/office/task/progress: a note with, optionally, how far the work is (0–100 %). */
export const taskProgressSchema = z.object({
  id,
  text: storableText().trim().min(1, { message: 'PleaseInputProgressNote' }).max(2000),
  percent: z.number().int({ message: 'PercentOutOfRange' }).min(0, { message: 'PercentOutOfRange' }).max(100, { message: 'PercentOutOfRange' }).nullish(),
});
/** GET /admin/office/task/board */
export const taskBoardQuerySchema = z.object({
  /** Only tasks the caller is an assignee of. */
  mine: z.enum(['true', 'false']).optional(),
  keyword: storableText().trim().max(100).optional(),
});

export interface TaskNote {
  id: number;
  adminId: number;
  adminName: string;
  text: string;
  percent: number | null;
  createdAt: string;
}

export interface TaskAssignee {
  id: number;
  name: string;
}

/** A task as the board and its drawer show it. */
export interface TaskCard {
  id: number;
  billCode: string;
  billStatus: string;
  title: string;
  content: string;
  priority: TaskPriority | null;
  dueDate: string;
  remindDays: number | null;
  assignees: TaskAssignee[];
  createdBy: number;
  createdByName: string;
  stage: TaskStage;
  percent: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  reason: string | null;
  attachments: string[];
  overdue: boolean;
  /** What the caller may do now (their buttons, membership and the stage). */
  operations: TaskOperation[];
}

export interface TaskDetail extends TaskCard {
  notes: TaskNote[];
}

export interface TaskBoard {
  columns: Array<{ stage: TaskStage; tasks: TaskCard[] }>;
}
