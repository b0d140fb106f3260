import { sql, type SQL } from 'drizzle-orm';
import { div, microNumber, mul, roundTo, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { EquipmentMaintenance, MrpPlan, PRODUCTION_LINES, ProcessAccounting, REPORT_QUANTITIES, ProcessDispatch, ProcessReport, ProductionInstock, ProductionOrder, ProductionPick, ProductionReturn } from '@p8/contract/bills/production';
import { planLines } from './mrp.ts';
import { orderLinesFromBoms } from '../../core/bom-explosion.ts';
import { maintainableMachine } from './maintenance.ts';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import type { BillPayload, BillTypeDecl } from '@p8/contract/bills/registry';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { idList, textList } from '../../core/tree.ts';
import { rows } from '../../db/connection.ts';
import { billLine } from '../../db/schema/index.ts';
import { conditionSql, loadMaterials, mainUnitQuantity } from '../../bills/bill-save.ts';
import type { BillRules } from '../../bills/rules.ts';
import { lockBills } from '../../bills/service.ts';
import type { AbandonAuditBlocker, AbandonAuditBlockers } from '../../core/abandon-audit-blockers.ts';
import type { Tx } from '../../db/connection.ts';

/*
 * The production bills' own rules (docs/production.md), beyond what the engine does with their declarations:
 * - a production order makes at least one product; saved with products only, it takes its materials from each
 *   product's BOM (the line's, else the product's default enabled BOM), as 金蝶 makes the 用料清单 from the BOM,
 *   and its process steps from the BOM's routing (with the piece rate of each step);
 * - a process report takes no more of a step than the previous step passed (rework pieces go back to the step), and keeps its audit while the
 *   next step relies on what it passed (`BillReportedProhibitAbandonAudit`);
 * - with `completionNeedAllPickOutstock`, a completion in-stock is submitted and audited only once every
 *   order it completes has picked all its materials;
 * - a pick or return whose value a later completion of its order took into stock keeps its audit
 *   (`ProductionCompletedProhibitAbandonAudit`): withdrawn, the order's work in progress would go below what
 *   its completions absorbed. Withdraw the completions first;
 * - piece-rate accounting pays a team's pieces to its members by their shares;
 * - a pick or return machines for the customer its source bills machine for (entrusted machining): the customer
 *   decides whose consignment stock it may move (bills/stock-rules.ts `assertCustomerStock`).
 */

/**
 * The process step before the step line aliased `step` (the same product's process line of its order with the
 * highest line number below it), as a lateral join whose row `as` has its `id` — null at the first step. The
 * report's rule and the shop floor's list both weigh a step against what this one passed.
 */
export function previousStepSql(step: string, as: string): SQL {
  const [s, p] = [sql.raw(step), sql.raw(as)];
  return sql`left join lateral (
          select ${p}.id from bill_line ${p}
          where ${p}.tenant_id = ${s}.tenant_id and ${p}.bill_id = ${s}.bill_id and ${p}.material_id = ${s}.material_id
            and ${conditionSql(PRODUCTION_LINES.processes, as, billLine)} and ${p}.line_no < ${s}.line_no
          order by ${p}.line_no desc limit 1
        ) ${p} on true`;
}

/**
 * A process report's lines (`REPORT_QUANTITIES`): each reports good, scrapped or rework pieces of a step (none of
 * them: `PleaseInputNumber`). A step is reported at most what the order's previous step passed (its audited good
 * quantity, and what this report reports of it) less what reports of any status took of this step already — the
 * first step up to the order's quantity of it. Good and scrapped pieces take: a piece scrapped at a step came into it
 * and leaves production there, so it can no more be reported good at that step than a good one can twice. Rework
 * goes back to the step and is reported again, so it is weighed against what is still reportable now (with this
 * report's good and scrapped pieces) and takes nothing from later reports. Nothing passed yet:
 * `PreviousProcessNotReported`; more: `NumberExceedReportable`, with the line and the figures (main unit, exact).
 * The order is locked first, as the engine locks a source, so two reports of one order are weighed one after
 * the other and audits of the previous step (which lock it too) cannot slip between.
 */
async function reportsFollowSteps(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']> {
  const units = await loadMaterials(ctx.tx, ctx.tenantId, [...new Set(payload.lines.map((l) => Number(l.materialId)))]);
  const pieces = (line: BillPayload['lines'][number], key: string) => mainUnitQuantity({ ...line, number: line[key] ?? 0 }, units);
  const nothing = payload.lines.findIndex((l) => Object.values(REPORT_QUANTITIES).every((key) => pieces(l, key) === 0n));
  if (nothing >= 0) throw refusal('PleaseInputNumber', {}, { line: nothing + 1 });
  const sourceIds = [...new Set(payload.lines.flatMap((l) => (typeof l.sourceLineId === 'number' ? [l.sourceLineId] : [])))];
  if (!sourceIds.length) return payload.lines;
  const orders = await rows<{ bill_id: string }>(ctx.tx, sql`select distinct bill_id from bill_line where tenant_id = ${ctx.tenantId} and id in (${idList(sourceIds)})`);
  await lockBills(ctx, orders.map((o) => Number(o.bill_id)));
  const own = Number((payload as { id?: unknown }).id ?? 0);
  // Good pieces (main unit), and with `scrap` the scrapped ones too, in the line's unit times its ratio.
  const reported = (line: SQL, statuses: SQL, scrap = false) =>
    sql`coalesce((select sum(d.base_number ${
      scrap
        ? sql`+ coalesce((d.extra->>${REPORT_QUANTITIES.scrap})::numeric, 0)
            * coalesce((select mu.ratio from material_unit mu where mu.tenant_id = d.tenant_id and mu.material_id = d.material_id and mu.unit_id = d.unit_id), 1)`
        : sql``
    }) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
          where d.tenant_id = ${ctx.tenantId} and d.source_line_id = ${line} and db.bill_type = ${decl.type} and db.id <> ${own} and ${statuses}), 0)::text`;
  const steps = await rows<{ id: string; previous: string | null; quantity: string; passed: string; taken: string }>(
    ctx.tx,
    sql`select s.id, p.id as previous, s.base_number::text as quantity,
               ${reported(sql`p.id`, sql`db.bill_status in (${sql.join(POSTED_STATUSES.map((st) => sql`${st}`), sql`, `)})`)} as passed,
               ${reported(sql`s.id`, sql`db.bill_status <> 'Merged'`, true)} as taken
        from bill_line s
        ${previousStepSql('s', 'p')}
        where s.tenant_id = ${ctx.tenantId} and s.id in (${idList(sourceIds)})`,
  );
  const byId = new Map(steps.map((r) => [Number(r.id), r]));
  // What this report itself passes on: a step reported in it counts for the next one reported beside it.
  const here = new Map<number, Micro>();
  for (const line of payload.lines) if (typeof line.sourceLineId === 'number') here.set(line.sourceLineId, (here.get(line.sourceLineId) ?? 0n) + pieces(line, REPORT_QUANTITIES.good));
  const asked = new Map<number, Micro>();
  const reworked = new Map<number, Micro>();
  payload.lines.forEach((line, index) => {
    const step = typeof line.sourceLineId === 'number' ? byId.get(line.sourceLineId) : undefined;
    if (!step) return;
    const id = Number(step.id);
    const taken = (asked.get(id) ?? toMicro(step.taken)) + pieces(line, REPORT_QUANTITIES.good) + pieces(line, REPORT_QUANTITIES.scrap);
    const rework = (reworked.get(id) ?? 0n) + pieces(line, REPORT_QUANTITIES.rework);
    asked.set(id, taken);
    reworked.set(id, rework);
    const passed = step.previous === null ? toMicro(step.quantity) : toMicro(step.passed) + (here.get(Number(step.previous)) ?? 0n);
    if (passed <= 0n) throw refusal('PreviousProcessNotReported', {}, { line: index + 1 });
    if (taken + rework > passed) throw refusal('NumberExceedReportable', { materialId: Number(line.materialId) }, { line: index + 1, need: taken + rework, have: passed });
  });
  return payload.lines;
}

/**
 * Piece-rate accounting's lines: a line naming its worker is the worker's; a line of a work team without a
 * worker is shared among the team's members in proportion to their shares — its pieces and hours split at the
 * tenant's quantity digits, the last member taking what rounding leaves, so the shares add up to the report line they all
 * keep as their source. A team without members is `TeamHasNoMembers`; a line with neither is submitted only once
 * it names its worker (`workersNamed`).
 */
async function workersOfLines(ctx: ServiceContext, _decl: unknown, payload: BillPayload): Promise<BillPayload['lines']> {
  const teamIds = [...new Set(payload.lines.flatMap((l) => (!l.staffId && l.teamId ? [Number(l.teamId)] : [])))];
  const members = teamIds.length
    ? await rows<{ record_id: string; staff_id: string; share: string }>(
        ctx.tx,
        sql`select record_id, staff_id, share::text from team_member where tenant_id = ${ctx.tenantId} and record_id in (${idList(teamIds)}) order by record_id, line_no`,
      )
    : [];
  const digits = members.length ? (await readTenantConfig(ctx.tx, ctx.tenantId)).numberRetainsSmallDigit : 6;
  return payload.lines.flatMap((line, index) => {
    // Neither: a pushed-down draft waits for its worker (a save by hand names one; submit asks for it).
    if (line.staffId || !line.teamId) return [line];
    const crew = members.filter((m) => Number(m.record_id) === Number(line.teamId));
    if (!crew.length) throw refusal('TeamHasNoMembers', {}, { line: index + 1 });
    const total = crew.reduce((all, m) => all + toMicro(m.share), 0n);
    const split = (value: unknown) => {
      const whole = toMicro(String(value ?? 0));
      const parts = crew.map((m) => roundTo(div(mul(whole, toMicro(m.share)), total), digits));
      parts[parts.length - 1] = whole - parts.slice(0, -1).reduce((all, p) => all + p, 0n);
      return parts.map(microNumber);
    };
    const numbers = split(line.number);
    const hours = line.hours == null ? undefined : split(line.hours);
    // A share too small to get a piece of the line gets no line.
    return crew.map((m, i) => ({ ...line, staffId: Number(m.staff_id), number: numbers[i], hours: hours?.[i] ?? line.hours })).filter((l) => l.number !== 0);
  });
}

/** A dispatch or a report gives no work to a scrapped machine (`EquipmentScrapped`, with its line). */
async function machinesInService(ctx: ServiceContext, _decl: unknown, payload: BillPayload): Promise<BillPayload['lines']> {
  const machineIds = [...new Set(payload.lines.flatMap((l) => (l.equipmentId ? [Number(l.equipmentId)] : [])))];
  if (!machineIds.length) return payload.lines;
  const scrapped = new Set(
    (await rows<{ id: string }>(ctx.tx, sql`select id from equipment where tenant_id = ${ctx.tenantId} and id in (${idList(machineIds)}) and status = 'scrapped'`)).map((r) => Number(r.id)),
  );
  const at = payload.lines.findIndex((l) => scrapped.has(Number(l.equipmentId)));
  if (at >= 0) throw refusal('EquipmentScrapped', {}, { line: at + 1 });
  return payload.lines;
}

/** Piece-rate accounting is submitted and audited only with a worker on every line. */
async function workersNamed(ctx: ServiceContext, _decl: unknown, header: Record<string, unknown>): Promise<void> {
  const [unnamed] = await rows<{ line_no: number }>(
    ctx.tx,
    sql`select line_no from bill_line where tenant_id = ${ctx.tenantId} and bill_id = ${Number(header.id)} and not (extra ? 'staffId') order by line_no limit 1`,
  );
  if (unnamed) throw refusal('PleaseSelectWorker', {}, { line: Number(unnamed.line_no) });
}

async function picksComplete(ctx: ServiceContext, _decl: unknown, header: Record<string, unknown>): Promise<void> {
  if (!(await readTenantConfig(ctx.tx, ctx.tenantId)).completionNeedAllPickOutstock) return;
  const [open] = await rows<{ bill_code: string }>(
    ctx.tx,
    sql`select o.bill_code from bill o
        where o.tenant_id = ${ctx.tenantId}
          and o.id in (select l.source_bill_id from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${Number(header.id)})
          and coalesce(o.progress ->> 'pick', '') <> 'AllPick'
          and exists (select 1 from bill_line m where m.tenant_id = o.tenant_id and m.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.materials, 'm', billLine)})
        limit 1`,
  );
  if (open) throw new BizError('NotAllPickOutstockProhibitCompletion', { additional: open.bill_code });
}

/**
 * Submit and audit of a pick or a return: its customer (entrusted machining) is the one of every bill it comes
 * from — an order for a customer picks that customer's materials, an order of the company's own picks none.
 */
async function customerOfSources(ctx: ServiceContext, _decl: unknown, header: Record<string, unknown>): Promise<void> {
  const [other] = await rows<{ bill_code: string }>(
    ctx.tx,
    sql`select s.bill_code from bill s
        where s.tenant_id = ${ctx.tenantId}
          and s.id in (select l.source_bill_id from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${Number(header.id)})
          and s.customer_id is distinct from ${(header.customerId as number | null | undefined) ?? null}::bigint
        limit 1`,
  );
  if (other) throw new BizError('EntrustCustomerNotSources', { additional: other.bill_code });
}

/** Types whose value stays in an order's work in progress (picks, returns) and those that take it into stock (completions). */
const FEEDING = BILL_TYPES.filter((d) => d.postings.stock?.counter === 'workInProgress' && d.valuation?.in !== 'workInProgress').map((d) => d.type);
const ABSORBING = BILL_TYPES.filter((d) => d.valuation?.in === 'workInProgress').map((d) => d.type);

const absorbedBlocker: AbandonAuditBlocker = async (tx: Tx, tenantId: number, billId: number) => {
  const [absorbed] = await rows<{ id: string }>(
    tx,
    sql`with recursive mine as (
          select id, audit_time from bill where tenant_id = ${tenantId} and id = ${billId} and bill_type in (${textList(FEEDING)})
        ), up(id, depth) as (
          select l.source_bill_id, 1 from bill_line l where l.tenant_id = ${tenantId} and l.bill_id in (select id from mine) and l.source_bill_id is not null
          union
          select l.source_bill_id, u.depth + 1 from bill_line l join up u on l.bill_id = u.id where l.tenant_id = ${tenantId} and l.source_bill_id is not null and u.depth < 2
        )
        select c.id from bill c
        where c.tenant_id = ${tenantId} and c.bill_type in (${textList(ABSORBING)}) and c.bill_status in (${textList(POSTED_STATUSES)})
          and c.audit_time >= (select audit_time from mine)
          and exists (select 1 from bill_line cl where cl.tenant_id = c.tenant_id and cl.bill_id = c.id and cl.source_bill_id in (select id from up))
        limit 1`,
  );
  return absorbed ? 'ProductionCompletedProhibitAbandonAudit' : undefined;
};

/**
 * A process report keeps its audit while the next step took more than the steps would pass without it: the
 * next step's other reports (any status but merged) beyond what this step's other audited reports passed. What
 * the report itself reports of the next step goes with it.
 */
const passedOnBlocker: AbandonAuditBlocker = async (tx: Tx, tenantId: number, billId: number) => {
  const steps = PRODUCTION_LINES.processes;
  const [held] = await rows<{ id: string }>(
    tx,
    sql`with mine as (
          select l.source_line_id as step, sum(l.base_number) as quantity from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          where l.tenant_id = ${tenantId} and l.bill_id = ${billId} and b.bill_type = ${ProcessReport.type} and l.source_line_id is not null
          group by l.source_line_id
        )
        select s.id from mine m
        join bill_line s on s.tenant_id = ${tenantId} and s.id = m.step
        join lateral (
          select n.id from bill_line n
          where n.tenant_id = s.tenant_id and n.bill_id = s.bill_id and n.material_id = s.material_id and n.line_no > s.line_no
            and ${conditionSql(steps, 'n', billLine)}
          order by n.line_no limit 1
        ) n on true
        where coalesce((select sum(d.base_number) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
                        where d.tenant_id = ${tenantId} and d.source_line_id = n.id and db.bill_type = ${ProcessReport.type} and db.bill_status <> 'Merged'
                          and db.id <> ${billId}), 0)
            > coalesce((select sum(d.base_number) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
                        where d.tenant_id = ${tenantId} and d.source_line_id = s.id and db.bill_type = ${ProcessReport.type} and db.id <> ${billId}
                          and db.bill_status in (${textList(POSTED_STATUSES)})), 0)
        limit 1`,
  );
  return held ? 'BillReportedProhibitAbandonAudit' : undefined;
};

export function registerProductionBlockers(blockers: AbandonAuditBlockers): void {
  blockers.register('production: work in progress absorbed', absorbedBlocker);
  blockers.register('production: passed on to the next step', passedOnBlocker);
}

export function registerProductionRules(rules: BillRules): void {
  rules.register(ProductionOrder.type, { completeLines: orderLinesFromBoms });
  rules.register(ProductionInstock.type, { completing: picksComplete });
  rules.register(ProductionPick.type, { completing: customerOfSources });
  rules.register(ProductionReturn.type, { completing: customerOfSources });
  // A report names the machine a step ran on (its hours of use): not a scrapped one.
  rules.register(ProcessReport.type, { completeLines: async (ctx, decl, payload) => reportsFollowSteps(ctx, decl, { ...payload, lines: await machinesInService(ctx, decl, payload) }) });
  rules.register(MrpPlan.type, { completeLines: planLines });
  rules.register(ProcessAccounting.type, { completeLines: workersOfLines, completing: workersNamed });
  rules.register(ProcessDispatch.type, { completeLines: machinesInService });
  rules.register(EquipmentMaintenance.type, { completeLines: maintainableMachine });
}
