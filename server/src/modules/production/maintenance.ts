import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { billApiPath, billButtonCode, type BillPayload } from '@p8/contract/bills/registry';
import { EquipmentMaintenance, ProcessReport } from '@p8/contract/bills/production';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { lockKey } from '../../core/advisory-lock.ts';
import { databaseToday } from '../../core/dashboard.ts';
import { BizError } from '../../core/errors.ts';
import { route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { createBill } from '../../bills/bill-save.ts';
import { textList } from '../../core/tree.ts';

/*
 * Equipment maintenance plans (docs/production.md, "Equipment maintenance"). A machine's plan is on its record:
 * every N days and / or every N hours of use (the hours process reports put on it). Its next maintenance counts
 * from its last audited maintenance (any kind: a repair services the machine too), or from when the machine
 * was recorded:
 *
 *   due by days  = last maintenance + N days
 *   due by hours = today, once the hours reported on it by audited reports dated after the last maintenance
 *                  reach N
 *   due          = the earlier of the two
 *
 * "Generate from plans" makes a dated work order (a Saved `EquipmentMaintenance`, kind Planned, due by that
 * date, warned about the horizon's days before) for every machine in service whose maintenance falls due
 * within the horizon and that has no work order open (not yet audited) — so generating twice makes nothing
 * new, and two users generating at once make each order once (the tenant's lock). The orders are saved by the
 * bill engine as the user who asked, with every check a hand-made one gets; the early warning lists them
 * until they are audited.
 */

/** How far ahead "generate" looks by default: a week, the early warning's usual horizon. */
export const MAINTENANCE_HORIZON_DAYS = 7;


interface DueMachine {
  id: number;
  dueOn: string;
  deptId: number | null;
}

/** The machines whose maintenance falls due by `until` and have no open work order, with the date it is due. */
async function machinesDue(ctx: ServiceContext, today: string, until: string): Promise<DueMachine[]> {
  const found = await rows<{ id: string; due_by_days: string | null; hours_due: boolean; dept_id: string | null }>(
    ctx.tx,
    sql`with last as (
          select (b.extra ->> 'equipmentId')::bigint as equipment_id, max(b.bill_date) as done_on
          from bill b
          where b.tenant_id = ${ctx.tenantId} and b.bill_type = ${EquipmentMaintenance.type} and b.bill_status in (${textList(POSTED_STATUSES)})
          group by 1
        ), open as (
          select distinct (b.extra ->> 'equipmentId')::bigint as equipment_id
          from bill b
          where b.tenant_id = ${ctx.tenantId} and b.bill_type = ${EquipmentMaintenance.type} and b.bill_status not in (${textList([...POSTED_STATUSES, 'Merged'])})
        )
        select e.id,
               case when e.maintenance_days > 0 then (coalesce(l.done_on, e.created_at::date) + e.maintenance_days)::text end as due_by_days,
               e.maintenance_hours > 0 and coalesce((
                 select sum((rl.extra ->> 'hours')::numeric)
                 from bill_line rl join bill rb on rb.tenant_id = rl.tenant_id and rb.id = rl.bill_id
                 where rl.tenant_id = e.tenant_id and rl.extra ? 'equipmentId' and (rl.extra ->> 'equipmentId')::bigint = e.id
                   and rb.bill_type = ${ProcessReport.type} and rb.bill_status in (${textList(POSTED_STATUSES)})
                   and (l.done_on is null or rb.bill_date > l.done_on)
               ), 0) >= e.maintenance_hours as hours_due,
               t.dept_id
        from equipment e
        left join last l on l.equipment_id = e.id
        left join team t on t.tenant_id = e.tenant_id and t.id = e.team_id
        where e.tenant_id = ${ctx.tenantId} and e.enabled and e.status <> 'scrapped' and (e.maintenance_days > 0 or e.maintenance_hours > 0)
          and e.id not in (select equipment_id from open where equipment_id is not null)
        order by e.sort, e.id`,
  );
  return found.flatMap((r) => {
    const dates = [r.due_by_days, r.hours_due ? today : null].filter((d): d is string => d !== null);
    const dueOn = dates.sort()[0];
    return dueOn !== undefined && dueOn <= until ? [{ id: Number(r.id), dueOn, deptId: r.dept_id === null ? null : Number(r.dept_id) }] : [];
  });
}

/** Makes the work orders of every machine due within `days` from today; answers how many and their ids. */
export async function generateMaintenance(ctx: ServiceContext, days = MAINTENANCE_HORIZON_DAYS): Promise<{ count: number; ids: number[] }> {
  await lockKey(ctx.tx, `maintenance:${ctx.tenantId}`);
  const today = await databaseToday(ctx);
  const until = new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const ids: number[] = [];
  for (const machine of await machinesDue(ctx, today, until)) {
    const payload = {
      billDate: today,
      equipmentId: machine.id,
      maintenanceKind: 'Planned',
      deliveryDate: machine.dueOn,
      deliveryWarnDays: days,
      ...(machine.deptId !== null ? { deptId: machine.deptId } : {}),
      lines: [],
    } as BillPayload;
    ids.push((await createBill(ctx, EquipmentMaintenance, payload)).id);
  }
  return { count: ids.length, ids };
}

/** A scrapped machine is not maintained (`EquipmentScrappedNoMaintenance`). */
export async function maintainableMachine(ctx: ServiceContext, _decl: unknown, payload: BillPayload): Promise<BillPayload['lines']> {
  if (payload.equipmentId == null) return payload.lines;
  const [scrapped] = await rows<{ id: string }>(ctx.tx, sql`select id from equipment where tenant_id = ${ctx.tenantId} and id = ${Number(payload.equipmentId)} and status = 'scrapped'`);
  if (scrapped) throw new BizError('EquipmentScrappedNoMaintenance');
  return payload.lines;
}

export const maintenanceRoutes = [
  route({
    method: 'POST',
    url: `${billApiPath(EquipmentMaintenance)}/generate`,
    tags: ['production: equipment maintenance'],
    summary: "Generate the work orders of every machine whose maintenance plan falls due within `days` (default 7) and has none open; answers how many",
    permission: billButtonCode(EquipmentMaintenance, 'add'),
    body: z.object({ days: z.number().int({ message: 'ParamError' }).min(0, { message: 'ParamError' }).max(365, { message: 'ParamError' }).optional() }).optional(),
    handler: (ctx, { body }) => generateMaintenance(ctx, body?.days ?? MAINTENANCE_HORIZON_DAYS),
  }),
];
