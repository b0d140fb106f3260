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
import { allocate, allocateOverhead, costingSequence, costOrder as costOfOrder, COST_ELEMENTS, totalOf, unitKey, type ByElement, type OrderCost, type OrderCostInput, type OverheadBasis } from './cost-math.ts';
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
 * The product a pick's or a return's line is for, as its order's material line says (`productId`; null: none):
 * `line` the pick's or return's own line's source, `sourceOfSource` that source's source (a return's pick line's
 * order line, joined only for returns).
 */
function pickedForSql(billType: SQL, line: string, sourceOfSource: string): SQL {
  return sql`case ${billType} when ${ProductionPick.type} then nullif(${sql.raw(line)}.extra->>'productId', '')::bigint
                              when ${ProductionReturn.type} then nullif(${sql.raw(sourceOfSource)}.extra->>'productId', '')::bigint end`;
}

/**
 * The run's input statements (exported for bench/cost-run.ts, which times them over a bare pool): per order and
 * product, what the stock ledger moved for its picks, returns and scrap stocked (material) and completions (what
 * they took in, and how many), before and in the period. A pick reaches its order through the order's material line,
 * and its product through the line's `productId` (none: shared by the order's products); a return through its
 * pick's line; scrap through its report's line, and its product is the scrapped one; a completion's is what it
 * takes in.
 */
export function ledgerByUnitSql(tenantId: number, period: string): SQL {
  const { start, end } = periodRange(period);
  const stockTypes = [ProductionPick.type, ProductionReturn.type, ProductionInstock.type, ProductionWaste.type];
  const throughSource = [ProductionReturn.type, ProductionWaste.type];
  return sql`select case when e.bill_type in (${sql.join(throughSource.map((t) => sql`${t}`), sql`, `)}) then s.source_bill_id else d.source_bill_id end as order_id,
               case when e.bill_type in (${ProductionPick.type}, ${ProductionReturn.type}) then ${pickedForSql(sql`e.bill_type`, 's', 's2')} else d.material_id end as product_id,
               coalesce(-sum(e.amount) filter (where e.bill_type <> ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as material_before,
               coalesce(-sum(e.amount) filter (where e.bill_type <> ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as material,
               coalesce(sum(e.amount) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as perpetual_before,
               coalesce(sum(e.amount) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as perpetual,
               coalesce(sum(e.quantity) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date < ${start}), 0)::text as completed_before,
               coalesce(sum(e.quantity) filter (where e.bill_type = ${ProductionInstock.type} and e.bill_date >= ${start}), 0)::text as completed
        from stock_ledger e
        join bill_line d on d.tenant_id = e.tenant_id and d.id = e.bill_line_id
        left join bill_line s on s.tenant_id = d.tenant_id and s.id = d.source_line_id
        -- a return's pick line's own source: the order's material line, which says the product
        left join bill_line s2 on e.bill_type = ${ProductionReturn.type} and s2.tenant_id = s.tenant_id and s2.id = s.source_line_id
        where e.tenant_id = ${tenantId} and e.bill_type in (${sql.join(stockTypes.map((t) => sql`${t}`), sql`, `)}) and e.bill_date <= ${end}
        group by 1, 2`;
}

/** Per order and product, the piece wages of the period's audited accounting (accounting line → report line, of the step's product). */
export function labourByUnitSql(tenantId: number, period: string): SQL {
  return sql`select r.source_bill_id as order_id, r.material_id as product_id, sum(a.price_total)::text as wage
        from bill_line a join bill ab on ab.tenant_id = a.tenant_id and ab.id = a.bill_id
        join bill_line r on r.tenant_id = a.tenant_id and r.id = a.source_line_id
        where a.tenant_id = ${tenantId} and ab.bill_type = ${ProcessAccounting.type} and ab.bill_status in (${inPosted}) and ab.extra->>'salaryPeriod' = ${period}
        group by 1, 2`;
}

/** Per order and step (of one product), the good quantity reported up to the period's end and the hours reported in it. */
export function reportsByStepSql(tenantId: number, period: string): SQL {
  const { start, end } = periodRange(period);
  return sql`select r.source_bill_id as order_id, r.source_line_id as step_id, min(r.material_id) as product_id, sum(r.base_number)::text as good,
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
 * it less what it returned (`order_id`, and `product_id` the product its material line is for), and all else that took it out of stock (`order_id` null: sales, other
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
               ${pickedForSql(sql`mv.bill_type`, 's', 's2')} as product_id,
               (-sum(mv.quantity))::text as quantity
        from moved mv
        join bill_line d on d.tenant_id = ${tenantId} and d.id = mv.bill_line_id
        left join bill_line s on s.tenant_id = d.tenant_id and s.id = d.source_line_id
        left join bill_line s2 on mv.bill_type = ${ProductionReturn.type} and s2.tenant_id = s.tenant_id and s2.id = s.source_line_id
        where mv.quantity < 0 or mv.bill_type = ${ProductionReturn.type}
        group by 1, 2, 3`;
}

/** Per completed material, what each order's product consumed of it in the period and what went elsewhere (`consumptionSql`). */
async function consumption(tx: Tx, tenantId: number, period: string, completions: readonly CompletionLine[], units: OrderUnits) {
  const consumed = new Map<number, { byUnit: Map<string, Micro>; elsewhere: Micro }>();
  const materialIds = [...new Set(completions.map((c) => c.materialId))];
  if (!materialIds.length) return consumed;
  for (const r of await rows<{ material_id: string; order_id: string | null; product_id: string | null; quantity: string }>(tx, consumptionSql(tenantId, period, materialIds))) {
    const entry = consumed.get(Number(r.material_id)) ?? { byUnit: new Map<string, Micro>(), elsewhere: 0n };
    // An order the run does not cost (nothing else of it this month) consumed it too: not a product the run can hand it to.
    const parts = r.order_id === null ? [] : units.spread(Number(r.order_id), r.product_id === null ? null : Number(r.product_id), m(r.quantity));
    if (!parts.length) entry.elsewhere += m(r.quantity);
    for (const [key, quantity] of parts) entry.byUnit.set(key, (entry.byUnit.get(key) ?? 0n) + quantity);
    consumed.set(Number(r.material_id), entry);
  }
  return consumed;
}

/** The month's costing units — each product of each order — and how a figure of an order goes to them. */
class OrderUnits {
  private readonly products = new Map<number, Array<{ productId: number; planned: Micro }>>();

  add(orderId: number, productId: number, planned: Micro) {
    this.products.set(orderId, [...(this.products.get(orderId) ?? []), { productId, planned }]);
  }

  /** The unit `productId` of the order is costed as: its own, or — a product it does not make — its first product's. */
  unitOf(orderId: number, productId: number): string | undefined {
    const products = this.products.get(orderId) ?? [];
    const found = products.find((p) => p.productId === productId) ?? products[0];
    return found && unitKey(orderId, found.productId);
  }

  /**
   * `value` of an order: all to its product `productId`, or — for none, or one it does not make (a line edited
   * since) — shared by its products' planned quantities (the last taking the rounding). Nothing for an order the
   * run does not cost.
   */
  spread(orderId: number, productId: number | null, value: Micro): Array<[string, Micro]> {
    const products = this.products.get(orderId) ?? [];
    if (productId !== null && products.some((p) => p.productId === productId)) return [[unitKey(orderId, productId), value]];
    const weights = products.map((p) => p.planned);
    const parts = allocate(value, sum(weights) === 0n ? weights.map((_, i) => (i === 0 ? 1n : 0n)) : weights);
    return products.map((p, i) => [unitKey(orderId, p.productId), parts[i]]);
  }
}

/** What the period's bills say of each order's products (the run's inputs), and the completion lines it values. */
async function gather(tx: Tx, tenantId: number, period: string, openingFromRun: boolean) {
  const { end } = periodRange(period);
  const ledger = await rows<{ order_id: string | null; product_id: string | null; material_before: string; material: string; perpetual_before: string; perpetual: string; completed_before: string; completed: string }>(
    tx,
    ledgerByUnitSql(tenantId, period),
  );
  const labour = await rows<{ order_id: string | null; product_id: string; wage: string }>(tx, labourByUnitSql(tenantId, period));
  const reports = await rows<{ order_id: string; step_id: string; product_id: string; good: string; hours: string }>(tx, reportsByStepSql(tenantId, period));
  const previous = openingFromRun ? await tx.select().from(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, previousPeriod(period)))) : [];
  const units = new OrderUnits();
  const ids = new Set<number>();
  for (const r of ledger) if (r.order_id !== null) ids.add(Number(r.order_id));
  for (const r of labour) if (r.order_id !== null) ids.add(Number(r.order_id));
  for (const r of reports) if (toMicro(r.hours) !== 0n) ids.add(Number(r.order_id));
  for (const p of previous) ids.add(p.orderId);
  if (!ids.size) return { inputs: [] as OrderCostInput[], costed: new Map<string, CostedUnit>(), completions: [] as CompletionLine[], units };

  const idArray = sql`array[${sql.join([...ids].map((id) => sql`${id}::bigint`), sql`, `)}]`;
  const unitRows = await rows<{ id: string; bill_code: string; product_id: string; planned: string; steps: string; level: number | null; closed: boolean }>(
    tx,
    sql`select o.id, o.bill_code, p.material_id as product_id, sum(p.base_number)::text as planned,
               -- how deep the product sits in the BOMs (the costing sequence's order among units ready together)
               max(pm.low_level_code) as level,
               (select count(*) from bill_line l where l.tenant_id = o.tenant_id and l.bill_id = o.id and l.material_id = p.material_id and ${conditionSql(PRODUCTION_LINES.processes, 'l', billLine)})::text as steps,
               -- closed by hand by the period's end (a later closing does not change a past period)
               (o.bill_status = 'ManualCompletion' and exists (select 1 from bill_transition t where t.tenant_id = o.tenant_id and t.bill_id = o.id
                  and t.operation = 'manualCompletion' and t.created_at < ${end}::date + 1)) as closed
        from bill o
        join bill_line p on p.tenant_id = o.tenant_id and p.bill_id = o.id and ${conditionSql(PRODUCTION_LINES.products, 'p', billLine)}
        left join material pm on pm.tenant_id = p.tenant_id and pm.id = p.material_id
        where o.tenant_id = ${tenantId} and o.id = any(${idArray}) and o.bill_type = ${ProductionOrder.type}
        group by o.tenant_id, o.id, o.bill_code, o.bill_status, p.material_id
        order by o.id, min(p.line_no)`,
  );
  for (const u of unitRows) units.add(Number(u.id), Number(u.product_id), m(u.planned));

  // Every figure onto its units.
  const FIGURES = ['material_before', 'material', 'perpetual_before', 'perpetual', 'completed_before', 'completed'] as const;
  const ledgerOf = new Map<string, Record<(typeof FIGURES)[number], Micro>>();
  for (const r of ledger) {
    if (r.order_id === null) continue;
    for (const figure of FIGURES) {
      for (const [key, value] of units.spread(Number(r.order_id), r.product_id === null ? null : Number(r.product_id), m(r[figure]))) {
        const entry = ledgerOf.get(key) ?? { material_before: 0n, material: 0n, perpetual_before: 0n, perpetual: 0n, completed_before: 0n, completed: 0n };
        entry[figure] += value;
        ledgerOf.set(key, entry);
      }
    }
  }
  const labourOf = new Map<string, Micro>();
  for (const r of labour) {
    if (r.order_id === null) continue;
    for (const [key, value] of units.spread(Number(r.order_id), Number(r.product_id), m(r.wage))) labourOf.set(key, (labourOf.get(key) ?? 0n) + value);
  }
  const stepsOf = new Map<string, { good: Micro[]; hours: Micro }>();
  for (const r of reports) {
    for (const [key, hours] of units.spread(Number(r.order_id), Number(r.product_id), m(r.hours))) {
      const entry = stepsOf.get(key) ?? { good: [], hours: 0n };
      if (key === unitKey(Number(r.order_id), Number(r.product_id))) entry.good.push(m(r.good));
      entry.hours += hours;
      stepsOf.set(key, entry);
    }
  }
  const closingBefore = new Map<string, ByElement>();
  for (const p of previous) {
    const closing = {
      material: m(p.openingMaterial) + m(p.material) - m(p.finishedMaterial),
      labour: m(p.openingLabour) + m(p.labour) - m(p.finishedLabour),
      overhead: m(p.openingOverhead) + m(p.overhead) - m(p.finishedOverhead),
    } satisfies ByElement;
    for (const element of COST_ELEMENTS) {
      for (const [key, value] of units.spread(p.orderId, p.materialId, closing[element])) {
        const entry = closingBefore.get(key) ?? zero();
        entry[element] += value;
        closingBefore.set(key, entry);
      }
    }
  }

  const inputs: OrderCostInput[] = [];
  const costed = new Map<string, CostedUnit>();
  for (const u of unitRows) {
    const orderId = Number(u.id);
    const productId = Number(u.product_id);
    const key = unitKey(orderId, productId);
    const l = ledgerOf.get(key);
    const steps = stepsOf.get(key);
    const stepCount = Number(u.steps);
    // Steps never reported count as nothing passed.
    const stepsReported = stepCount ? [...(steps?.good ?? []), ...Array<Micro>(Math.max(0, stepCount - (steps?.good.length ?? 0))).fill(0n)] : [];
    const opening = openingFromRun ? (closingBefore.get(key) ?? zero()) : { ...zero(), material: (l?.material_before ?? 0n) - (l?.perpetual_before ?? 0n) };
    const input: OrderCostInput = {
      key,
      orderId,
      productId,
      opening,
      material: l?.material ?? 0n,
      labour: labourOf.get(key) ?? 0n,
      hours: steps?.hours ?? 0n,
      planned: m(u.planned),
      completedBefore: l?.completed_before ?? 0n,
      completed: l?.completed ?? 0n,
      closed: u.closed,
      stepsReported,
    };
    const idle = totalOf(opening) === 0n && opening.material === 0n && input.material === 0n && input.labour === 0n && input.hours === 0n && input.completed === 0n && (l?.perpetual ?? 0n) === 0n;
    if (idle) continue;
    inputs.push(input);
    costed.set(key, { code: u.bill_code, orderId, productId, level: u.level ?? 0 });
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
  return { inputs, costed, completions, units };
}

/** One product of one order the run costs. */
interface CostedUnit {
  code: string;
  orderId: number;
  productId: number;
  /** The product's low-level code. */
  level: number;
}

interface CompletionLine {
  billId: number;
  billLineId: number;
  billCode: string;
  orderId: number;
  /** The product it took in. */
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
  const { inputs, costed, completions, units } = await gather(tx, tenantId, period, previousCalculated);
  const pool = await overheadPool(tx, tenantId, period);
  const { overhead, unallocated } = allocateOverhead(pool, inputs, basis);
  const overheadOf = new Map(inputs.map((input, i) => [input.key, overhead[i]]));
  const inputOf = new Map(inputs.map((input) => [input.key, input]));

  // What the period's runs already put onto each completion line, and rolled into each product from its sub-assemblies.
  const calculated = current?.status === CALCULATED;
  const applied = new Map(
    (await tx.select().from(costLine).where(and(eq(costLine.tenantId, tenantId), eq(costLine.period, period)))).map((l) => [l.billLineId, { toStock: m(l.toStock), toSales: m(l.toSales), toProduction: m(l.toProduction) }]),
  );
  const rolledIn = new Map<string, Micro>(
    calculated
      ? (await tx.select({ orderId: costOrder.orderId, materialId: costOrder.materialId, rolledIn: costOrder.rolledIn }).from(costOrder).where(and(eq(costOrder.tenantId, tenantId), eq(costOrder.period, period)))).map((r) => [
          unitKey(r.orderId, r.materialId),
          m(r.rolledIn),
        ])
      : [],
  );
  const onHand = await stockOnHand(tx, tenantId, completions);
  // A completion line is its product's (the product it takes in is one the order makes).
  const linesOf = new Map<string, CompletionLine[]>();
  for (const c of completions) {
    const key = units.unitOf(c.orderId, c.materialId);
    if (key) linesOf.set(key, [...(linesOf.get(key) ?? []), c]);
  }

  // Step by step (逐步结转): a product is costed after the products whose completions it picked this month, and what
  // the run adds to their cost follows them into the products that consumed them.
  const consumed = await consumption(tx, tenantId, period, completions, units);
  const makersOf = new Map<number, Set<string>>();
  for (const [key, lines] of linesOf) for (const c of lines) makersOf.set(c.materialId, (makersOf.get(c.materialId) ?? new Set()).add(key));
  const after = new Map<string, Set<string>>();
  for (const [materialId, use] of consumed) {
    for (const [key, picked] of use.byUnit) if (picked > 0n) for (const maker of makersOf.get(materialId) ?? []) after.set(key, (after.get(key) ?? new Set()).add(maker));
  }
  const sequence = costingSequence(
    inputs.map((input) => ({ key: input.key, orderId: input.orderId, level: costed.get(input.key)?.level ?? 0 })),
    after,
  );
  const position = new Map(sequence.map((key, at) => [key, at]));

  const costs: Array<OrderCost & { rolledIn: Micro }> = [];
  const lineCosts: Array<CompletionLine & { cost: Micro; toStock: Micro; toSales: Micro; toProduction: Micro; stockPart: Micro; salesPart: Micro }> = [];
  for (const [at, key] of sequence.entries()) {
    const input = inputOf.get(key)!;
    const received = rolledIn.get(key) ?? 0n;
    const cost = { ...costOfOrder({ ...input, material: input.material + received }, overheadOf.get(key) ?? 0n), rolledIn: received };
    costs.push(cost);
    // Each completion line's cost: its product's finished cost by quantity; what it takes beyond what is on it.
    const lines = linesOf.get(key) ?? [];
    const parts = allocate(totalOf(cost.finished), lines.map((l) => l.quantity));
    lines.forEach((line, i) => {
      const was = applied.get(line.billLineId) ?? { toStock: 0n, toSales: 0n, toProduction: 0n };
      const diff = parts[i] - line.perpetual - was.toStock - was.toSales - was.toProduction;
      // What the line brought in that is still on the shelf takes its share into stock.
      const place = `${line.materialId}|${line.warehouseId}`;
      const covered = onHand.get(place) ?? 0n;
      const held = covered <= 0n ? 0n : covered >= line.quantity ? line.quantity : covered;
      onHand.set(place, covered - held);
      const stockPart = line.quantity === 0n ? 0n : (diff * held) / line.quantity;
      // What is gone is shared by where the month's issues of the product went: the products that picked it and are
      // costed after this one take theirs into their material; sales and every other issue, cost of sales.
      const gone = diff - stockPart;
      const picks = [...(consumed.get(line.materialId)?.byUnit ?? [])].filter(([, picked]) => picked > 0n);
      const costedLater = ([taker]: [string, Micro]) => (position.get(taker) ?? -1) > at;
      const takers = picks.filter(costedLater);
      const elsewhere = max(0n, consumed.get(line.materialId)?.elsewhere ?? 0n) + sum(picks.filter((pick) => !costedLater(pick)).map(([, picked]) => picked));
      const shares = allocate(gone, [...takers.map(([, picked]) => picked), elsewhere]);
      const productionPart = sum(shares.slice(0, takers.length));
      takers.forEach(([taker], k) => rolledIn.set(taker, (rolledIn.get(taker) ?? 0n) + shares[k]));
      const salesPart = gone - productionPart;
      lineCosts.push({ ...line, cost: parts[i], toStock: was.toStock + stockPart, toSales: was.toSales + salesPart, toProduction: was.toProduction + productionPart, stockPart, salesPart });
    });
  }
  await progress?.(Math.floor(costs.length / 2), costs.length);
  const orderCount = new Set(costs.map((c) => c.orderId)).size;

  const allocatedBefore = calculated ? m(current.overhead) - m(current.unallocated) : 0n;
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
        const input = inputOf.get(c.key)!;
        return {
          tenantId,
          period,
          orderId: c.orderId,
          orderCode: costed.get(c.key)?.code ?? '',
          rolledIn: microText(c.rolledIn),
          materialId: c.productId,
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
          perpetual: microText(sum((linesOf.get(c.key) ?? []).map((l) => l.perpetual))),
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
    orders: orderCount,
    calculatedAt: new Date(),
    calculatedBy: ctx.account.adminId,
    updatedAt: new Date(),
  };
  await tx
    .insert(costPeriod)
    .values({ tenantId, period, ...values })
    .onConflictDoUpdate({ target: [costPeriod.tenantId, costPeriod.period], set: values });
  await progress?.(costs.length, costs.length);
  ctx.audit({ action: 'costRun', entity: 'costPeriod', entityId: period, detail: { basis, orders: orderCount } });
  return {
    period,
    orders: orderCount,
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
        order by c.order_code, m.code`,
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
      materialId: Number(r.material_id),
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
