import type { TaskBoard, TaskDetail } from '@p8/contract/tasks';
import { http } from '../../../app/http.ts';

const PATH = '/admin/office/task';

/** GET /admin/office/task/board — the tasks the caller sees, by stage (office_task or office_taskBoard). */
export const getTaskBoard = (query: { mine?: 'true' | 'false'; keyword?: string }) => http.get<TaskBoard>(`${PATH}/board`, query, { noLoading: true });
/** GET /admin/office/task/{id}/work — one task with its progress notes and the caller's operations. */
export const getTaskWork = (id: number) => http.get<TaskDetail>(`${PATH}/${id}/work`, undefined, { noLoading: true });
/** POST /admin/office/task/start (office_task_start). */
export const startTask = (id: number) => http.post<TaskDetail>(`${PATH}/start`, { id });
/** POST /admin/office/task/progress (office_task_progress). */
export const addProgress = (id: number, text: string, percent: number | null) => http.post<TaskDetail>(`${PATH}/progress`, { id, text, percent });
/** POST /admin/office/task/complete (office_task_complete). */
export const completeTask = (id: number) => http.post<TaskDetail>(`${PATH}/complete`, { id });
/** POST /admin/office/task/terminate (office_task_terminate). */
export const terminateTask = (id: number, reason: string) => http.post<TaskDetail>(`${PATH}/terminate`, { id, reason });
