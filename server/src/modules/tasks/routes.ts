import { idParamsSchema } from '@p8/contract/common';
import { taskBoardQuerySchema, taskIdSchema, taskProgressSchema, taskTerminateSchema } from '@p8/contract/tasks';
import { inArea, route, type ServerModule } from '../../core/route.ts';
import { addProgressNote, assigneeUsage, finishTask, registerTaskRules, startTask, TASK_CODES, taskAssignedHook, taskBoard, taskDetail } from './tasks.ts';

/**
 * Tasks (任务) under /api/admin/office/task (docs/office.md). The task's bill routes (list, add, edit, submit,
 * audit, withdraw, export, print…) are the bill engine's, from the `Task` declaration; these are its work:
 * the board, one task with its progress notes, start, progress note, complete, terminate.
 */
const URL = '/api/admin/office/task';
const tags = ['office'];
/** Read by the task list's screen and by the board's. */
const READ = 'office_task|office_taskBoard';

export const tasksModule: ServerModule = {
  name: 'tasks',
  routes: inArea('office', [
    route({
      method: 'GET', url: `${URL}/board`, tags, summary: 'The tasks the caller sees (data scope, and their own assignments) by stage, each column by due date',
      permission: READ, query: taskBoardQuerySchema,
      handler: (ctx, { query }) => taskBoard(ctx, query),
    }),
    route({
      method: 'GET', url: `${URL}/:id/work`, tags, summary: 'One task with its stage, assignees, the caller\'s operations and its progress notes',
      permission: READ, params: idParamsSchema,
      handler: (ctx, { params }) => taskDetail(ctx, params.id),
    }),
    route({
      method: 'POST', url: `${URL}/start`, tags, summary: 'Start an audited task (an assignee, its creator or a holder of manage)',
      permission: TASK_CODES.start, body: taskIdSchema,
      handler: (ctx, { body }) => startTask(ctx, body.id),
    }),
    route({
      method: 'POST', url: `${URL}/progress`, tags, summary: 'A progress note (and optionally the percentage done) on a task in progress',
      permission: TASK_CODES.progress, body: taskProgressSchema,
      handler: (ctx, { body }) => addProgressNote(ctx, body),
    }),
    route({
      method: 'POST', url: `${URL}/complete`, tags, summary: 'Complete a task in progress',
      permission: TASK_CODES.complete, body: taskIdSchema,
      handler: (ctx, { body }) => finishTask(ctx, body.id, 'complete'),
    }),
    route({
      method: 'POST', url: `${URL}/terminate`, tags, summary: 'Terminate a task in progress, with a reason',
      permission: TASK_CODES.terminate, body: taskTerminateSchema,
      handler: (ctx, { body }) => finishTask(ctx, body.id, 'terminate', body.reason),
    }),
  ]),
  register(registries) {
    registerTaskRules(registries.billRules);
    registries.billPostingHooks.register('office: task assigned', taskAssignedHook);
    registries.recordUsage.register('staff', 'office: task assignees', assigneeUsage);
  },
};
