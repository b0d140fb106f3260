import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Task } from '@p8/contract/bills/office';
import { DEFAULT_TASK_REMIND_DAYS } from '@p8/contract/tasks';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { rows as rawRows } from '../../db/connection.ts';
import type { AccessInvalidator } from '../../core/access-cache.ts';
import { sendNotice } from '../../core/notices.ts';
import { startPeriodic } from '../../core/periodic.ts';
import type { Registries } from '../../core/registries.ts';
import { superAdminCaller, withServiceContext } from '../../core/service-context.ts';
import { localDay } from '../../bills/stock-rules.ts';

/*
 * Reminders of tasks (docs/office.md): a periodic job tells each assignee of an audited task that is not finished
 * (not started or in progress) once when the task comes within its reminder days of its due date (`remindDays`,
 * default DEFAULT_TASK_REMIND_DAYS; 0: on the day), and once when it is past due — as notices from the system
 * (the bell), in the reader's language. "Once" is the message center's once-key (`task-due:<task>`,
 * `task-overdue:<task>` per receiver, a unique index): a second run, a second server process or a run after a
 * restart stores nothing. A reminder still to send when the task is past due is not sent any more (the overdue
 * notice says more). Days are the server's local days, as bill dates are.
 */

export interface TaskReminderDeps {
  database: Database;
  config: Config;
  registries: Registries;
  access: AccessInvalidator;
  log: FastifyBaseLogger;
}

export type ReminderKind = 'due' | 'overdue';

/** The once-key of a task's reminder of a kind (per receiver). */
export const reminderKey = (kind: ReminderKind, billId: number) => `task-${kind}:${billId}`;

/** Open audited tasks within their reminder days or past due (`b`: the bill), as SQL. */
const remindable = (today: string) => sql`b.bill_type = ${Task.type} and b.bill_status = 'Audit'
  and (b.extra ->> 'dueDate')::date - coalesce((b.extra ->> 'remindDays')::int, ${DEFAULT_TASK_REMIND_DAYS}) <= ${today}::date
  and not exists (select 1 from office_task t where t.tenant_id = b.tenant_id and t.bill_id = b.id and t.state <> 'InProgress')`;

/** The tenants with a reminder to send today (read across tenants on the owner connection). */
async function tenantsDue(database: Database, today: string): Promise<number[]> {
  const found = await database.withSystem((tx) => rawRows<{ tenant_id: string | number }>(tx, sql`select distinct b.tenant_id from bill b where ${remindable(today)}`));
  return found.map((r) => Number(r.tenant_id));
}

/** Sends every reminder due by `now` in every tenant; answers how many notices were stored. */
export async function sendTaskReminders(deps: TaskReminderDeps, { now = new Date() }: { now?: Date } = {}): Promise<number> {
  const today = localDay(now);
  let sent = 0;
  for (const tenantId of await tenantsDue(deps.database, today)) {
    try {
      sent += await remindTenant(deps, tenantId, today);
    } catch (error) {
      // One tenant's failure must not keep the others' reminders back.
      deps.log.error({ err: error, tenantId }, 'task reminders: a tenant failed');
    }
  }
  return sent;
}

async function remindTenant(deps: TaskReminderDeps, tenantId: number, today: string): Promise<number> {
  const caller = await superAdminCaller(deps, tenantId);
  if (!caller) return 0;
  return withServiceContext(deps.database, caller, async (ctx) => {
    // Each open task's assignees without this kind's reminder yet (the once-key's index answers the lookup).
    const due = await rawRows<{ bill_id: string | number; bill_code: string; title: string | null; due_date: string; assignee_id: string | number; kind: ReminderKind }>(
      ctx.tx,
      sql`select * from (
          select b.id as bill_id, b.bill_code, b.extra ->> 'title' as title, b.extra ->> 'dueDate' as due_date, a.value::bigint as assignee_id,
            case when (b.extra ->> 'dueDate')::date < ${today}::date then 'overdue' else 'due' end as kind
          from bill b cross join lateral jsonb_array_elements_text(coalesce(b.extra -> 'assigneeIds', '[]'::jsonb)) a(value)
          where b.tenant_id = ${tenantId} and ${remindable(today)}) d
        where not exists (select 1 from message m where m.tenant_id = ${tenantId} and m.receiver_id = d.assignee_id
                          and m.once_key = 'task-' || d.kind || ':' || d.bill_id)
        order by d.bill_id, d.assignee_id`,
    );
    let sent = 0;
    for (const d of due) {
      const billId = Number(d.bill_id);
      const notice = { key: d.kind === 'due' ? ('taskDueSoon' as const) : ('taskOverdue' as const), params: { billCode: d.bill_code, title: d.title ?? '', dueDate: d.due_date } };
      sent += (await sendNotice(ctx, [Number(d.assignee_id)], notice, { from: 'system', onceKey: reminderKey(d.kind, billId) })).length;
    }
    return sent;
  });
}

/** Runs the reminders a minute after start, then every `intervalMs` (default ten minutes); answers the stop function. */
export function startTaskReminders(deps: TaskReminderDeps, intervalMs = 10 * 60_000): () => Promise<void> {
  return startPeriodic(
    () =>
      sendTaskReminders(deps).then(
        (n) => void (n > 0 && deps.log.info({ sent: n }, 'task reminders sent')),
        (error: unknown) => deps.log.error({ err: error }, 'task reminders: the run failed'),
      ),
    intervalMs,
    60_000,
  );
}
