import { z } from 'zod';
import { richText } from '../rich-text.ts';
import { storableText } from '../text.ts';
import { dateSchema, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillTypeDecl } from './registry.ts';
import { TASK_PRIORITY_LABELS, TASK_STAGE_LABELS, TaskPriority, type TaskState } from '../tasks.ts';

/**
 * Office bills (docs/office.md):
 * - `Task` (任务): a title, rich-text content, its assignees, a due date, attachments. A task is a bill of the
 *   engine so that it is numbered, audited (plainly or through joint review), withdrawn, listed, exported and
 *   printed like any bill; once audited, its own work state — not started → in progress → completed or
 *   terminated, with progress notes — is the office module's (server/src/modules/office/tasks.ts), and a started
 *   task keeps its audit (`keepsAuditWhen` on the stage it lists: the engine refuses the withdrawal, the form
 *   does not offer it).
 */

const staffId = z.number().int().positive();

export const taskTitle: FieldDecl = {
  key: 'title',
  label: { zh: '任务标题', en: 'Title' },
  kind: 'text',
  schema: storableText().trim().min(1, { message: 'PleaseInputTaskTitle' }).max(100, { message: 'TaskTitleTooLong' }),
  required: 'PleaseInputTaskTitle',
  list: true,
  search: 'contains',
  width: 220,
};

export const taskContent: FieldDecl = {
  key: 'content',
  label: { zh: '任务内容', en: 'Content' },
  kind: 'richText',
  schema: richText(50_000),
};

export const taskAssignees: FieldDecl = {
  key: 'assigneeIds',
  label: { zh: '执行人', en: 'Assignees' },
  kind: 'staffList',
  schema: z
    .array(staffId, { error: 'PleaseSelectTaskAssignee' })
    .min(1, { message: 'PleaseSelectTaskAssignee' })
    .max(50, { message: 'TaskAssigneesTooMany' })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'TaskAssigneeRepeat' }),
  required: 'PleaseSelectTaskAssignee',
  width: 200,
};

export const taskDueDate: FieldDecl = {
  key: 'dueDate',
  label: { zh: '截止日期', en: 'Due date' },
  kind: 'date',
  schema: dateSchema,
  required: 'PleaseSelectTaskDueDate',
  list: true,
  width: 120,
};

export const taskRemindDays: FieldDecl = {
  key: 'remindDays',
  label: { zh: '提前提醒天数', en: 'Remind days before' },
  kind: 'number',
  schema: z.number().int({ message: 'TaskRemindDaysOutOfRange' }).min(0, { message: 'TaskRemindDaysOutOfRange' }).max(30, { message: 'TaskRemindDaysOutOfRange' }),
  width: 110,
};

export const taskPriority: FieldDecl = {
  key: 'priority',
  label: { zh: '优先级', en: 'Priority' },
  kind: 'enum',
  schema: z.enum(TaskPriority, { error: 'ParamError' }),
  options: TaskPriority.map((value) => ({ value, label: TASK_PRIORITY_LABELS[value] })),
  list: true,
  search: 'eq',
  width: 90,
};

/** The work stage of an audited task, kept beside its fields by the task module (none before the audit): listed and filtered. */
export const TaskWorkStage = ['NotStarted', 'InProgress', 'Completed', 'Terminated'] as const;
export const taskStageField: FieldDecl = {
  key: 'taskStage',
  label: { zh: '任务状态', en: 'Task stage' },
  kind: 'enum',
  readOnly: true,
  schema: z.enum(TaskWorkStage),
  options: TaskWorkStage.map((value) => ({ value, label: TASK_STAGE_LABELS[value] })),
  list: true,
  search: 'eq',
  width: 100,
};

export const Task: BillTypeDecl = {
  type: 'Task',
  label: { zh: '任务', en: 'Task' },
  area: 'office',
  route: 'task',
  codePrefix: 'RW',
  icon: 'CarryOutOutlined',
  header: [taskTitle, taskPriority, taskDueDate, taskStageField, taskRemindDays, taskAssignees, taskContent],
  creatorColumn: { zh: '创建人', en: 'Created by' },
  lines: [],
  lineKind: 'none',
  sources: [],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: [],
  switches: [],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'],
  // A started task keeps its audit: withdrawing it would take the work back to a draft under its assignees.
  keepsAuditWhen: { when: { field: 'taskStage', values: ['InProgress', 'Completed', 'Terminated'] satisfies TaskState[] }, refusal: 'TaskStartedProhibitAbandonAudit' },
  ownButtons: [
    { action: 'start', label: { zh: '开始', en: 'Start' } },
    { action: 'progress', label: { zh: '进展', en: 'Progress note' } },
    { action: 'complete', label: { zh: '完成', en: 'Complete' } },
    { action: 'terminate', label: { zh: '终止', en: 'Terminate' } },
    { action: 'manage', label: { zh: '管理全部任务', en: 'Manage every task' } },
  ],
};

export const OFFICE_BILLS: readonly BillTypeDecl[] = [Task];
