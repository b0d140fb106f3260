import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { Task } from '@p8/contract/bills/office';
import type { Config } from '../../config.ts';
import { rows, type Database } from '../connection.ts';
import { withServiceContext, type Caller } from '../../core/service-context.ts';
import { auditBill, createBill, submitBill } from '../../bills/service.ts';
import { localDay } from '../../bills/stock-rules.ts';
import { addProgressNote, finishTask, startTask } from '../../modules/tasks/tasks.ts';
import { DEMO_TENANTS } from './demo.ts';

/*
 * The first demo tenant's tasks (docs/office.md), one or more in every stage, made through the bill engine's and
 * the task module's services as the people who would do each step: the administrator writes and audits them,
 * the workers start them, note their progress and complete or terminate them. Due dates lie around `now`, so
 * that one task is due within its reminder days and one is overdue (the reminders job tells their assignees).
 */

const WORKERS = ['wangqiang', 'liuyang', 'chenjing', 'zhaomin', 'sunli'];

/** Whether the first demo tenant exists without any task (a read on the owner connection). */
export async function demoOfficeMissing(database: Database): Promise<boolean> {
  const [found] = await rows<{ has_task: boolean }>(
    database,
    sql`select exists (select 1 from bill b where b.tenant_id = l.tenant_id and b.bill_type = ${Task.type}) as has_task from login_name l where l.name = lower(${DEMO_TENANTS[0].adminName})`,
  );
  return !!found && !found.has_task;
}

const day = (now: Date, offset: number) => localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset));

/** Seeds the tasks of the first demo tenant; false when it has tasks already or no workers. */
export async function seedOfficeDemo(app: FastifyInstance, database: Database, config: Config, now = new Date()): Promise<boolean> {
  if (!(await demoOfficeMissing(database))) return false;
  const accounts = await rows<{ tenant_id: string | number; id: string | number; name: string }>(
    database,
    sql`select a.tenant_id, a.id, a.name from admin a join login_name l on l.tenant_id = a.tenant_id where l.name = lower(${DEMO_TENANTS[0].adminName}) order by a.id`,
  );
  const tenantId = Number(accounts[0]?.tenant_id);
  const idOf = (name: string) => Number(accounts.find((a) => a.name === name)?.id);
  const adminId = idOf(DEMO_TENANTS[0].adminName);
  const workers = WORKERS.map(idOf).filter((id) => Number.isInteger(id) && id > 0);
  if (!adminId || workers.length < WORKERS.length) return false;
  const [w1, w2, w3, w4, w5] = workers;
  const as = (id: number): Caller => ({ tenantId, account: { tenantId, adminId: id, sessionId: '' }, config, registries: app.registries, log: app.log, ip: '', access: app.access });
  const step = <T>(who: number, fn: Parameters<typeof withServiceContext<T>>[2]) => withServiceContext(database, as(who), fn);
  const billDate = day(now, -7);

  const tasks: Array<{ title: string; content: string; priority: string; due: number; remindDays?: number; assignees: number[]; to: 'draft' | 'review' | 'audit' | 'progress' | 'complete' | 'terminate'; notes?: Array<[number, string, number | null]>; reason?: string }> = [
    { title: '编制下月设备保养计划', content: '<p>按设备台账逐台列出<strong>保养项目</strong>和责任人，月底前提交。</p>', priority: 'Normal', due: 10, assignees: [w1], to: 'draft' },
    { title: '整理一季度质量异常报告', content: '<p>汇总来料、过程和成品的不合格记录，分析前三项原因。</p>', priority: 'High', due: 6, assignees: [w2, w3], to: 'review' },
    { title: '仓库年中盘点准备', content: '<ol><li>打印盘点表</li><li>清理呆滞料区</li><li>确认盘点人员分组</li></ol>', priority: 'Normal', due: 2, remindDays: 3, assignees: [w4, w5], to: 'audit' },
    {
      title: 'SMT 贴片线换型调试', content: '<p>新款控制板 <em>MC-300</em> 导入：钢网、程序、首件确认。</p>', priority: 'Urgent', due: 3, assignees: [w1, w2], to: 'progress',
      notes: [[w1, '钢网已到，程序导入完成。', 30], [w2, '首件贴装两处偏位，调整吸嘴后复测。', 55]],
    },
    { title: '更新车间安全操作规程', content: '<p>按新版标准修订冲压、焊接两个岗位的操作规程。</p>', priority: 'High', due: -2, assignees: [w3], to: 'progress', notes: [[w3, '冲压岗位已修订完成，焊接岗位进行中。', 50]] },
    { title: '供应商来料检验标准培训', content: '<p>组织 IQC 人员学习新版抽样标准。</p>', priority: 'Normal', due: -3, assignees: [w4], to: 'complete', notes: [[w4, '培训已完成，8 人参加，考核全部通过。', 100]] },
    { title: '旧包装线改造评估', content: '<p>评估改造旧包装线的投入与收益。</p>', priority: 'Low', due: 5, assignees: [w5], to: 'terminate', notes: [[w5, '已收集两家设备商报价。', 20]], reason: '公司决定直接采购新包装线，改造取消' },
  ];

  for (const task of tasks) {
    const made = await step(adminId, (ctx) =>
      createBill(ctx, Task, { billDate, title: task.title, content: task.content, priority: task.priority, dueDate: day(now, task.due), remindDays: task.remindDays ?? null, assigneeIds: task.assignees, remark: '', lines: [] }),
    );
    if (task.to === 'draft') continue;
    await step(adminId, (ctx) => submitBill(ctx, Task, made.id));
    if (task.to === 'review') continue;
    await step(adminId, (ctx) => auditBill(ctx, Task, made.id));
    if (task.to === 'audit') continue;
    await step(task.assignees[0], (ctx) => startTask(ctx, made.id));
    for (const [who, text, percent] of task.notes ?? []) await step(who, (ctx) => addProgressNote(ctx, { id: made.id, text, percent }));
    if (task.to === 'complete') await step(task.assignees[0], (ctx) => finishTask(ctx, made.id, 'complete'));
    if (task.to === 'terminate') await step(adminId, (ctx) => finishTask(ctx, made.id, 'terminate', task.reason));
  }
  return true;
}
