import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { max, microText, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { PRODUCTION_LINES, ProcessAccounting, ProcessReport, ProductionInstock, ProductionOrder, ProductionPick, ProductionReturn, ProductionWaste } from '@p8/contract/bills/production';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { ACCOUNT_ROLES } from '@p8/contract/finance';
import type { CostOrderRow, CostPeriodDetail, CostPeriodRow, CostRunResult } from '@p8/contract/production-cost';
import type { ServiceContext } from '../../core/service-context.ts';
import { BizError } from '../../core/errors.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { costLine, costOrder, costPeriod } from '../../db/schema/index.ts';
import { conditionSql } from '../../bills/bill-save.ts';
import { postValueAdjustments, COST_ADJUSTMENT } from '../../bills/stock.ts';
import type { BillPostingHook } from '../../bills/posting-hooks.ts';
import { billLine } from '../../db/schema/index.ts';
import { localDay } from '../../bills/stock-rules.ts';
import { post, reverseSource, type PostingLineInput } from './ledger.ts';
import { sides } from './postings.ts';
import { allocate, allocateOverhead, costingSequence, costOrder as costOfOrder, COST_ELEMENTS, totalOf, type ByElement, type OrderCost, type OrderCostInput, type OverheadBasis } from './cost-math.ts';
import { overheadFeeTypes } from './money-bills.ts';
import { lockKey } from '../../core/advisory-lock.ts';

/*
 * The month-end cost run of production (成本核算, 月末一次加权平均; docs/production.md "Cost accounting"). Between
 * runs production is valued perpetually: picks take materials into work in progress (5001) at the moving
 * average, completions take products in at the order's material work in progress. The run of a month gathers
 * each order's costs of the month — materials picked less returned, piece wages of the month's accounting,
 * the month's overhead (5101, fee bills of overhead fee types) allocated by hours or equivalent output — adds
 * the work in progress the order brought in, splits each element between what the month finished and what is
 * still unfinished by equivalent units (cost-math.ts), and writes the difference between the finished cost and
 * what the completions took in onto each completion line: into stock (value-only stock ledger entries, 1405)
 * for the goods still on hand, into the material of the orders that picked them this month (costed after, level by
 * level: 逐步结转), into cost of sales (6401) for those sold or issued, against 5001; the overhead
 * allocated moves 5101 → 5001. The period becomes Calculated. A second run posts only what changed (nothing,
 * when nothing did); cancelling takes back exactly what the runs posted. While a period is calculated the bills
 * it read keep their audit and none is audited into it (`costRunHook`). All under the period's lock.
 */

/** The cost run's kind of background job (payload `{ period, basis }`). */
export const COST_RUN_JOB = 'productionCostRun';

const CALCULATED = 'Calculated';
const NOT_ACCOUNTED = 'NotAccounted';

const inPosted = sql.join(POSTED_STATUSES.map((s) => sql`${s}`), sql`, `);

/** `YYYY-MM` → its first and last day. */
export function periodRange(period: string): { start: string; end: string } {
  const [y, m] = period.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${period}-01`, end: `${period}-${String(last).padStart(2, '0')}` };
}

/** The month before `period`. */
export function previousPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** A period not begun yet has nothing to cost (`CostPeriodInFuture`); the current month may be run and run again. */
function assertBegun(period: string) {
  if (period > localDay().slice(0, 7)) throw new BizError('CostPeriodInFuture', { additional: period });
}

/** The ledger's source id of a period's cost run postings (202611 for 2026-11). */
const sourceIdOf = (period: string) => Number(period.replace('-', ''));

/** The period's lock: a run or a cancel takes it alone; a bill audited or withdrawn into the period shares it. */
async function lockCostPeriod(tx: Tx, tenantId: number, period: string, shared = false) {
  await lockKey(tx, `cost:${tenantId}:${period}`, { shared });
}

async function periodRow(tx: Tx, tenantId: number, period: string) {
  const [row] = await tx.select().from(costPeriod).where(and(eq(costPeriod.tenantId, tenantId), eq(costPeriod.period, period)));
  return row;
}

/** Refuses a run or a cancel of `period` while a later period is calculated (they build on it). */
async function assertLatest(tx: Tx, tenantId: number, period: string) {
  const [later] = await rows<{ period: string }>(tx, sql`select period from cost_period where tenant_id = ${tenantId} and status = ${CALCULATED} and period > ${period} order by period limit 1`);
  if (later) throw new BizError('CostPeriodLaterCalculated', { additional: later.period });
}

const zero = (): ByElement => ({ material: 0n, labour: 0n, overhead: 0n });
const m = (text: string | null | undefined) => toMicro(text ?? '0');

/**
 * The run's input statements (exported for bench/cost-run.ts, which times them over a bare pool): per order, what
 * the stock ledger moved for its picks, returns and scrap stocked (material) and completions (what they took in, and
 * how many), before and in the period — a return reaches its order through its pick's line, scrap through its report's.
 */
export function ledgerByOrderSql(tenantId: number, period: string): SQL {
  const { start, end } = periodRange(period);
  const stockTypes = [ProductionPick.type, ProductionReturn.type, ProductionInstock.type, ProductionWaste.type];
  // A return reaches its order through its pick's line, a waste in-stock through its report's.
  const throughSource = [ProductionReturn.type, ProductionWaste.type];
  return sql`select case when e.bill_type in (${sql.join(throughSource.map((t) => sql`${t}`), sql`, `)}) then s.source_bill_id else d.source_bill_id end as order_id,
               coalesce(-sum(e.amount) filter (where e.bill_type <> ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as material_before,
               coalesce(-sum(e.amount) filter (where e.bill_type <> ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as material,
               coalesce(sum(e.amount) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as perpetual_before,
               coalesce(sum(e.amount) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as perpetual,
               coalesce(sum(e.quantity) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as completed_before,
               coalesce(sum(e.quantity) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as completed
        from stock_ledger e
        join bill_line d on d.tenant_id = e.tenant_id and d.id = e.bill_line_id
        left join bill_line s on s.tenant_id = d.tenant_id and s.id = d.source_line_id
        where e.tenant_id = ${tenantId} and e.bill_type in (${sql.join(stockTypes.map((t) => sql`${t}`), sql`, `)}) and e.bill_date <= ${end}
        group by 1`;
}

/** Per order, the piece wages of the period's audited accounting (accounting line → report line → order). */
export function labourByOrderSql(tenantId: number, period: string): SQL {
  return sql`select r.source_bill_id as order_id, sum(a.price_total)::text as wage
        from bill_line a join bill ab on ab.tenant_id = a.tenant_id and ab.id = a.bill_id
        join bill_line r on r.tenant_id = a.tenant_id and r.id = a.source_line_id
        where a.tenant_id = ${tenantId} and ab.bill_type = ${ProcessAccounting.type} and ab.bill_status in (${inPosted}) and ab.extra->>'salaryPeriod' = ${period}
        group by 1`;
}

/** Per order and step, the good quantity reported up to the period's end and the hours reported in it. */
export function reportsByStepSql(tenantId: number, period: string): SQL {
  const { start, end } = periodRange(period);
  return sql`select r.source_bill_id as order_id, r.source_line_id as step_id, sum(r.base_number)::text as good,
               coalesce(sum(coalesce(nullif(r.extra->>'hours', '')::numeric, 0)) filter (where rb.bill_date >= ${start}), 0)::text as hours
        from bill_line r join bill rb on rb.tenant_id = r.tenant_id and rb.id = r.bill_id
        where r.tenant_id = ${tenantId} and rb.bill_type = ${ProcessReport.type} and rb.bill_status in (${inPosted}) and rb.bill_date <= ${end}
        group by 1, 2`;
}

/** The period's completion lines: what each took in and how many (net of withdrawals). */
export function completionLinesSql(tenantId: number, period: string): SQL {
  const { start, end } = periodRange(period);
  return sql`select e.bill_id, e.bill_line_id, min(e.bill_code) as bill_code, d.source_bill_id as order_id, min(e.material_id) as material_id, min(e.warehouse_id) as warehouse_id,
                 sum(e.quantity)::text as quantity, sum(e.amount)::text as amount
          from stock_ledger e join bill_line d on d.tenant_id = e.tenant_id and d.id = e.bill_line_id
          where e.tenant_id = ${tenantId} and e.bill_type = ${ProductionInstock.type} and e.bill_date between ${start} and ${end}
          group by e.bill_id, e.bill_line_id, d.source_bill_id
          having sum(e.quantity) <> 0
          order by e.bill_id, e.bill_line_id`;
}

/**
 * Where the products the period completed went in the period: per material, what each production order picked of
 * it less what it returned (`order_id`), and all else that took it out of stock (`order_id` null: sales, other
 * issues, a stock count's loss). Netted per bill line first, so a withdrawn bill counts nothing and a transfer
 * between warehouses (its line out of one and into the other) neither.
 */
export function consumptionSql(tenantId: number, period: string, materialIds: readonly number[]): SQL {
  const { start, end } = periodRange(period);
  const idArray = sql`array[${sql.join(materialIds.map((id) => sql`${id}::bigint`), sql`, `)}]`;
  return sql`with moved as (
          select e.material_id, e.bill_type, e.bill_line_id, sum(e.quantity) as quantity
          from stock_ledger e
          where e.tenant_id = ${tenantId} and e.material_id = any(${idArray}) and e.bill_date between ${start} and ${end}
          group by 1, 2, 3)
        select mv.material_id,
               case mv.bill_type when ${ProductionPick.type} then d.source_bill_id when ${ProductionReturn.type} then s.source_bill_id end as order_id,
               (-sum(mv.quantity))::text as quantity
        from moved mv
        join bill_line d on d.tenant_id = ${tenantId} and d.id = mv.bill_line_id
        left join bill_line s on s.tenant_id = d.tenant_id and s.id = d.source_line_id
        where mv.quantity < 0 or mv.bill_type = ${ProductionReturn.type}
        group by 1, 2`;
}

/** Per completed material, what each order consumed of it in the period and what went elsewhere (`consumptionSql`). */
async function consumption(tx: Tx, tenantId: number, period: string, completions: readonly CompletionLine[]) {
  const consumed = new Map<number, { byOrder: Map<number, Micro>; elsewhere: Micro }>();
  const materialIds = [...new Set(completions.map((c) => c.materialId))];
  if (!materialIds.length) return consumed;
  for (const r of await rows<{ material_id: string; order_id: string | null; quantity: string }>(tx, consumptionSql(tenantId, period, materialIds))) {
    const entry = consumed.get(Number(r.material_id)) ?? { byOrder: new Map<number, Micro>(), elsewhere: 0n };
    if (r.order_id === null) entry.elsewhere += m(r.quantity);
    else entry.byOrder.set(Number(r.order_id), m(r.quantity));
    consumed.set(Number(r.material_id), entry);
  }
  return consumed;
}

/** What the period's bills say of each order (the run's inputs), and the completion lines it values. */
async function gather(tx: Tx, tenantId: number, period: string, openingFromRun: boolean) {
  const { end } = periodRange(period);
  const ledger = await rows<{ order_id: string; material_before: string; material: string; perpetual_before: string; perpetual: string; completed_before: string; completed: string }>(tx, ledgerByOrderSql(tenantId, period));
  const labour = await rows<{ order_id: string; wage: string }>(tx, labourByOrderSql(tenantId, period));
  const reports = await rows<{ order_id: string; step_id: string; good: string; hours: string }>(tx, reportsByStepSql(tenantId, period));
  const previous = openingFromRun ? await tx.select().from(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, previousPeriod(period)))) : [];
  const closingBefore = new Map(
    previous.map((p) => [
      p.orderId,
      {
        material: m(p.openingMaterial) + m(p.material) - m(p.finishedMaterial),
        labour: m(p.openingLabour) + m(p.labour) - m(p.finishedLabour),
        overhead: m(p.openingOverhead) + m(p.overhead) - m(p.finishedOverhead),
      } satisfies ByElement,
    ]),
  );
  const ids = new Set<number>();
  for (const r of ledger) if (r.order_id !== null) ids.add(Number(r.order_id));
  for (const r of labour) if (r.order_id !== null) ids.add(Number(r.order_id));
  for (const r of reports) if (toMicro(r.hours) !== 0n) ids.add(Number(r.order_id));
  for (const [id, closing] of closingBefore) if (totalOf(closing) !== 0n || closing.material !== 0n) ids.add(id);
  if (!ids.size) return { inputs: [] as OrderCostInput[], orders: new Map<number, CostedOrder>(), completions: [] as CompletionLine[] };

  const idArray = sql`array[${sql.join([...ids].map((id) => sql`${id}::bigint`), sql`, `)}]`;
  const orderRows = await rows<{ id: string; bill_code: string; planned: string; steps: string; material_id: string | null; level: number | null; closed: boolean }>(
    tx,
    sql`select o.id, o.bill_code,
               -- the deepest of its products in the BOMs (the costing sequence's order among orders ready together)
               (select max(pm.low_level_code) from bill_line l join material pm on pm.tenant_id = l.tenant_id and pm.id = l.material_id
                 where l.tenant_id = o.tenant_id and l.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.products, 'l', billLine)}) as level,
               coalesce((select sum(l.base_number) from bill_line l where l.tenant_id = o.tenant_id and l.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.products, 'l', billLine)}), 0)::text as planned,
               (select count(*) from bill_line l where l.tenant_id = o.tenant_id and l.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.processes, 'l', billLine)})::text as steps,
               (select l.material_id from bill_line l where l.tenant_id = o.tenant_id and l.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.products, 'l', billLine)} order by l.line_no limit 1) as material_id,
               -- closed by hand by the period's end (a later closing does not change a past period)
               (o.bill_status = 'ManualCompletion' and exists (select 1 from bill_transition t where t.tenant_id = o.tenant_id and t.bill_id = o.id
                  and t.operation = 'manualCompletion' and t.created_at < ${end}::date + 1)) as closed
        from bill o where o.tenant_id = ${tenantId} and o.id = any(${idArray}) and o.bill_type = ${ProductionOrder.type}
        order by o.id`,
  );
  const ledgerOf = new Map(ledger.filter((r) => r.order_id !== null).map((r) => [Number(r.order_id), r]));
  const labourOf = new Map(labour.map((r) => [Number(r.order_id), m(r.wage)]));
  const stepsOf = new Map<number, { good: Micro[]; hours: Micro }>();
  for (const r of reports) {
    const entry = stepsOf.get(Number(r.order_id)) ?? { good: [], hours: 0n };
    entry.good.push(m(r.good));
    entry.hours += m(r.hours);
    stepsOf.set(Number(r.order_id), entry);
  }
  const inputs: OrderCostInput[] = [];
  const orders = new Map<number, CostedOrder>();
  for (const o of orderRows) {
    const id = Number(o.id);
    const l = ledgerOf.get(id);
    const steps = stepsOf.get(id);
    const stepCount = Number(o.steps);
    // Steps never reported count as nothing passed.
    const stepsReported = stepCount ? [...(steps?.good ?? []), ...Array<Micro>(Math.max(0, stepCount - (steps?.good.length ?? 0))).fill(0n)] : [];
    const opening = openingFromRun ? (closingBefore.get(id) ?? zero()) : { ...zero(), material: m(l?.material_before) - m(l?.perpetual_before) };
    const input: OrderCostInput = {
      orderId: id,
      opening,
      material: m(l?.material),
      labour: labourOf.get(id) ?? 0n,
      hours: steps?.hours ?? 0n,
      planned: m(o.planned),
      completedBefore: m(l?.completed_before),
      completed: m(l?.completed),
      closed: o.closed,
      stepsReported,
    };
    const idle = totalOf(opening) === 0n && input.material === 0n && input.labour === 0n && input.hours === 0n && input.completed === 0n && m(l?.perpetual) === 0n;
    if (idle) continue;
    inputs.push(input);
    orders.set(id, { code: o.bill_code, materialId: o.material_id === null ? null : Number(o.material_id), level: o.level ?? 0 });
  }
  const completions = (
    await rows<{ bill_id: string; bill_line_id: string; bill_code: string; order_id: string; material_id: string; warehouse_id: string; quantity: string; amount: string }>(tx, completionLinesSql(tenantId, period))
  ).map(
    (r): CompletionLine => ({
      billId: Number(r.bill_id),
      billLineId: Number(r.bill_line_id),
      billCode: r.bill_code,
      orderId: Number(r.order_id),
      materialId: Number(r.material_id),
      warehouseId: Number(r.warehouse_id),
      quantity: m(r.quantity),
      perpetual: m(r.amount),
    }),
  );
  return { inputs, orders, completions };
}

interface CostedOrder {
  code: string;
  /** Its first product (the figures' product column). */
  materialId: number | null;
  /** The largest low-level code of its products. */
  level: number;
}

interface CompletionLine {
  billId: number;
  billLineId: number;
  billCode: string;
  orderId: number;
  materialId: number;
  warehouseId: number;
  quantity: Micro;
  perpetual: Micro;
}

/** The overhead waiting in 5101 at the period's end: fee bills of overhead types, less what earlier runs allocated. */
async function overheadPool(tx: Tx, tenantId: number, period: string): Promise<Micro> {
  const { end } = periodRange(period);
  const [found] = await rows<{ pool: string }>(
    tx,
    sql`select coalesce(sum(l.debit - l.credit), 0)::text as pool
        from fin_posting_line l join fin_posting p on p.tenant_id = l.tenant_id and p.id = l.posting_id
        where l.tenant_id = ${tenantId} and l.account_code = ${ACCOUNT_ROLES.manufacturingOverhead} and p.posting_date <= ${end}
          and not (p.source_kind = 'costRun' and p.source_id >= ${sourceIdOf(period)})`,
  );
  return m(found?.pool);
}

/**
 * Runs the cost of `period` in the caller's transaction (a background job's): the period's lock, the checks, the
 * figures, the postings of what changed since the last run. `progress` hears orders done of all.
 */
export async function runCost(ctx: ServiceContext, period: string, basis: OverheadBasis, progress?: (done: number, total: number) => Promise<void>): Promise<CostRunResult> {
  const { tx, tenantId } = ctx;
  const { end } = periodRange(period);
  assertBegun(period);
  await lockCostPeriod(tx, tenantId, period);
  await assertLatest(tx, tenantId, period);
  const before = previousPeriod(period);
  const previousCalculated = (await periodRow(tx, tenantId, before))?.status === CALCULATED;
  if (!previousCalculated) {
    const [earlier] = await rows<{ period: string }>(tx, sql`select period from cost_period where tenant_id = ${tenantId} and status = ${CALCULATED} and period < ${period} limit 1`);
    if (earlier) throw new BizError('CostPeriodPreviousNotCalculated', { additional: before });
  }
  const current = await periodRow(tx, tenantId, period);
  const { inputs, orders, completions } = await gather(tx, tenantId, period, previousCalculated);
  const pool = await overheadPool(tx, tenantId, period);
  const { overhead, unallocated } = allocateOverhead(pool, inputs, basis);
  const overheadOf = new Map(inputs.map((input, i) => [input.orderId, overhead[i]]));
  const inputOf = new Map(inputs.map((input) => [input.orderId, input]));

  // What the period's runs already put onto each completion line, and rolled into each order from its sub-assemblies.
  const calculated = current?.status === CALCULATED;
  const applied = new Map(
    (await tx.select().from(costLine).where(and(eq(costLine.tenantId, tenantId), eq(costLine.period, period)))).map((l) => [l.billLineId, { toStock: m(l.toStock), toSales: m(l.toSales), toProduction: m(l.toProduction) }]),
  );
  const rolledIn = new Map<number, Micro>(
    calculated ? (await tx.select({ orderId: costOrder.orderId, rolledIn: costOrder.rolledIn }).from(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, period)))).map((r) => [r.orderId, m(r.rolledIn)]) : [],
  );
  const onHand = await stockOnHand(tx, tenantId, completions);
  const linesOf = new Map<number, CompletionLine[]>();
  for (const c of completions) linesOf.set(c.orderId, [...(linesOf.get(c.orderId) ?? []), c]);

  // Step by step (逐步结转): an order is costed after the orders whose products it picked this month, and what the
  // run adds to those products' cost follows them into the orders that consumed them.
  const consumed = await consumption(tx, tenantId, period, completions);
  const makersOf = new Map<number, Set<number>>();
  for (const c of completions) makersOf.set(c.materialId, (makersOf.get(c.materialId) ?? new Set()).add(c.orderId));
  const after = new Map<number, Set<number>>();
  for (const [materialId, use] of consumed) {
    for (const [orderId, picked] of use.byOrder) if (picked > 0n) for (const maker of makersOf.get(materialId) ?? []) after.set(orderId, (after.get(orderId) ?? new Set()).add(maker));
  }
  const sequence = costingSequence(
    inputs.map((input) => ({ orderId: input.orderId, level: orders.get(input.orderId)?.level ?? 0 })),
    after,
  );
  const position = new Map(sequence.map((id, at) => [id, at]));

  const costs: Array<OrderCost & { rolledIn: Micro }> = [];
  const lineCosts: Array<CompletionLine & { cost: Micro; toStock: Micro; toSales: Micro; toProduction: Micro; stockPart: Micro; salesPart: Micro }> = [];
  for (const [at, orderId] of sequence.entries()) {
    const input = inputOf.get(orderId)!;
    const received = rolledIn.get(orderId) ?? 0n;
    const cost = { ...costOfOrder({ ...input, material: input.material + received }, overheadOf.get(orderId) ?? 0n), rolledIn: received };
    costs.push(cost);
    // Each completion line's cost: its order's finished cost by quantity; what it takes beyond what is on it.
    const lines = linesOf.get(orderId) ?? [];
    const parts = allocate(totalOf(cost.finished), lines.map((l) => l.quantity));
    lines.forEach((line, i) => {
      const was = applied.get(line.billLineId) ?? { toStock: 0n, toSales: 0n, toProduction: 0n };
      const diff = parts[i] - line.perpetual - was.toStock - was.toSales - was.toProduction;
      // What the line brought in that is still on the shelf takes its share into stock.
      const key = `${line.materialId}|${line.warehouseId}`;
      const covered = onHand.get(key) ?? 0n;
      const held = covered <= 0n ? 0n : covered >= line.quantity ? line.quantity : covered;
      onHand.set(key, covered - held);
      const stockPart = line.quantity === 0n ? 0n : (diff * held) / line.quantity;
      // What is gone is shared by where the month's issues of the product went: the orders that picked it and are
      // costed after this one take theirs into their material; sales and every other issue, cost of sales.
      const gone = diff - stockPart;
      const use = consumed.get(line.materialId);
      const takers = [...(use?.byOrder ?? [])].filter(([id, picked]) => picked > 0n && (position.get(id) ?? -1) > at);
      const elsewhere = max(0n, use?.elsewhere ?? 0n) + sum([...(use?.byOrder ?? [])].filter(([id, picked]) => picked > 0n && !((position.get(id) ?? -1) > at)).map(([, picked]) => picked));
      const shares = allocate(gone, [...takers.map(([, picked]) => picked), elsewhere]);
      const productionPart = sum(shares.slice(0, takers.length));
      takers.forEach(([id], k) => rolledIn.set(id, (rolledIn.get(id) ?? 0n) + shares[k]));
      const salesPart = gone - productionPart;
      lineCosts.push({ ...line, cost: parts[i], toStock: was.toStock + stockPart, toSales: was.toSales + salesPart, toProduction: was.toProduction + productionPart, stockPart, salesPart });
    });
  }
  await progress?.(Math.floor(costs.length / 2), costs.length);

  const allocatedBefore = current?.status === CALCULATED ? m(current.overhead) - m(current.unallocated) : 0n;
  const allocatedNow = pool - unallocated;
  const toStock = sum(lineCosts.map((l) => l.stockPart));
  const toSales = sum(lineCosts.map((l) => l.salesPart));
  const finishedDelta = toStock + toSales;
  const overheadDelta = allocatedNow - allocatedBefore;
  const lines: PostingLineInput[] = [
    { account: ACCOUNT_ROLES.inventory, ...sides(toStock) },
    { account: ACCOUNT_ROLES.costOfGoodsSold, ...sides(toSales) },
    { account: ACCOUNT_ROLES.workInProgress, ...sides(overheadDelta - finishedDelta) },
    { account: ACCOUNT_ROLES.manufacturingOverhead, ...sides(-overheadDelta) },
  ].filter((l) => ('debit' in l ? l.debit : l.credit) !== 0n);
  if (lines.length) await post(ctx, { date: end, sourceKind: 'costRun', sourceId: sourceIdOf(period), sourceCode: period, memo: 'CostRun', lines });
  await postValueAdjustments(
    tx,
    tenantId,
    lineCosts.filter((l) => l.stockPart !== 0n).map((l) => ({ billId: l.billId, billLineId: l.billLineId, billCode: l.billCode, billDate: end, materialId: l.materialId, warehouseId: l.warehouseId, amount: l.stockPart })),
  );

  await tx.delete(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, period)));
  for (let i = 0; i < costs.length; i += 500) {
    await tx.insert(costOrder).values(
      costs.slice(i, i + 500).map((c) => {
        const input = inputOf.get(c.orderId)!;
        return {
          tenantId,
          period,
          orderId: c.orderId,
          orderCode: orders.get(c.orderId)?.code ?? '',
          rolledIn: microText(c.rolledIn),
          materialId: orders.get(c.orderId)?.materialId ?? null,
          planned: microText(input.planned),
          completed: microText(input.completed),
          unfinished: microText(c.unfinished),
          degree: microText(c.degree),
          hours: microText(input.hours),
          openingMaterial: microText(c.opening.material),
          openingLabour: microText(c.opening.labour),
          openingOverhead: microText(c.opening.overhead),
          material: microText(c.period.material),
          labour: microText(c.period.labour),
          overhead: microText(c.period.overhead),
          finishedMaterial: microText(c.finished.material),
          finishedLabour: microText(c.finished.labour),
          finishedOverhead: microText(c.finished.overhead),
          perpetual: microText(sum((linesOf.get(c.orderId) ?? []).map((l) => l.perpetual))),
        };
      }),
    );
  }
  await tx.delete(costLine).where(and(eq(costLine.tenantId, tenantId), eq(costLine.period, period)));
  for (let i = 0; i < lineCosts.length; i += 500) {
    await tx.insert(costLine).values(
      lineCosts.slice(i, i + 500).map((l) => ({
        tenantId,
        period,
        billLineId: l.billLineId,
        billId: l.billId,
        orderId: l.orderId,
        quantity: microText(l.quantity),
        perpetual: microText(l.perpetual),
        cost: microText(l.cost),
        toStock: microText(l.toStock),
        toSales: microText(l.toSales),
        toProduction: microText(l.toProduction),
      })),
    );
  }
  const values = {
    status: CALCULATED,
    basis,
    overhead: microText(pool),
    unallocated: microText(unallocated),
    orders: costs.length,
    calculatedAt: new Date(),
    calculatedBy: ctx.account.adminId,
    updatedAt: new Date(),
  };
  await tx
    .insert(costPeriod)
    .values({ tenantId, period, ...values })
    .onConflictDoUpdate({ target: [costPeriod.tenantId, costPeriod.period], set: values });
  await progress?.(costs.length, costs.length);
  ctx.audit({ action: 'costRun', entity: 'costPeriod', entityId: period, detail: { basis, orders: costs.length } });
  return {
    period,
    orders: costs.length,
    overhead: microText(pool),
    unallocated: microText(unallocated),
    finished: microText(sum(costs.map((c) => totalOf(c.finished)))),
    adjusted: microText(finishedDelta),
  };
}

/** On-hand quantity of each completed product where it came in (`material|warehouse`). */
async function stockOnHand(tx: Tx, tenantId: number, lines: readonly CompletionLine[]): Promise<Map<string, Micro>> {
  const keys = [...new Set(lines.map((l) => `${l.materialId}|${l.warehouseId}`))];
  if (!keys.length) return new Map();
  const set = sql`jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ m: Number(k.split('|')[0]), w: Number(k.split('|')[1]) })))}::jsonb) as k(m bigint, w bigint)`;
  const found = await rows<{ material_id: string; warehouse_id: string; quantity: string }>(
    tx,
    sql`select v.material_id, v.warehouse_id, v.quantity::text from stock_valuation v join ${set} on v.material_id = k.m and v.warehouse_id = k.w where v.tenant_id = ${tenantId}`,
  );
  return new Map(found.map((f) => [`${f.material_id}|${f.warehouse_id}`, m(f.quantity)]));
}

/** Cancels the period's cost run (反核算): its postings reversed, its stock adjustments taken back, NotAccounted. */
export async function cancelCost(ctx: ServiceContext, period: string): Promise<void> {
  const { tx, tenantId } = ctx;
  await lockCostPeriod(tx, tenantId, period);
  const current = await periodRow(tx, tenantId, period);
  if (current?.status !== CALCULATED) throw new BizError('ProductionCostNotAccounted', { additional: period });
  await assertLatest(tx, tenantId, period);
  const { end } = periodRange(period);
  await reverseSource(ctx, 'costRun', sourceIdOf(period), end);
  const applied = await rows<{ bill_id: string; bill_line_id: string; bill_code: string; material_id: string; warehouse_id: string; to_stock: string }>(
    tx,
    sql`select c.bill_id, c.bill_line_id, b.bill_code, l.material_id, e.warehouse_id, c.to_stock::text
        from cost_line c join bill b on b.tenant_id = c.tenant_id and b.id = c.bill_id
        join bill_line l on l.tenant_id = c.tenant_id and l.id = c.bill_line_id
        join lateral (select warehouse_id from stock_ledger s where s.tenant_id = c.tenant_id and s.bill_id = c.bill_id and s.bill_line_id = c.bill_line_id and s.bill_type = ${COST_ADJUSTMENT} limit 1) e on true
        where c.tenant_id = ${tenantId} and c.period = ${period} and c.to_stock <> 0
        order by c.bill_line_id`,
  );
  await postValueAdjustments(
    tx,
    tenantId,
    applied.map((a) => ({ billId: Number(a.bill_id), billLineId: Number(a.bill_line_id), billCode: a.bill_code, billDate: end, materialId: Number(a.material_id), warehouseId: Number(a.warehouse_id), amount: -m(a.to_stock) })),
  );
  await tx.delete(costLine).where(and(eq(costLine.tenantId, tenantId), eq(costLine.period, period)));
  await tx.delete(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, period)));
  await tx
    .update(costPeriod)
    .set({ status: NOT_ACCOUNTED, overhead: '0', unallocated: '0', orders: 0, updatedAt: new Date() })
    .where(and(eq(costPeriod.tenantId, tenantId), eq(costPeriod.period, period)));
  ctx.audit({ action: 'costCancel', entity: 'costPeriod', entityId: period });
}

/** The periods that were ever costed, newest first. */
export async function listCostPeriods(ctx: ServiceContext): Promise<CostPeriodRow[]> {
  const found = await rows<{ period: string; status: string; basis: string; overhead: string; unallocated: string; orders: string; calculated_at: Date | string | null; calculated_by: string | null }>(
    ctx.tx,
    sql`select p.period, p.status, p.basis, p.overhead::text, p.unallocated::text, p.orders::text, p.calculated_at, a.name as calculated_by
        from cost_period p left join admin a on a.tenant_id = p.tenant_id and a.id = p.calculated_by
        where p.tenant_id = ${ctx.tenantId} order by p.period desc`,
  );
  return found.map((p) => ({
    period: p.period,
    status: p.status as CostPeriodRow['status'],
    basis: p.basis as OverheadBasis,
    overhead: p.overhead,
    unallocated: p.unallocated,
    orders: Number(p.orders),
    calculatedAt: p.calculated_at === null ? null : new Date(p.calculated_at).toISOString(),
    calculatedBy: p.calculated_by ?? '',
  }));
}

/** One period with each order's costs (none while it is not calculated); null for a period never run. */
export async function getCostPeriod(ctx: ServiceContext, period: string): Promise<CostPeriodDetail | null> {
  const row = await periodRow(ctx.tx, ctx.tenantId, period);
  if (!row) return null;
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select c.*, m.name as material_name, m.code as material_code
        from cost_order c left join material m on m.tenant_id = c.tenant_id and m.id = c.material_id
        where c.tenant_id = ${ctx.tenantId} and c.period = ${period}
        order by c.order_code`,
  );
  const orders = found.map((r): CostOrderRow => {
    const el = (prefix: string) => Object.fromEntries(COST_ELEMENTS.map((e) => [e, m(r[`${prefix}${e}`])])) as ByElement;
    const opening = el('opening_');
    const periodCost = el('');
    const finished = el('finished_');
    const completed = m(r.completed);
    const finishedTotal = totalOf(finished);
    return {
      orderId: Number(r.order_id),
      orderCode: r.order_code ?? '',
      materialId: r.material_id === null ? null : Number(r.material_id),
      materialName: r.material_name ?? '',
      materialCode: r.material_code ?? '',
      planned: r.planned ?? '0',
      completed: r.completed ?? '0',
      unfinished: r.unfinished ?? '0',
      degree: r.degree ?? '0',
      hours: r.hours ?? '0',
      opening: microText(totalOf(opening)),
      material: microText(periodCost.material),
      rolledIn: r.rolled_in ?? '0',
      labour: microText(periodCost.labour),
      overhead: microText(periodCost.overhead),
      finished: microText(finishedTotal),
      unitCost: completed === 0n ? '0' : microText((finishedTotal * 1_000_000n) / completed),
      perpetual: r.perpetual ?? '0',
      closing: microText(totalOf(opening) + totalOf(periodCost) - finishedTotal),
    };
  });
  return { period, status: row.status as CostPeriodRow['status'], basis: row.basis as OverheadBasis, overhead: row.overhead, unallocated: row.unallocated, orders };
}

/** The period of a bill the cost run reads: its declared header field, else its date's month. */
function costPeriodOfBill(decl: BillTypeDecl, row: { billDate: string; extra: unknown }): string {
  const field = decl.costRun?.period;
  return field ? String((row.extra as Record<string, unknown>)[field] ?? '') : row.billDate.slice(0, 7);
}

/** Whether `row` is a bill the cost run reads (for a type counting only overhead lines: it has one). */
async function readByCostRun(ctx: ServiceContext, decl: BillTypeDecl, billId: number): Promise<boolean> {
  if (!decl.costRun) return false;
  if (!decl.costRun.overheadLines) return true;
  const lines = await ctx.tx.select({ extra: billLine.extra }).from(billLine).where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, billId))).orderBy(asc(billLine.id));
  return (await overheadFeeTypes(ctx, lines.map((l) => (l.extra as { feeTypeId?: number } | null)?.feeTypeId))).size > 0;
}

/**
 * Every type declaring `costRun`: while its period is calculated a bill is not audited into it
 * (`ProductionCostAccounted`) and keeps its audit (`BillCostAccountedProhibitAbandonAudit`) — cancel the run
 * first. Under the period's lock shared, so a run and an audit go one after the other.
 */
export const costRunHook: BillPostingHook = {
  async audited(ctx, decl, row) {
    await refuseInCalculated(ctx, decl, row, 'ProductionCostAccounted');
  },
  async abandoned(ctx, decl, row) {
    await refuseInCalculated(ctx, decl, row, 'BillCostAccountedProhibitAbandonAudit');
  },
};

async function refuseInCalculated(ctx: ServiceContext, decl: BillTypeDecl, row: { id: number; billDate: string; billCode: string; extra: unknown }, key: 'ProductionCostAccounted' | 'BillCostAccountedProhibitAbandonAudit') {
  if (!decl.costRun || !(await readByCostRun(ctx, decl, row.id))) return;
  const period = costPeriodOfBill(decl, row);
  await lockCostPeriod(ctx.tx, ctx.tenantId, period, true);
  if ((await periodRow(ctx.tx, ctx.tenantId, period))?.status === CALCULATED) throw new BizError(key, { additional: `${row.billCode} (${period})` });
}

/**
 * Refuses a second run of `period` while one is queued or running (`CostRunInProgress`). Two requests at once
 * queue one after the other under a lock of their own, so the second sees the first's job.
 */
export async function assertNoPendingRun(tx: Tx, tenantId: number, period: string): Promise<void> {
  assertBegun(period);
  await lockKey(tx, `costjob:${tenantId}:${period}`);
  const [found] = await rows<{ id: string }>(
    tx,
    sql`select id from background_job where tenant_id = ${tenantId} and kind = ${COST_RUN_JOB} and status in ('queued', 'running') and payload->>'period' = ${period} limit 1`,
  );
  if (found) throw new BizError('CostRunInProgress', { additional: period });
}
