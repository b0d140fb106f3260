import { sql } from 'drizzle-orm';
import { billApiPath, billMenuName } from '@p8/contract/bills/registry';
import { div, microText, mul, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { PRODUCTION_LINES, ProcessDispatch, ProcessReport, ProductionOrder, REPORT_QUANTITIES } from '@p8/contract/bills/production';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { floorStepsQuerySchema, QUICK_REPORT_SCREEN, type FloorStep, type FloorStepsQuery } from '@p8/contract/shop-floor';
import { inArea, route } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { textList } from '../../core/tree.ts';
import { rows } from '../../db/connection.ts';
import { billLine } from '../../db/schema/index.ts';
import { conditionSql } from '../../bills/bill-save.ts';
import { billScope } from '../../bills/list.ts';
import { sourceLineMaterial, sourceLineMaterialSql } from '../../bills/push-down.ts';
import { previousStepSql } from './rules.ts';

/*
 * The shop floor's quick report (docs/production.md, "The shop-floor screen"): the open steps a worker may report.
 * Reporting one is the bill engine's push down and save (and submit / audit where the caller may), from the web,
 * so every rule of a process report applies; this module only reads what the screen lists.
 */

/** At most this many steps (a tablet shows a shift's work; the keyword narrows it). */
const STEP_LIMIT = 100;

/**
 * The open steps of audited production orders in the caller's data scope (the engine's push-down picker shows
 * the same orders): `mine` those an audited dispatch gave to the caller or to a team they are a member of.
 * A step is open while something is reportable on it — reworked pieces waiting at it among them (rework takes
 * nothing). The first `STEP_LIMIT` by order date.
 */
export async function floorSteps(ctx: ServiceContext, query: FloorStepsQuery, mine: boolean): Promise<FloorStep[]> {
  const scope = await billScope(ctx, 'b');
  const me = ctx.account.adminId;
  const posted = textList(POSTED_STATUSES);
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  // The good, scrapped and rework pieces of a step's reports (main unit): of posted reports, or of any but merged.
  const sum = (field: string, statuses: 'posted' | 'taken') =>
    sql`coalesce((select sum(${field === REPORT_QUANTITIES.good ? sql`d.base_number` : sql`coalesce((d.extra ->> ${field})::numeric * d.base_number / nullif(d.number, 0), (d.extra ->> ${field})::numeric, 0)`})
          from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
          where d.tenant_id = s.tenant_id and d.source_line_id = s.id and db.bill_type = ${ProcessReport.type}
            and ${statuses === 'posted' ? sql`db.bill_status in (${posted})` : sql`db.bill_status <> 'Merged'`}), 0)::text`;
  // The step's audited dispatch lines (`g`).
  const dispatches = (joins = sql``) => sql`from bill_line g join bill gb on gb.tenant_id = g.tenant_id and gb.id = g.bill_id ${joins}
      where g.tenant_id = s.tenant_id and g.source_line_id = s.id and gb.bill_type = ${ProcessDispatch.type} and gb.bill_status in (${posted})`;
  const material = sourceLineMaterialSql('s');
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select * from (
          select s.id, b.id as order_id, b.bill_code, b.bill_date::text, b.dept_id, ${material.columns}, (s.extra ->> 'processId') as process_id, pr.name as process_name,
                 (s.extra ->> 'teamId') as team_id, s.unit_price::text as piece_rate, s.number::text as number, s.base_number::text as base_number,
                 -- Its place among the product's steps (counted over the order, whatever the keyword leaves out).
                 (select count(*) from bill_line q where q.tenant_id = s.tenant_id and q.bill_id = s.bill_id and q.material_id = s.material_id
                    and ${conditionSql(PRODUCTION_LINES.processes, 'q', billLine)} and q.line_no <= s.line_no) as step_no,
                 p.id as previous,
                 ${sum(REPORT_QUANTITIES.good, 'posted')} as good, ${sum(REPORT_QUANTITIES.scrap, 'posted')} as scrap,
                 ${sum(REPORT_QUANTITIES.rework, 'posted')} as rework, ${sum(REPORT_QUANTITIES.good, 'taken')} as taken,
                 (select coalesce(sum(d.base_number), 0)::text from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
                   where d.tenant_id = s.tenant_id and d.source_line_id = p.id and db.bill_type = ${ProcessReport.type} and db.bill_status in (${posted})) as passed,
                 -- Whom: the worker a dispatch line names, else its team.
                 (select array_agg(distinct coalesce(nullif(a.real_name, ''), a.name, t.name))
                    ${dispatches(sql`left join admin a on a.tenant_id = g.tenant_id and a.id = (g.extra ->> 'staffId')::bigint
                                     left join team t on t.tenant_id = g.tenant_id and t.id = (g.extra ->> 'teamId')::bigint`)}) as dispatched_to,
                 (select max(g.extra ->> 'planFinish') ${dispatches()}) as plan_finish,
                 exists (select 1 ${dispatches()}
                   and ((g.extra ->> 'staffId')::bigint = ${me}
                     or (g.extra ->> 'teamId')::bigint in (select tm.record_id from team_member tm where tm.tenant_id = s.tenant_id and tm.staff_id = ${me}))) as mine,
                 s.closed
          from bill_line s
          join bill b on b.tenant_id = s.tenant_id and b.id = s.bill_id
          ${material.joins}
          left join process pr on pr.tenant_id = s.tenant_id and pr.id = (s.extra ->> 'processId')::bigint
          ${previousStepSql('s', 'p')}
          where s.tenant_id = ${ctx.tenantId} and b.bill_type = ${ProductionOrder.type} and b.bill_status in ('Audit', 'Partially')
            and ${conditionSql(PRODUCTION_LINES.processes, 's', billLine)}
            ${scope ? sql`and ${scope}` : sql``}
            ${keyword ? sql`and (b.bill_code ilike ${keyword} or m.code ilike ${keyword} or m.name ilike ${keyword} or pr.name ilike ${keyword})` : sql``}
        ) o
        where not o.closed ${mine ? sql`and o.mine` : sql``}
          and (case when o.previous is null then o.base_number::numeric else o.passed::numeric end) > o.taken::numeric
        order by o.bill_date, o.order_id, o.step_no, o.id
        limit ${STEP_LIMIT}`,
  );
  return found.map((r): FloorStep => {
    const [number, base] = [toMicro(r.number!), toMicro(r.base_number!)];
    // Figures in the step's unit: the main-unit sums × its quantity ÷ its main-unit quantity.
    const inUnit = (main: Micro) => (base === 0n || number === base ? main : div(mul(main, number), base));
    // What the report's rule weighs: the previous step's audited good pieces (the first step: the order's), less the good pieces taken.
    const reportable = (r.previous === null ? base : toMicro(r.passed!)) - toMicro(r.taken!);
    return {
      sourceLineId: Number(r.id),
      orderId: Number(r.order_id),
      orderCode: r.bill_code!,
      orderDate: r.bill_date!,
      deptId: r.dept_id === null ? null : Number(r.dept_id),
      ...sourceLineMaterial(r),
      processId: Number(r.process_id),
      processName: r.process_name ?? '',
      stepNo: Number(r.step_no),
      teamId: r.team_id === null ? null : Number(r.team_id),
      pieceRate: microText(toMicro(r.piece_rate!)),
      quantity: microText(number),
      reportedGood: microText(inUnit(toMicro(r.good!))),
      reportedScrap: microText(inUnit(toMicro(r.scrap!))),
      reportedRework: microText(inUnit(toMicro(r.rework!))),
      reportable: microText(inUnit(reportable)),
      dispatchedTo: ((r.dispatched_to as unknown as string[] | null) ?? []).filter(Boolean).sort(),
      planFinish: r.plan_finish,
    };
  });
}

const URL = `${billApiPath(ProcessReport).replace(/\/report$/, '')}/quickReport`;
const tags = ['production'];

export const floorRoutes = inArea('production', [
  route({
    method: 'GET', url: `${URL}/steps`, tags, summary: "The open process steps dispatched to the caller or a team they belong to (the shop floor's quick report)",
    permission: QUICK_REPORT_SCREEN, query: floorStepsQuerySchema,
    handler: (ctx, { query }) => floorSteps(ctx, query, true),
  }),
  route({
    method: 'GET', url: `${URL}/allSteps`, tags, summary: 'Every open process step of audited production orders in the caller\'s data scope (the report screen\'s holders)',
    permission: billMenuName(ProcessReport), query: floorStepsQuerySchema,
    handler: (ctx, { query }) => floorSteps(ctx, query, false),
  }),
]);
