import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  MallOrderStatus,
  MallOrderTab,
  type MallOrder,
  type MallOrderCounts,
  type MallOrderCreate,
  type MallOrderRow,
  type MallOrderSource,
  type MallPayType,
  type MallRefundStatus,
} from '@p8/contract/mall';
import type { ErrorKey } from '@p8/contract/errors';
import { toMicro } from '@p8/contract/bills/decimal';
import { rows } from '../../db/connection.ts';
import { mallOrder, mallOrderItem, mallOrderLog, mallProduct, mallSku } from '../../db/schema/index.ts';
import { callerScope, creatorDeptId } from '../../core/data-scope.ts';
import { BizError, refusal } from '../../core/errors.ts';
import { parseList, runPage, countAll, type ListSpec } from '../../core/list-query.ts';
import type { At, ServiceContext } from '../../core/service-context.ts';
import { cents, customerOf, operatorName, yuan } from './common.ts';
import { iso } from '../../core/envelope.ts';
import { newOrderListeners, sendNotice } from '../../core/notices.ts';
import type { Notice } from '@p8/contract/notices';

/*
 * Mall → orders. An order takes its SKUs' stock when it is placed — one conditional UPDATE per SKU
 * (`stock = stock - n where stock >= n`), so that concurrent orders can never take more than there is —
 * and gives it back when it is cancelled or refunded. Every transition is one conditional UPDATE on the
 * order's current status, so two staff acting on the same order at once cannot both succeed, and each
 * writes a line of the order's timeline. The diagrams are in docs/mall.md.
 */

type OrderRow = typeof mallOrder.$inferSelect;
/** Refunds that are still open block shipping and completing. */
const OPEN_REFUNDS: MallRefundStatus[] = ['Requested', 'Approved'];


const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** yyyyMMddHHmmss + 6 random digits: no counter row to lock, so orders never wait for each other here. */
function newOrderNo(at: Date): string {
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${stamp}${pad(randomInt(0, 1_000_000), 6)}`;
}

const toRow = (o: OrderRow): MallOrderRow => ({
  id: o.id,
  orderNo: o.orderNo,
  source: o.source as MallOrderSource,
  customerId: o.customerId,
  customerName: o.customerName,
  consignee: o.consignee,
  phone: o.phone,
  status: o.status as MallOrderStatus,
  refundStatus: o.refundStatus as MallRefundStatus,
  goodsAmount: Number(o.goodsAmount),
  freightAmount: Number(o.freightAmount),
  discountAmount: Number(o.discountAmount),
  payAmount: Number(o.payAmount),
  refundAmount: Number(o.refundAmount),
  itemCount: o.itemCount,
  firstItemName: o.firstItemName,
  firstItemImage: o.firstItemImage,
  payType: o.payType as MallPayType | null,
  createdAt: o.createdAt.toISOString(),
  paidAt: iso(o.paidAt),
});

const listSpec: ListSpec = {
  fields: {
    orderNo: { column: mallOrder.orderNo, filter: 'like' },
    consignee: { column: mallOrder.consignee, filter: 'like' },
    phone: { column: mallOrder.phone, filter: 'like' },
    customerName: { column: mallOrder.customerName, filter: 'like' },
    customerId: { column: mallOrder.customerId, filter: 'number' },
    source: { column: mallOrder.source, filter: 'eq' },
    refundStatus: { column: mallOrder.refundStatus, filter: 'eq' },
    payAmount: { column: mallOrder.payAmount, sortable: true },
    createdAt: { column: mallOrder.createdAt, sortable: true },
  },
  dateColumn: mallOrder.createdAt,
  defaultOrder: [desc(mallOrder.createdAt), desc(mallOrder.id)],
  table: mallOrder,
};

/** The condition of a list tab: a status, the open refunds, or every order. */
function tabCondition(tab: unknown): SQL | undefined {
  if (tab === undefined || tab === '' || tab === 'all') return undefined;
  if (!MallOrderTab.includes(tab as MallOrderTab)) throw new BizError('BadRequest', { additional: 'tab' });
  if (tab === 'Refunding') return inArray(mallOrder.refundStatus, OPEN_REFUNDS);
  return eq(mallOrder.status, tab as string);
}

/**
 * The caller's data scope over orders: the staff member who placed it and their department then (a proxy
 * order); an order from the shop has no department, so it is seen by a scope of All (docs/decisions.md).
 */
const orderScope = (ctx: ServiceContext) => callerScope(ctx, { dept: mallOrder.ownerDeptId, owner: mallOrder.createdBy });

export async function listOrders(ctx: ServiceContext, query: Record<string, unknown>, source?: MallOrderSource) {
  const parsed = parseList(listSpec, query, [eq(mallOrder.tenantId, ctx.tenantId), tabCondition(query.tab), source ? eq(mallOrder.source, source) : undefined, await orderScope(ctx)]);
  const page = await runPage(parsed, ctx.tx.select().from(mallOrder).$dynamic(), ctx.tx.select(countAll()).from(mallOrder).$dynamic(), { tx: ctx.tx, tenantId: ctx.tenantId });
  return { data: page.data.map(toRow), pagination: page.pagination };
}

/** How many orders each tab holds under the list's search (every filter but the tab itself, and the same source). */
export async function orderCounts(ctx: ServiceContext, query: Record<string, unknown>, source?: MallOrderSource): Promise<MallOrderCounts> {
  const { tab: _tab, ...search } = query;
  const parsed = parseList({ ...listSpec, table: undefined }, search, [eq(mallOrder.tenantId, ctx.tenantId), source ? eq(mallOrder.source, source) : undefined, await orderScope(ctx)]);
  const byStatus = await ctx.tx.select({ status: mallOrder.status, n: count() }).from(mallOrder).where(parsed.where).groupBy(mallOrder.status);
  const [refunding] = await ctx.tx
    .select({ n: count() })
    .from(mallOrder)
    .where(and(parsed.where, inArray(mallOrder.refundStatus, OPEN_REFUNDS)));
  const counts = Object.fromEntries(MallOrderTab.map((t) => [t, 0])) as MallOrderCounts;
  for (const { status, n } of byStatus) {
    if (status in counts) counts[status as MallOrderStatus] = n;
    counts.all += n;
  }
  counts.Refunding = refunding.n;
  return counts;
}

/** An order by id (detail and every write): one outside the caller's data scope is answered as missing. */
async function findOrder(ctx: ServiceContext, id: number): Promise<OrderRow> {
  const [row] = await ctx.tx.select().from(mallOrder).where(and(eq(mallOrder.tenantId, ctx.tenantId), eq(mallOrder.id, id), await orderScope(ctx)));
  if (!row) throw new BizError('MallOrderNotExist', { additional: id });
  return row;
}

export async function getOrder(ctx: ServiceContext, id: number): Promise<MallOrder> {
  const o = await findOrder(ctx, id);
  const items = await ctx.tx
    .select()
    .from(mallOrderItem)
    .where(and(eq(mallOrderItem.tenantId, ctx.tenantId), eq(mallOrderItem.orderId, id)))
    .orderBy(asc(mallOrderItem.id));
  const logs = await ctx.tx
    .select()
    .from(mallOrderLog)
    .where(and(eq(mallOrderLog.tenantId, ctx.tenantId), eq(mallOrderLog.orderId, id)))
    .orderBy(asc(mallOrderLog.createdAt), asc(mallOrderLog.id));
  return {
    ...toRow(o),
    address: o.address,
    buyerRemark: o.buyerRemark,
    adminRemark: o.adminRemark,
    logisticsCompany: o.logisticsCompany,
    logisticsNo: o.logisticsNo,
    refundReason: o.refundReason,
    refuseReason: o.refuseReason,
    cancelReason: o.cancelReason,
    shippedAt: iso(o.shippedAt),
    completedAt: iso(o.completedAt),
    cancelledAt: iso(o.cancelledAt),
    refundedAt: iso(o.refundedAt),
    createdByName: o.createdByName,
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      skuId: i.skuId,
      productName: i.productName,
      specValues: i.specValues,
      image: i.image,
      price: Number(i.price),
      quantity: i.quantity,
      amount: Number(i.amount),
    })),
    logs: logs.map((l) => ({
      id: l.id,
      action: l.action,
      fromStatus: l.fromStatus,
      toStatus: l.toStatus,
      remark: l.remark,
      operatorName: l.operatorName,
      createdAt: l.createdAt.toISOString(),
    })),
  };
}

async function log(ctx: ServiceContext, orderId: number, action: string, from: string | null, to: string | null, remark: string, at: Date) {
  await ctx.tx.insert(mallOrderLog).values({
    tenantId: ctx.tenantId,
    orderId,
    action,
    fromStatus: from,
    toStatus: to,
    remark,
    operatorId: ctx.account.adminId,
    operatorName: await operatorName(ctx),
    createdAt: at,
  });
}

/**
 * Places an order: the SKUs (of products on the shelf) with their quantities, the customer and where it
 * goes. Stock is taken SKU by SKU in id order (so that two orders of the same SKUs lock them in the same
 * order and never deadlock); the first SKU short of stock refuses the whole order, and the transaction
 * gives back what was taken before it. Returns the new order's id and number (the routes answer with the
 * whole order, `getOrder`); the transitions below likewise.
 */
export async function createOrder(ctx: ServiceContext, body: MallOrderCreate, source: MallOrderSource, { at = new Date() }: At = {}): Promise<{ id: number; orderNo: string }> {
  const customer = await customerOf(ctx.tx, ctx.tenantId, body.customerId);
  const lines = [...body.items].sort((a, b) => a.skuId - b.skuId);
  const skus = await ctx.tx
    .select({
      id: mallSku.id,
      productId: mallSku.productId,
      specValues: mallSku.specValues,
      price: mallSku.price,
      image: mallSku.image,
      productName: mallProduct.name,
      images: mallProduct.images,
      onShelf: mallProduct.onShelf,
    })
    .from(mallSku)
    .innerJoin(mallProduct, and(eq(mallProduct.tenantId, mallSku.tenantId), eq(mallProduct.id, mallSku.productId)))
    .where(and(eq(mallSku.tenantId, ctx.tenantId), inArray(mallSku.id, lines.map((l) => l.skuId))));
  const byId = new Map(skus.map((s) => [s.id, s]));
  const labelOf = (sku: (typeof skus)[number]) => [sku.productName, ...sku.specValues].join(' ');
  for (const line of lines) {
    const sku = byId.get(line.skuId);
    if (!sku) throw new BizError('MallSkuNotExist', { additional: line.skuId });
    if (!sku.onShelf) throw new BizError('MallProductOffShelf', { additional: sku.productName });
  }
  // One statement takes every line's stock, each row only if it holds enough (rows are locked in id
  // order); a line missing from what it returns was short, and the whole order is refused.
  const wanted = sql.join(lines.map((l) => sql`(${l.skuId}::bigint, ${l.quantity}::int)`), sql`, `);
  const taken = await rows<{ id: string | number }>(ctx.tx, sql`
    update mall_sku s set stock = s.stock - w.quantity, sales = s.sales + w.quantity
    from (values ${wanted}) as w(id, quantity)
    where s.tenant_id = ${ctx.tenantId} and s.id = w.id and s.stock >= w.quantity
    returning s.id`);
  const takenIds = new Set(taken.map((r) => Number(r.id)));
  const short = lines.find((l) => !takenIds.has(l.skuId));
  if (short) {
    const [held] = await ctx.tx.select({ stock: mallSku.stock }).from(mallSku).where(and(eq(mallSku.tenantId, ctx.tenantId), eq(mallSku.id, short.skuId)));
    throw refusal('MallStockInsufficient', {}, { product: labelOf(byId.get(short.skuId)!), need: toMicro(short.quantity), have: toMicro(held?.stock ?? 0) });
  }
  let goods = 0;
  const items = lines.map((line) => {
    const sku = byId.get(line.skuId)!;
    const amount = cents(Number(sku.price)) * line.quantity;
    goods += amount;
    return {
      tenantId: ctx.tenantId,
      productId: sku.productId,
      skuId: sku.id,
      productName: sku.productName,
      specValues: sku.specValues,
      image: sku.image || sku.images[0] || '',
      price: Number(sku.price),
      quantity: line.quantity,
      amount: yuan(amount),
    };
  });
  const discount = cents(body.discountAmount);
  if (discount > goods) throw refusal('MallDiscountExceed', {}, { need: toMicro(yuan(discount)), have: toMicro(yuan(goods)) });
  const pay = goods + cents(body.freightAmount) - discount;
  // Items keep the order the client listed them in.
  const position = new Map(body.items.map((l, i) => [l.skuId, i]));
  items.sort((a, b) => position.get(a.skuId)! - position.get(b.skuId)!);
  const [created] = await ctx.tx
    .insert(mallOrder)
    .values({
      tenantId: ctx.tenantId,
      orderNo: newOrderNo(at),
      source,
      customerId: customer.id,
      customerName: customer.name,
      consignee: body.consignee,
      phone: body.phone,
      address: body.address,
      status: 'PendingPayment',
      goodsAmount: yuan(goods),
      freightAmount: body.freightAmount,
      discountAmount: body.discountAmount,
      payAmount: yuan(pay),
      itemCount: items.reduce((n, i) => n + i.quantity, 0),
      firstItemName: items[0].productName,
      firstItemImage: items[0].image,
      buyerRemark: body.buyerRemark,
      createdBy: ctx.account.adminId,
      createdByName: source === 'proxy' ? await operatorName(ctx) : '',
      ownerDeptId: source === 'proxy' ? await creatorDeptId(ctx) : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: mallOrder.id, orderNo: mallOrder.orderNo });
  await ctx.tx.insert(mallOrderItem).values(items.map((i) => ({ ...i, orderId: created.id })));
  await log(ctx, created.id, 'create', null, 'PendingPayment', body.buyerRemark, at);
  ctx.audit({ action: 'create', entity: 'mall-order', entityId: created.id, detail: { orderNo: created.orderNo, source, payAmount: yuan(pay) } });
  // The staff who handle orders hear of it (core/notices.ts `newOrderListeners`): from the system when the
  // customer placed it in the mall, from the one acting when staff placed it for a customer (not told themselves).
  const notice: Notice = {
    key: 'mallOrderNew',
    params: {
      orderNo: created.orderNo,
      customerName: customer.name || body.consignee,
      itemCount: String(items.reduce((n, i) => n + i.quantity, 0)),
      firstItemName: items[0].productName,
      payAmount: yuan(pay).toFixed(2),
      consignee: body.consignee,
    },
  };
  await sendNotice(ctx, await newOrderListeners(ctx.tx, ctx.tenantId, 'mall_order'), notice, { at, ...(source === 'mall' ? { from: 'system' } : {}) });
  return created;
}

interface Transition extends At {
  action: string;
  /** Statuses the order may be in. */
  from: MallOrderStatus[];
  /** Refund statuses the order may be in (default: no open refund). */
  refundFrom?: MallRefundStatus[];
  to?: MallOrderStatus;
  refundTo?: MallRefundStatus;
  set?: Partial<typeof mallOrder.$inferInsert>;
  remark?: string;
  /** The refusal when the refund status does not fit (default MallOrderRefundOpen). */
  refundError?: ErrorKey;
}

/** One conditional UPDATE on the order's current status (and refund status); refused with why when it does not fit. */
async function transition(ctx: ServiceContext, id: number, t: Transition): Promise<OrderRow> {
  const at = t.at ?? new Date();
  const refundFrom = t.refundFrom ?? ['None', 'Refused'];
  const [updated] = await ctx.tx
    .update(mallOrder)
    .set({ ...t.set, ...(t.to && { status: t.to }), ...(t.refundTo && { refundStatus: t.refundTo }), updatedAt: at })
    .where(and(eq(mallOrder.tenantId, ctx.tenantId), eq(mallOrder.id, id), inArray(mallOrder.status, t.from), inArray(mallOrder.refundStatus, refundFrom), await orderScope(ctx)))
    .returning();
  if (!updated) {
    const current = await findOrder(ctx, id);
    if (!t.from.includes(current.status as MallOrderStatus)) throw new BizError('MallOrderStatusError', { additional: current.status });
    throw new BizError(t.refundError ?? 'MallOrderRefundOpen', { additional: current.refundStatus });
  }
  const fromStatus = t.to && t.from.length === 1 ? t.from[0] : null;
  await log(ctx, id, t.action, t.refundTo ? null : fromStatus, t.to ?? t.refundTo ?? null, t.remark ?? '', at);
  ctx.audit({ action: t.action, entity: 'mall-order', entityId: id, detail: { orderNo: updated.orderNo, status: updated.status, refundStatus: updated.refundStatus } });
  return updated;
}

/** Gives an order's stock back to its SKUs (a SKU removed from its product since is simply skipped). */
async function giveStockBack(ctx: ServiceContext, orderId: number) {
  const items = await ctx.tx
    .select({ skuId: mallOrderItem.skuId, quantity: mallOrderItem.quantity })
    .from(mallOrderItem)
    .where(and(eq(mallOrderItem.tenantId, ctx.tenantId), eq(mallOrderItem.orderId, orderId)))
    .orderBy(asc(mallOrderItem.skuId));
  for (const item of items) {
    await ctx.tx
      .update(mallSku)
      .set({ stock: sql`${mallSku.stock} + ${item.quantity}`, sales: sql`greatest(${mallSku.sales} - ${item.quantity}, 0)` })
      .where(and(eq(mallSku.tenantId, ctx.tenantId), eq(mallSku.id, item.skuId)));
  }
}

/** Payment received (offline, or confirmed by hand): PendingPayment → Paid. */
export async function payOrder(ctx: ServiceContext, id: number, payType: MallPayType, { at = new Date() }: At = {}) {
  await transition(ctx, id, { action: 'pay', from: ['PendingPayment'], to: 'Paid', set: { payType, paidAt: at }, at });
}

/** Shipped with carrier and tracking number: Paid → Shipped; not while a refund is open. */
export async function shipOrder(ctx: ServiceContext, id: number, logistics: { logisticsCompany: string; logisticsNo: string }, { at = new Date() }: At = {}) {
  await transition(ctx, id, { action: 'ship', from: ['Paid'], to: 'Shipped', set: { ...logistics, shippedAt: at }, remark: `${logistics.logisticsCompany} ${logistics.logisticsNo}`, at });
}

/** Received: Shipped → Completed; not while a refund is open. */
export async function completeOrder(ctx: ServiceContext, id: number, { at = new Date() }: At = {}) {
  await transition(ctx, id, { action: 'complete', from: ['Shipped'], to: 'Completed', set: { completedAt: at }, at });
}

/**
 * Cancelled before payment: PendingPayment → Cancelled, its stock given back. `auto`: the unpaid-order job
 * cancels it (timeline action `auto_cancel`).
 */
export async function cancelOrder(ctx: ServiceContext, id: number, reason: string, { at = new Date(), auto = false }: At & { auto?: boolean } = {}) {
  const action = auto ? 'auto_cancel' : 'cancel';
  await transition(ctx, id, { action, from: ['PendingPayment'], to: 'Cancelled', set: { cancelReason: reason, cancelledAt: at }, remark: reason, at });
  await giveStockBack(ctx, id);
}

/** A refund asked for (of a paid, shipped or completed order): refund None / Refused → Requested. */
export async function applyRefund(ctx: ServiceContext, id: number, body: { reason: string; amount?: number }, { at = new Date() }: At = {}) {
  const order = await findOrder(ctx, id);
  const amount = body.amount ?? Number(order.payAmount);
  if (cents(amount) > cents(Number(order.payAmount))) throw refusal('MallRefundAmountExceed', {}, { need: toMicro(yuan(cents(amount))), have: toMicro(order.payAmount) });
  // A refund of nothing would still make the order Refunded (no sale, its stock back) while the money stays:
  // only an order paid nothing is refunded for nothing.
  if (cents(amount) === 0 && cents(Number(order.payAmount)) > 0) throw new BizError('AmountMustGreaterThanZero');
  await transition(ctx, id, {
    action: 'refund_apply',
    from: ['Paid', 'Shipped', 'Completed'],
    refundFrom: ['None', 'Refused'],
    refundTo: 'Requested',
    refundError: 'MallRefundStatusError',
    set: { refundAmount: amount, refundReason: body.reason, refuseReason: '' },
    remark: body.reason,
    at,
  });
}

/** The shop agrees to refund: Requested → Approved (the money goes back with `confirmRefund`). */
export async function approveRefund(ctx: ServiceContext, id: number, { at = new Date() }: At = {}) {
  await transition(ctx, id, { action: 'refund_approve', from: ['Paid', 'Shipped', 'Completed'], refundFrom: ['Requested'], refundTo: 'Approved', refundError: 'MallRefundStatusError', at });
}

/** The shop refuses the refund: Requested → Refused; the order carries on where it was. */
export async function refuseRefund(ctx: ServiceContext, id: number, reason: string, { at = new Date() }: At = {}) {
  await transition(ctx, id, {
    action: 'refund_refuse',
    from: ['Paid', 'Shipped', 'Completed'],
    refundFrom: ['Requested'],
    refundTo: 'Refused',
    refundError: 'MallRefundStatusError',
    set: { refuseReason: reason },
    remark: reason,
    at,
  });
}

/** The money went back: refund Approved → Refunded, the order → Refunded, its stock given back. */
export async function confirmRefund(ctx: ServiceContext, id: number, { at = new Date() }: At = {}) {
  await transition(ctx, id, {
    action: 'refund_confirm',
    from: ['Paid', 'Shipped', 'Completed'],
    refundFrom: ['Approved'],
    to: 'Refunded',
    refundTo: 'Refunded',
    refundError: 'MallRefundStatusError',
    set: { refundedAt: at },
    at,
  });
  await giveStockBack(ctx, id);
}

/** The shop's own remark on the order (any status). */
export async function remarkOrder(ctx: ServiceContext, id: number, remark: string) {
  const before = await findOrder(ctx, id);
  await ctx.tx.update(mallOrder).set({ adminRemark: remark, updatedAt: new Date() }).where(and(eq(mallOrder.tenantId, ctx.tenantId), eq(mallOrder.id, id)));
  await log(ctx, id, 'remark', null, null, remark, new Date());
  ctx.audit({ action: 'remark', entity: 'mall-order', entityId: id, detail: { orderNo: before.orderNo, adminRemark: { from: before.adminRemark, to: remark } } });
}
