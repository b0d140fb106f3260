import { sql } from 'drizzle-orm';
import { div, mul, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { lineDirection, type BillTypeDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { idList } from '../core/tree.ts';
import { rows, type Tx } from '../db/connection.ts';
import { billLine } from '../db/schema/index.ts';
import { conditionSql } from './bill-save.ts';
import type { Movement, StockKey } from './stock-math.ts';
import { COST_ADJUSTMENT } from './stock.ts';

/**
 * The stock movements a bill's audit posts, valued by its type's declared `valuation` (registry.ts,
 * `StockValuationDecl`): the one place that turns a declaration into costs, so a type added later is
 * valued by what it declares. The arithmetic of those costs is stock-math.ts.
 */

/** The part of a stored material line a movement is made of. */
export type MovementLine = Pick<typeof billLine.$inferSelect, 'id' | 'warehouseId' | 'locationId' | 'targetWarehouseId' | 'targetLocationId' | 'batchNumber' | 'serialNumbers' | 'baseNumber' | 'priceTotal' | 'unitPrice' | 'sourceLineId' | 'extra' | 'expirationDate'> & {
  materialId: number;
};

/** What the declared valuation needs beyond the lines, read by `valuationInputs`. */
export interface ValuationInputs {
  /** Per source line: the unit cost its goods moved at (its current posting in the stock ledger). */
  sourceCost: Map<number, Micro>;
  /** Per material: a reference unit cost (its purchase price) to weigh a cost share by where it has no average. */
  estimate: Map<number, Micro>;
  /** Per line of the bill: the unit cost its type's own valuation rule gave it (valuation `rule`). */
  ruleCost?: ReadonlyMap<number, Micro>;
  /** A bill in a foreign currency: its rate, so that a line's own price values the goods in CNY (docs/cross-border.md). */
  rate?: Micro;
}

const NO_INPUTS: ValuationInputs = { sourceCost: new Map(), estimate: new Map() };

/**
 * Reads what `decl`'s valuation needs for `lines`: the cost each source line's goods moved at, when a side
 * is valued at its source's cost — Σ amount ÷ Σ quantity of the source line's entries since its bill's last
 * withdrawal (variance entries, of no quantity, left out) — and the purchase prices of the materials that
 * share what the bill's outbound lines took.
 */
export async function valuationInputs(tx: Tx, tenantId: number, decl: BillTypeDecl, lines: readonly MovementLine[]): Promise<ValuationInputs> {
  const inputs: ValuationInputs = { sourceCost: new Map(), estimate: new Map() };
  const sourced = [...new Set(lines.flatMap((l) => (l.sourceLineId ? [l.sourceLineId] : [])))];
  if ((decl.valuation?.in === 'source' || decl.valuation?.out === 'source') && sourced.length) {
    const found = await rows<{ bill_line_id: string; quantity: string; amount: string }>(
      tx,
      sql`select e.bill_line_id, sum(e.quantity)::text as quantity, sum(e.amount)::text as amount
          from stock_ledger e
          where e.tenant_id = ${tenantId}
            and e.bill_id in (select l.bill_id from bill_line l where l.tenant_id = ${tenantId} and l.id in (${sql.join(sourced.map((id) => sql`${id}`), sql`, `)}))
            and e.bill_line_id in (${sql.join(sourced.map((id) => sql`${id}`), sql`, `)})
            and not e.reversal and e.quantity <> 0
            and e.id > coalesce((select max(r.id) from stock_ledger r where r.tenant_id = e.tenant_id and r.bill_id = e.bill_id and r.reversal), 0)
          group by e.bill_line_id`,
    );
    for (const f of found) {
      const quantity = toMicro(f.quantity);
      if (quantity !== 0n) inputs.sourceCost.set(Number(f.bill_line_id), div(toMicro(f.amount), quantity));
    }
  }
  if (decl.valuation?.in === 'workInProgress' && sourced.length) {
    for (const [lineId, cost] of await workInProgressCost(tx, tenantId, decl, lines)) inputs.sourceCost.set(lineId, cost);
  }
  if (decl.valuation?.in === 'taken' && (decl.stock === 'assembly' || decl.stock === 'exchange')) {
    const materials = [...new Set(lines.filter((l) => lineDirection(decl, l.extra as Record<string, unknown>) === 'in').map((l) => l.materialId))];
    if (materials.length) {
      const found = await rows<{ id: string; purchase_price: string | null }>(
        tx,
        sql`select id, purchase_price::text from material where tenant_id = ${tenantId} and id in (${sql.join(materials.map((id) => sql`${id}`), sql`, `)})`,
      );
      for (const f of found) if (f.purchase_price !== null && toMicro(f.purchase_price) > 0n) inputs.estimate.set(Number(f.id), toMicro(f.purchase_price));
    }
  }
  return inputs;
}

/**
 * Per source line of `lines` (a production order's product line): the unit cost a completion takes in at —
 * the order's work in progress spread over what is still to complete of it. The work in progress is what
 * the stock ledger moved for the bills made from the order's lines and from theirs (picks out, their returns
 * in, earlier completions in), reversals included, so a withdrawn bill counts nothing; what is still to
 * complete is the order's lines of this type's `fromLines` less what audited bills of this type took, and at
 * least what this bill completes, so the last completion takes all that is left. An order with nothing picked
 * has no entry (the line comes in at the current average).
 */
async function workInProgressCost(tx: Tx, tenantId: number, decl: BillTypeDecl, lines: readonly MovementLine[]): Promise<Map<number, Micro>> {
  const own = lines.map((l) => l.id);
  const sourceIds = [...new Set(lines.flatMap((l) => (l.sourceLineId ? [l.sourceLineId] : [])))];
  // The order each source line belongs to (the lines it completes come from its products).
  const orderOf = new Map(
    (await rows<{ id: string; bill_id: string }>(tx, sql`select id, bill_id from bill_line where tenant_id = ${tenantId} and id in (${idList(sourceIds)})`)).map((r) => [Number(r.id), Number(r.bill_id)]),
  );
  const fromLines = decl.sources[0]?.fromLines;
  const orders = await rows<{ order_id: string; wip: string; to_complete: string }>(
    tx,
    sql`with recursive orders(id) as (
          values ${sql.join([...new Set(orderOf.values())].map((id) => sql`(${id}::bigint)`), sql`, `)}
        ), family(id, bill_id, order_id, depth) as (
          select l.id, l.bill_id, l.bill_id, 0 from bill_line l where l.tenant_id = ${tenantId} and l.bill_id in (select id from orders)
          union all
          select d.id, d.bill_id, f.order_id, f.depth + 1 from bill_line d join family f on d.source_line_id = f.id
          where d.tenant_id = ${tenantId} and f.depth < 2
        ), moved as (
          select f.order_id, -sum(e.amount) as wip from family f
          join stock_ledger e on e.tenant_id = ${tenantId} and e.bill_id = f.bill_id and e.bill_line_id = f.id
          -- what the month-end cost run added to completions is not material still in progress
          where f.depth > 0 and e.bill_type <> ${COST_ADJUSTMENT} group by f.order_id
        ), done as (
          select f.order_id, sum(d.base_number) as quantity from family f
          join bill_line d on d.tenant_id = ${tenantId} and d.id = f.id
          join bill b on b.tenant_id = ${tenantId} and b.id = d.bill_id
          where f.depth = 1 and b.bill_type = ${decl.type} and b.bill_status in (${sql.join(POSTED_STATUSES.map((st) => sql`${st}`), sql`, `)})
            and d.id not in (${idList(own)})
          group by f.order_id
        ), planned as (
          select l.bill_id as order_id, sum(l.base_number) as quantity from bill_line l
          where l.tenant_id = ${tenantId} and l.bill_id in (select id from orders) and ${fromLines ? conditionSql(fromLines, 'l', billLine) : sql`true`}
          group by l.bill_id
        )
        select o.id as order_id, coalesce(m.wip, 0)::text as wip, (coalesce(p.quantity, 0) - coalesce(d.quantity, 0))::text as to_complete
        from orders o left join moved m on m.order_id = o.id left join done d on d.order_id = o.id left join planned p on p.order_id = o.id`,
  );
  const completing = new Map<number, Micro>();
  for (const line of lines) {
    const order = line.sourceLineId ? orderOf.get(line.sourceLineId) : undefined;
    if (order !== undefined) completing.set(order, (completing.get(order) ?? 0n) + toMicro(line.baseNumber));
  }
  const unitCost = new Map<number, Micro>();
  for (const o of orders) {
    const wip = toMicro(o.wip);
    const here = completing.get(Number(o.order_id)) ?? 0n;
    const spread = toMicro(o.to_complete) > here ? toMicro(o.to_complete) : here;
    if (wip > 0n && spread > 0n) unitCost.set(Number(o.order_id), div(wip, spread));
  }
  const costs = new Map<number, Micro>();
  for (const [lineId, order] of orderOf) {
    const cost = unitCost.get(order);
    if (cost !== undefined) costs.set(lineId, cost);
  }
  return costs;
}


/** The stock movements auditing a bill posts, from its lines, its type's stock effect and its declared valuation. */
export function movementsOf(decl: BillTypeDecl, lines: readonly MovementLine[], inputs: ValuationInputs = NO_INPUTS): Movement[] {
  const movements: Movement[] = [];
  const keyOf = (line: MovementLine, warehouseId: number, locationId: number | null, serialNumber = ''): StockKey => ({
    materialId: line.materialId,
    warehouseId,
    locationId,
    batchNumber: line.batchNumber,
    serialNumber,
  });
  /** The line's own price per main unit (none when it has no amount). */
  const priceOf = (line: MovementLine): Micro | undefined => {
    const base = toMicro(line.baseNumber);
    const amount = inputs.rate === undefined ? toMicro(line.priceTotal) : mul(toMicro(line.priceTotal), inputs.rate);
    return base > 0n && amount > 0n ? div(amount, base) : undefined;
  };
  const sourceCost = (line: MovementLine) => (line.sourceLineId ? inputs.sourceCost.get(line.sourceLineId) : undefined);
  /** How a plain inbound line is valued by the declaration (undefined: the current average). */
  const inCost = (line: MovementLine): Micro | undefined => {
    switch (decl.valuation?.in) {
      case 'price':
        return priceOf(line);
      case 'source':
      case 'workInProgress':
        return sourceCost(line);
      case 'rule':
        return inputs.ruleCost?.get(line.id);
      case 'nothing':
        return 0n;
      default:
        return undefined;
    }
  };
  const outCost = (line: MovementLine): Micro | undefined => (decl.valuation?.out === 'source' ? sourceCost(line) : undefined);
  /** One movement per serial number (quantity 1 each), or one for the whole line. */
  const add = (line: MovementLine, sign: 1 | -1, warehouseId: number, locationId: number | null, extra: Partial<Movement> = {}) => {
    const base = toMicro(line.baseNumber);
    const cost = sign > 0 ? { unitCost: inCost(line) } : { outCost: outCost(line) };
    if (line.serialNumbers.length) {
      for (const serial of line.serialNumbers) movements.push({ key: keyOf(line, warehouseId, locationId, serial), quantity: sign > 0 ? toMicro(1) : toMicro(-1), ...cost, lineId: line.id, expirationDate: line.expirationDate, ...extra });
    } else {
      movements.push({ key: keyOf(line, warehouseId, locationId), quantity: sign > 0 ? base : -base, ...cost, lineId: line.id, expirationDate: line.expirationDate, ...extra });
    }
  };
  switch (decl.stock) {
    case 'in':
    case 'out':
      for (const line of lines) add(line, decl.stock === 'in' ? 1 : -1, line.warehouseId!, line.locationId);
      break;
    case 'transfer':
      for (const line of lines) {
        const from = movements.length;
        add(line, -1, line.warehouseId!, line.locationId);
        const outs = Array.from({ length: movements.length - from }, (_, i) => from + i);
        const before = movements.length;
        add(line, 1, line.targetWarehouseId!, line.targetLocationId);
        // Each inbound piece takes the cost its outbound twin left at.
        for (let i = before; i < movements.length; i++) movements[i] = { ...movements[i], unitCost: undefined, costFrom: line.serialNumbers.length ? [outs[i - before]] : outs };
      }
      break;
    case 'check':
      for (const line of lines) {
        const gainCost = toMicro(line.unitPrice) > 0n ? toMicro(line.unitPrice) : undefined;
        movements.push({ key: keyOf(line, line.warehouseId!, line.locationId), quantity: 0n, countedTo: toMicro(line.baseNumber), unitCost: gainCost, lineId: line.id });
      }
      break;
    case 'assembly':
    case 'exchange': {
      const outs = lines.filter((l) => lineDirection(decl, l.extra as Record<string, unknown>) === 'out');
      const ins = lines.filter((l) => lineDirection(decl, l.extra as Record<string, unknown>) === 'in');
      for (const line of outs) add(line, -1, line.warehouseId!, line.locationId);
      const taken = Array.from({ length: movements.length }, (_, i) => i);
      // A line with a price of its own comes in at it; the others share what went out by cost share.
      for (const line of ins) {
        const price = priceOf(line);
        add(line, 1, line.warehouseId!, line.locationId, price ? { unitCost: price } : { unitCost: undefined, costFrom: taken, costEstimate: inputs.estimate.get(line.materialId) });
      }
      break;
    }
    case 'none':
      break;
  }
  return movements;
}
