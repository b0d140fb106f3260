import { OUTSOURCING_LINES } from '@p8/contract/bills/outsourcing';
import { sql, type SQL } from 'drizzle-orm';
import { microNumber, mul, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { downstreamTypes } from '@p8/contract/bills/catalogue';
import { MRP_LINES, MrpPlan, PRODUCTION_LINES, type MrpBucket } from '@p8/contract/bills/production';
import { POSTED_STATUSES, type ProgressKind } from '@p8/contract/bills/status';
import { meets, type BillPayload, type FieldCondition } from '@p8/contract/bills/registry';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { billLine } from '../../db/schema/index.ts';
import { conditionSql, loadMaterials, mainUnitQuantity } from '../../bills/bill-save.ts';
import { localDay } from '../../bills/stock-rules.ts';
import { idArray, textList } from '../../core/tree.ts';
import { netLevels, runMrp, type LotPolicy, type MrpBom, type MrpInput, type MrpMaterial, type MrpRequirement, type MrpStep, type MrpSuggestion, type Peg } from './mrp-netting.ts';

/*
 * MRP plans (docs/production.md, "MRP"): a plan saved with its demand lines — taken from sale orders and
 * independent demands, or written by hand — and no suggestions runs MRP and saves the suggestions as its
 * lines (the engine's `completeLines` hook, inside the save's transaction). Its inputs are read in a fixed
 * number of set-based queries, whatever the size of the run — the BOMs, the materials' planning data, stock
 * on hand, open supply, open production orders' components — then netted in memory (`mrp-netting.ts`).
 * Suggestions kept on a plan are the planner's: edited, they are saved as edited; deleted, the next save
 * runs the plan again.
 */

type Line = BillPayload['lines'][number];
const POSTED = textList(POSTED_STATUSES);

/**
 * What counts as open supply: lines of posted bills that will bring a material in, less what their audited
 * downstream bills driving `kind` took (an audited in-stock is stock on hand already; a requisition pushed
 * into a draft order still counts as the requisition). Supply an MRP plan made — its suggestions, and the
 * requisitions, purchase orders and production orders pushed down from them — is not: it is reserved for that
 * plan's demands, which the next plan does not plan again.
 */
const SUPPLY: ReadonlyArray<{ type: string; kind: ProgressKind; lines?: FieldCondition }> = [
  { type: 'PurchaseOrder', kind: 'instock' },
  { type: 'PurchaseRequisition', kind: 'push' },
  { type: 'ProductionOrder', kind: 'instock', lines: PRODUCTION_LINES.products },
  { type: 'OutsourcingOrder', kind: 'instock', lines: OUTSOURCING_LINES.products },
];

/** Whether line `l` was made from an MRP plan's suggestion, directly or through one bill between (plan → requisition → order). */
const fromPlan = sql`exists (
  select 1 from bill_line s1 join bill sb1 on sb1.tenant_id = s1.tenant_id and sb1.id = s1.bill_id
  where s1.tenant_id = l.tenant_id and s1.id = l.source_line_id
    and (sb1.bill_type = ${MrpPlan.type} or exists (
      select 1 from bill s2 where s2.tenant_id = s1.tenant_id and s2.id = s1.source_bill_id and s2.bill_type = ${MrpPlan.type})))`;

/** The types whose bills take `kind` from lines of `type`. */
const takersOf = (type: string, kind: ProgressKind) => downstreamTypes(type).filter((d) => d.sources.some((s) => s.type === type && s.drives === kind)).map((d) => d.type);

/** `l`'s quantity (main unit) not yet taken by posted bills of `takers`. */
const openOf = (takers: string[]): SQL =>
  takers.length
    ? sql`l.base_number - coalesce((select sum(d.base_number) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
          where d.tenant_id = l.tenant_id and d.source_line_id = l.id and db.bill_type in (${textList(takers)}) and db.bill_status in (${POSTED})), 0)`
    : sql`l.base_number`;

/** Open supply per material, one statement over every supplying type. */
export function openSupplySql(tenantId: number): SQL {
  const parts = SUPPLY.map(
    (s) => sql`select l.material_id, greatest(${openOf(takersOf(s.type, s.kind))}, 0) as open
      from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
      where l.tenant_id = ${tenantId} and b.bill_type = ${s.type} and b.bill_status in ('Audit', 'Partially') and not l.closed and not ${fromPlan}
        ${s.lines ? sql`and ${conditionSql(s.lines, 'l', billLine)}` : sql``}`,
  );
  return sql`select material_id, sum(open)::text as open from (${sql.join(parts, sql` union all `)}) s group by material_id having sum(open) > 0`;
}

async function openSupply(tx: Tx, tenantId: number): Promise<Map<number, Micro>> {
  const found = await rows<{ material_id: string; open: string }>(tx, openSupplySql(tenantId));
  return new Map(found.map((r) => [Number(r.material_id), toMicro(r.open)]));
}

/**
 * Open orders' components not yet picked: a production order's materials for its workshop, an outsourcing
 * order's materials still to be sent to its supplier — requirements on the order's planned finish (else its
 * date), stock the plan must keep for them. Not those of orders an MRP plan made: that plan planned them.
 */
const ALLOCATING: ReadonlyArray<{ type: string; lines: FieldCondition }> = [
  { type: 'ProductionOrder', lines: PRODUCTION_LINES.materials },
  { type: 'OutsourcingOrder', lines: OUTSOURCING_LINES.materials },
];

export function allocationsSql(tenantId: number): SQL {
  const parts = ALLOCATING.map(
    (a) => sql`select l.bill_id, l.material_id, (${openOf(takersOf(a.type, 'pick'))})::text as open, coalesce(b.delivery_date, b.bill_date)::text as day
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and b.bill_type = ${a.type} and b.bill_status in ('Audit', 'Partially') and not l.closed
          and ${conditionSql(a.lines, 'l', billLine)}
          and not exists (select 1 from bill_line p join bill pb on pb.tenant_id = p.tenant_id and pb.id = p.source_bill_id
                          where p.tenant_id = l.tenant_id and p.bill_id = l.bill_id and pb.bill_type = ${MrpPlan.type})`,
  );
  return sql.join(parts, sql` union all `);
}

async function allocations(tx: Tx, tenantId: number): Promise<MrpRequirement[]> {
  const found = await rows<{ bill_id: string; material_id: string; open: string; day: string }>(tx, allocationsSql(tenantId));
  return found.filter((r) => toMicro(r.open) > 0n).map((r) => ({ materialId: Number(r.material_id), quantity: toMicro(r.open), date: r.day, peg: { kind: 'allocated', billId: Number(r.bill_id) } }));
}

/** Every enabled BOM that is its material's default, and those the demand lines chose: header and lines in one query. */
export function bomsSql(tenantId: number, chosen: number[]): SQL {
  return sql`select b.id, b.material_id, b.quantity::text as per, b.is_default, l.material_id as child, l.quantity::text, l.loss_rate::text, coalesce(mu.ratio, 1)::text as ratio
        from bom b
        left join bom_line l on l.tenant_id = b.tenant_id and l.bom_id = b.id
        left join material_unit mu on mu.tenant_id = l.tenant_id and mu.material_id = l.material_id and mu.unit_id = l.unit_id
        where b.tenant_id = ${tenantId} and b.enabled and (b.is_default or b.id = any(${idArray(chosen)}))
        order by b.id, l.sort, l.id`;
}

async function boms(tx: Tx, tenantId: number, chosen: number[]) {
  const found = await rows<{ id: string; material_id: string; per: string; is_default: boolean; child: string | null; quantity: string | null; loss_rate: string | null; ratio: string }>(tx, bomsSql(tenantId, chosen));
  const byId = new Map<number, MrpBom>();
  const defaults = new Map<number, number>();
  for (const r of found) {
    const id = Number(r.id);
    let bom = byId.get(id);
    if (!bom) {
      bom = { id, materialId: Number(r.material_id), per: toMicro(r.per), lines: [] };
      byId.set(id, bom);
      if (r.is_default) defaults.set(bom.materialId, id);
    }
    if (r.child !== null) (bom.lines as MrpBom['lines'][number][]).push({ materialId: Number(r.child), quantity: mul(toMicro(r.quantity!), toMicro(r.ratio)), lossRate: toMicro(r.loss_rate!) });
  }
  return { byId, defaults };
}

/** Planning data and stock on hand of `ids`, in one query: a reject warehouse's stock is not there to plan with, nor a customer's consignment stock (entrusted machining). */
export function planningSql(tenantId: number, ids: number[]): SQL {
  return sql`select m.id, m.lead_time_days, m.lot_policy, m.lot_size::text, m.safety_stock::text, 'outsource' = any(m.tags) as outsource,
               coalesce((select sum(s.quantity) from stock_balance s
                         where s.tenant_id = m.tenant_id and s.material_id = m.id
                           and not exists (select 1 from warehouse w where w.tenant_id = s.tenant_id and w.id = s.warehouse_id and (w.rejects or w.customer_id is not null))), 0)::text as on_hand
        from material m where m.tenant_id = ${tenantId} and m.id = any(${idArray(ids)})`;
}

async function planningData(tx: Tx, tenantId: number, ids: number[], supply: Map<number, Micro>) {
  const found = await rows<{ id: string; lead_time_days: number; lot_policy: string; lot_size: string | null; safety_stock: string | null; on_hand: string; outsource: boolean }>(tx, planningSql(tenantId, ids));
  const materials = new Map<number, MrpMaterial>();
  for (const r of found) {
    const id = Number(r.id);
    materials.set(id, {
      id,
      leadTimeDays: r.lead_time_days,
      lotPolicy: r.lot_policy as LotPolicy,
      lotSize: r.lot_size === null ? 0n : toMicro(r.lot_size),
      safetyStock: r.safety_stock === null ? 0n : toMicro(r.safety_stock),
      onHand: toMicro(r.on_hand),
      openSupply: supply.get(id) ?? 0n,
      outsource: r.outsource,
    });
  }
  return materials;
}

/** The materials reachable from `roots` through the BOMs (the run's own reach, for its planning data). */
function reach(roots: number[], byId: Map<number, MrpBom>, defaults: Map<number, number>, chosen: Map<number, number[]>): number[] {
  const seen = new Set(roots);
  const stack = [...seen];
  while (stack.length) {
    const m = stack.pop()!;
    for (const b of [defaults.get(m), ...(chosen.get(m) ?? [])]) {
      for (const l of (b === undefined ? undefined : byId.get(b))?.lines ?? []) {
        if (!seen.has(l.materialId)) {
          seen.add(l.materialId);
          stack.push(l.materialId);
        }
      }
    }
  }
  return [...seen];
}

/** How a suggestion's pegging reads: demand lines and suggestions by their line number (`#3×10`), safety stock (`SS`), lot rounding (`LOT`), production orders by code. */
function peggingText(s: MrpSuggestion, lineOf: (peg: Peg) => string): string {
  const text = s.pegs.map((p) => `${lineOf(p.peg)}×${microNumber(p.quantity)}`).join(', ');
  return text.length > 500 ? `${text.slice(0, 497)}…` : text;
}

/**
 * An MRP plan's lines as saved: at least one demand; without suggestions, MRP runs over the demands and
 * the suggestions follow them (in low-level-code order, each with its due and release dates, the BOM it is
 * made by and its pegging).
 */
export async function planLines(ctx: ServiceContext, _decl: unknown, payload: BillPayload, step?: (done: MrpStep) => Promise<void>): Promise<BillPayload['lines']> {
  const isDemand = (l: Line) => meets(MRP_LINES.demands, l);
  const demands = payload.lines.filter(isDemand);
  if (!demands.length) throw new BizError('MrpPlanNeedsDemand');
  if (payload.lines.some((l) => meets(MRP_LINES.suggestions, l))) return payload.lines;
  const { tx, tenantId } = ctx;
  const today = localDay();
  // The demand lines' dates: their own, else their source bill's delivery date, else the plan's date.
  const sourceIds = demands.flatMap((l) => (typeof l.sourceLineId === 'number' ? [l.sourceLineId] : []));
  const sourceDays = new Map(
    (
      await rows<{ id: string; day: string | null }>(
        tx,
        sql`select l.id, b.delivery_date::text as day from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
            where l.tenant_id = ${tenantId} and l.id = any(${idArray(sourceIds)})`,
      )
    ).map((r) => [Number(r.id), r.day]),
  );
  const units = await loadMaterials(tx, tenantId, [...new Set(demands.map((l) => Number(l.materialId)))]);
  const wanted: MrpRequirement[] = demands.map((l, index) => {
    const materialId = Number(l.materialId);
    const day = (l.needDate as string | undefined) ?? (typeof l.sourceLineId === 'number' ? sourceDays.get(l.sourceLineId) : undefined) ?? String(payload.billDate);
    return { materialId, quantity: mainUnitQuantity(l, units), date: day, peg: { kind: 'demand', line: index + 1 }, bomId: (l.bomId as number | null | undefined) ?? undefined };
  });
  const chosenIds = [...new Set(wanted.flatMap((w) => (w.bomId === undefined ? [] : [w.bomId])))];
  const structure = await boms(tx, tenantId, chosenIds);
  const supply = await openSupply(tx, tenantId);
  const allocated = await allocations(tx, tenantId);
  // A chosen BOM that is not enabled (or not the line's material's) is not followed: the default is.
  for (const w of wanted) if (w.bomId !== undefined && structure.byId.get(w.bomId)?.materialId !== w.materialId) w.bomId = undefined;
  const chosen = new Map<number, number[]>();
  for (const w of wanted) if (w.bomId !== undefined) chosen.set(w.materialId, [...(chosen.get(w.materialId) ?? []), w.bomId]);
  const roots = [...wanted, ...allocated].map((w) => w.materialId);
  const planning = await planningData(tx, tenantId, reach(roots, structure.byId, structure.defaults, chosen), supply);
  const orderCodes = await billCodes(tx, tenantId, [...new Set(allocated.map((a) => (a.peg.kind === 'allocated' ? a.peg.billId : 0)))]);
  const input: MrpInput = { today, bucket: (payload.planBucket as MrpBucket | undefined) ?? 'week', demands: wanted, allocations: allocated, materials: planning, boms: structure.byId, defaultBoms: structure.defaults };
  // A background run (mrp-run.ts) is told after each low-level code; a save nets at once.
  const { suggestions } = step ? await netStepwise(input, step) : runMrp(input);
  const lineOf = (peg: Peg) =>
    peg.kind === 'demand' ? `#${peg.line}` : peg.kind === 'suggestion' ? `#${demands.length + peg.index + 1}` : peg.kind === 'allocated' ? (orderCodes.get(peg.billId) ?? '') : peg.kind === 'safety' ? 'SS' : 'LOT';
  return [
    ...demands,
    ...suggestions.map(
      (s): Line => ({
        mrpRole: s.supply,
        materialId: s.materialId,
        number: microNumber(s.quantity),
        needDate: s.dueDate,
        releaseDate: s.releaseDate,
        bomId: s.bomId,
        pegging: peggingText(s, lineOf),
      }),
    ),
  ];
}

async function netStepwise(input: MrpInput, step: (done: MrpStep) => Promise<void>) {
  const levels = netLevels(input);
  for (let next = levels.next(); ; next = levels.next()) {
    if (next.done) return next.value;
    await step(next.value);
  }
}

async function billCodes(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: string; bill_code: string }>(tx, sql`select id, bill_code from bill where tenant_id = ${tenantId} and id = any(${idArray(ids)})`);
  return new Map(found.map((r) => [Number(r.id), r.bill_code]));
}
