import { sql, type SQL } from 'drizzle-orm';
import { div, divRound, microText, mul, roundTo, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { OUTSOURCING_LINES, OutsourcingInstock, OutsourcingOrder, OutsourcingPick, OutsourcingRefund, OutsourcingReturn } from '@p8/contract/bills/outsourcing';
import { meets, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { idList } from '../../core/tree.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { outsourcingConsumption, type bill } from '../../db/schema/index.ts';
import type { BillRules } from '../../bills/rules.ts';
import type { BillPostingHook, BillPostingHooks } from '../../bills/posting-hooks.ts';
import { lockBills } from '../../bills/service.ts';
import type { LineRow } from '../../bills/bill-rows.ts';
import { orderLinesFromBoms } from '../../core/bom-explosion.ts';

/*
 * The outsourcing bills' own rules (docs/outsourcing.md), beyond what the engine does with their declarations:
 * - an order makes exactly one product; saved without materials, it takes them from the product's BOM, as a
 *   production order does (`orderLinesFromBoms`, its routing's steps left out: the supplier does the work);
 * - a receipt consumes the order's materials at the supplier in proportion to what came back of the product
 *   (accepted and scrapped pieces; rejected ones the supplier still holds): each material line of the order ×
 *   (accepted + scrapped) ÷ the order's product quantity. It is refused when the supplier does not hold that much
 *   (`OutsourcingMaterialShort`), and comes into stock at the consumed materials' cost (the order's cost of each
 *   material at the supplier) plus its processing fee (the valuation rule of the engine's `rule` valuation);
 * - a refund of received goods (goods back) gives the supplier back the materials of the goods it returns, at
 *   its share of the receipt line's consumption, valued at what its goods left stock at beyond its fee — what its
 *   declared counter, 1408, takes — so 1408 always holds what the suppliers hold;
 * - whatever is audited or withdrawn, what each order's supplier holds of each material (sent − returned −
 *   consumed) never goes below zero: checked under the order's row lock after every step that lowers it, so
 *   concurrent receipts, returns and withdrawals of one order are weighed one after the other.
 */

type Line = BillPayload['lines'][number];
const OWN_TYPES = new Set([OutsourcingPick.type, OutsourcingReturn.type, OutsourcingInstock.type, OutsourcingRefund.type]);

/** An order's lines as saved: exactly one product; its materials from the product's BOM when none are given. */
async function orderLines(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']> {
  const products = payload.lines.filter((l) => meets(OUTSOURCING_LINES.products, l));
  if (products.length !== 1) throw new BizError('OutsourcingOrderOneProduct');
  if (payload.lines.some((l) => meets(OUTSOURCING_LINES.materials, l))) return payload.lines;
  const exploded = await orderLinesFromBoms(ctx, decl, { ...payload, lines: payload.lines.filter((l) => meets(OUTSOURCING_LINES.products, l)) });
  return exploded.filter((l: Line) => meets(OUTSOURCING_LINES.products, l) || meets(OUTSOURCING_LINES.materials, l));
}

/** What the supplier of each order holds of each material it was sent: quantity and value (main unit). */
export interface AtSupplier {
  orderId: number;
  materialId: number;
  sent: Micro;
  returned: Micro;
  consumed: Micro;
  quantity: Micro;
  amount: Micro;
}

/**
 * The at-supplier statement of the orders meeting `orders` (a condition on the order `o`): per order and material, what picks
 * sent and returns brought back (their current stock-ledger entries, withdrawals included) and what receipts
 * consumed (net of refunds), and their value.
 */
export function atSupplierSql(tenantId: number, orders: SQL) {
  return sql`with orders as (
      select o.id from bill o where o.tenant_id = ${tenantId} and o.bill_type = ${OutsourcingOrder.type} and ${orders}
    ), picks as (
      select p.id, p.bill_id, ol.bill_id as order_id from bill_line ol
      join bill_line p on p.tenant_id = ol.tenant_id and p.source_line_id = ol.id
      join bill pb on pb.tenant_id = p.tenant_id and pb.id = p.bill_id and pb.bill_type = ${OutsourcingPick.type}
      where ol.tenant_id = ${tenantId} and ol.bill_id in (select id from orders)
    ), returns as (
      select r.id, r.bill_id, pk.order_id from picks pk
      join bill_line r on r.tenant_id = ${tenantId} and r.source_line_id = pk.id
      join bill rb on rb.tenant_id = r.tenant_id and rb.id = r.bill_id and rb.bill_type = ${OutsourcingReturn.type}
    ), moved as (
      select m.order_id, e.material_id,
             -sum(e.quantity) filter (where m.kind = 'pick') as sent, sum(e.quantity) filter (where m.kind = 'return') as returned,
             -sum(e.amount) as amount
      from (select id, bill_id, order_id, 'pick' as kind from picks union all select id, bill_id, order_id, 'return' from returns) m
      join stock_ledger e on e.tenant_id = ${tenantId} and e.bill_id = m.bill_id and e.bill_line_id = m.id
      group by m.order_id, e.material_id
    ), used as (
      select c.order_id, c.material_id, sum(c.quantity) as quantity, sum(c.amount) as amount from outsourcing_consumption c
      where c.tenant_id = ${tenantId} and c.order_id in (select id from orders)
      group by c.order_id, c.material_id
    )
    select coalesce(m.order_id, u.order_id) as order_id, coalesce(m.material_id, u.material_id) as material_id,
           coalesce(m.sent, 0)::text as sent, coalesce(m.returned, 0)::text as returned, coalesce(u.quantity, 0)::text as consumed,
           (coalesce(m.sent, 0) - coalesce(m.returned, 0) - coalesce(u.quantity, 0))::text as quantity,
           (coalesce(m.amount, 0) - coalesce(u.amount, 0))::text as amount
    from moved m full join used u on u.order_id = m.order_id and u.material_id = m.material_id`;
}

export async function atSupplier(tx: Tx, tenantId: number, orderIds: readonly number[]): Promise<AtSupplier[]> {
  if (!orderIds.length) return [];
  const found = await rows<{ order_id: string; material_id: string; sent: string; returned: string; consumed: string; quantity: string; amount: string }>(tx, atSupplierSql(tenantId, sql`o.id in (${idList([...orderIds])})`));
  return found.map((r) => ({
    orderId: Number(r.order_id),
    materialId: Number(r.material_id),
    sent: toMicro(r.sent),
    returned: toMicro(r.returned),
    consumed: toMicro(r.consumed),
    quantity: toMicro(r.quantity),
    amount: toMicro(r.amount),
  }));
}

/** The outsourcing orders a bill of ours comes from (a receipt's or pick's source, a return's or refund's source's source). */
async function ordersOf(tx: Tx, tenantId: number, billId: number): Promise<number[]> {
  const found = await rows<{ id: string }>(
    tx,
    sql`select distinct o.id from bill_line l
        join bill_line s on s.tenant_id = l.tenant_id and s.id = l.source_line_id
        left join bill_line s2 on s2.tenant_id = s.tenant_id and s2.id = s.source_line_id
        join bill o on o.tenant_id = l.tenant_id and o.bill_type = ${OutsourcingOrder.type} and (o.id = s.bill_id or o.id = s2.bill_id)
        where l.tenant_id = ${tenantId} and l.bill_id = ${billId}`,
  );
  return found.map((r) => Number(r.id));
}

/** Refuses when any material of the orders is held below zero at their supplier. The orders are locked first. */
async function assertHeld(ctx: ServiceContext, orderIds: number[]): Promise<void> {
  if (!orderIds.length) return;
  const orders = await lockBills(ctx, orderIds);
  const short = (await atSupplier(ctx.tx, ctx.tenantId, orderIds)).find((a) => a.quantity < 0n);
  if (short) {
    const code = orders.find((o) => o.id === short.orderId)?.billCode;
    throw refusal('OutsourcingMaterialShort', { materialId: short.materialId }, { bill: code, need: short.consumed + short.returned, have: short.sent });
  }
}

/**
 * A receipt's valuation (the engine's `rule`): per line, the materials its accepted and scrapped pieces consume
 * at the supplier (recorded) plus its fee, per main unit. Refused when the supplier does not hold enough.
 */
async function receiptValuing(ctx: ServiceContext, _decl: BillTypeDecl, row: typeof bill.$inferSelect, lines: readonly LineRow[]): Promise<Map<number, Micro>> {
  const { tx, tenantId } = ctx;
  const sourceIds = lines.flatMap((l) => (l.sourceLineId ? [l.sourceLineId] : []));
  const costs = new Map<number, Micro>();
  if (!sourceIds.length) return costs;
  const products = await rows<{ id: string; bill_id: string; base_number: string }>(tx, sql`select id, bill_id, base_number::text from bill_line where tenant_id = ${tenantId} and id in (${idList(sourceIds)})`);
  const productOf = new Map(products.map((p) => [Number(p.id), { orderId: Number(p.bill_id), base: toMicro(p.base_number) }]));
  const orderIds = [...new Set(products.map((p) => Number(p.bill_id)))];
  const orders = await lockBills(ctx, orderIds);
  const materials = await rows<{ bill_id: string; material_id: string; base_number: string }>(
    tx,
    sql`select bill_id, material_id, base_number::text from bill_line
        where tenant_id = ${tenantId} and bill_id in (${idList(orderIds)}) and extra->>'role' = 'Material'`,
  );
  const pool = new Map((await atSupplier(tx, tenantId, orderIds)).map((a) => [`${a.orderId}|${a.materialId}`, { quantity: a.quantity, amount: a.amount }]));
  const consumption: Array<typeof outsourcingConsumption.$inferInsert> = [];
  for (const line of lines) {
    const product = line.sourceLineId ? productOf.get(line.sourceLineId) : undefined;
    if (!product || product.base === 0n) continue;
    const base = toMicro(line.baseNumber);
    const number = toMicro(line.number);
    // Scrapped pieces are in the line's unit, as its quantity is.
    const scrap = toMicro(String(line.extra.scrapNumber ?? 0) || '0');
    const processed = base + (scrap > 0n && number > 0n ? divRound(scrap * base, number) : scrap);
    let materialsValue = 0n;
    for (const m of materials.filter((r) => Number(r.bill_id) === product.orderId)) {
      const materialId = Number(m.material_id);
      const need = roundTo(mul(toMicro(m.base_number), div(processed, product.base)), 6);
      if (need === 0n) continue;
      const key = `${product.orderId}|${materialId}`;
      const held = pool.get(key) ?? { quantity: 0n, amount: 0n };
      if (need > held.quantity) {
        throw refusal('OutsourcingMaterialShort', { materialId, lineId: line.id }, { bill: orders.find((o) => o.id === product.orderId)?.billCode, need, have: held.quantity < 0n ? 0n : held.quantity });
      }
      // The whole holding goes at its whole value; a part at the holding's average.
      const amount = need === held.quantity ? held.amount : divRound(held.amount * need, held.quantity);
      pool.set(key, { quantity: held.quantity - need, amount: held.amount - amount });
      materialsValue += amount;
      consumption.push({ tenantId, orderId: product.orderId, billId: row.id, billLineId: line.id, materialId, quantity: microText(need), amount: microText(amount) });
    }
    if (base > 0n) costs.set(line.id, div(materialsValue + toMicro(line.priceTotal), base));
  }
  if (consumption.length) await tx.insert(outsourcingConsumption).values(consumption);
  return costs;
}

/**
 * A refund with its goods back: each line gives the supplier back its share of the receipt line's consumption
 * (the refunded quantity over the receipt line's) as negative rows. Their value is what the line's goods left stock
 * at beyond its fee (net of tax) — the part its declared counter, 1408, takes — shared by the consumption's value,
 * so that 1408 stays equal to what the suppliers hold whatever price the refund names.
 */
async function refundGivesBack(ctx: ServiceContext, row: typeof bill.$inferSelect): Promise<void> {
  const { tx, tenantId } = ctx;
  const shares = await rows<{ line_id: string; order_id: string; material_id: string; quantity: string; amount: string; back: string }>(
    tx,
    sql`select l.id as line_id, c.order_id, c.material_id,
               (sum(c.quantity) * l.base_number / nullif(s.base_number, 0))::text as quantity,
               sum(c.amount)::text as amount,
               (-coalesce((select sum(e.amount) from stock_ledger e where e.tenant_id = l.tenant_id and e.bill_id = l.bill_id and e.bill_line_id = l.id), 0) - l.price_total)::text as back
        from bill_line l
        join bill_line s on s.tenant_id = l.tenant_id and s.id = l.source_line_id
        join outsourcing_consumption c on c.tenant_id = l.tenant_id and c.bill_line_id = s.id and c.bill_id = s.bill_id
        where l.tenant_id = ${tenantId} and l.bill_id = ${row.id}
        group by l.tenant_id, l.bill_id, l.id, l.base_number, l.price_total, s.base_number, c.order_id, c.material_id
        order by l.id, c.material_id`,
  );
  const given: Array<typeof outsourcingConsumption.$inferInsert> = [];
  for (const lineId of [...new Set(shares.map((s) => s.line_id))]) {
    const mine = shares.filter((s) => s.line_id === lineId && s.quantity !== null);
    const back = toMicro(mine[0]?.back ?? '0');
    const weight = mine.reduce((t, s) => t + toMicro(s.amount), 0n);
    let left = back;
    mine.forEach((s, i) => {
      // The line's value back shared by each material's consumed value; the last takes what rounding leaves.
      const amount = i === mine.length - 1 ? left : weight === 0n ? 0n : divRound(back * toMicro(s.amount), weight);
      left -= amount;
      given.push({ tenantId, orderId: Number(s.order_id), billId: row.id, billLineId: Number(lineId), materialId: Number(s.material_id), quantity: microText(-roundTo(toMicro(s.quantity), 6)), amount: microText(-amount) });
    });
  }
  if (given.length) await tx.insert(outsourcingConsumption).values(given);
}

/** Whether a refund bill sent its goods back (stock moved). */
const goodsBack = (row: typeof bill.$inferSelect) => meets(OutsourcingRefund.stockWhen, { ...row, ...(row.extra as Record<string, unknown>) });

const outsourcingHook: BillPostingHook = {
  async audited(ctx, decl, row) {
    if (!OWN_TYPES.has(decl.type)) return;
    if (decl.type === OutsourcingRefund.type && goodsBack(row)) await refundGivesBack(ctx, row);
    // A return takes from what the supplier holds; a receipt checked itself while valuing.
    if (decl.type === OutsourcingReturn.type) await assertHeld(ctx, await ordersOf(ctx.tx, ctx.tenantId, row.id));
  },
  async abandoned(ctx, decl, row) {
    if (!OWN_TYPES.has(decl.type)) return;
    // Withdrawn: what the bill consumed or gave back is undone.
    await ctx.tx.execute(sql`delete from outsourcing_consumption where tenant_id = ${ctx.tenantId} and bill_id = ${row.id}`);
    // A pick withdrawn, or a refund's materials taken back, lowers what the supplier holds.
    if (decl.type === OutsourcingPick.type || decl.type === OutsourcingRefund.type) await assertHeld(ctx, await ordersOf(ctx.tx, ctx.tenantId, row.id));
  },
};

export function registerOutsourcingRules(rules: BillRules, hooks: BillPostingHooks): void {
  rules.register(OutsourcingOrder.type, { completeLines: orderLines });
  rules.register(OutsourcingInstock.type, { valuing: receiptValuing });
  hooks.register('outsourcing', outsourcingHook);
}
