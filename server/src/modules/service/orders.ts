import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  CANCELLABLE_STATUSES,
  DISPATCHABLE_STATUSES,
  OPEN_SERVICE_STATUSES,
  ServiceOrderStatus,
  type ServiceOrderAudit,
  type ServiceOrderCancel,
  type ServiceOrderCounts,
  type ServiceOrderCreate,
  type ServiceOrderDetail,
  type ServiceOrderDispatch,
  type ServiceOrderLogRow,
  type ServiceOrderRow,
  type ServiceOrderSource,
  type ServiceOrderStep,
} from '@p8/contract/service';
import type { Notice, NoticeKey } from '@p8/contract/notices';
import { systemSettingsSchema } from '@p8/contract/tenant-config';
import { admin, serviceOrder, serviceOrderLog, serviceStaff, systemSetting } from '../../db/schema/index.ts';
import { nextBillCode } from '../../core/code-generator.ts';
import { newOrderListeners, sendNotice } from '../../core/notices.ts';
import { callerScope, creatorDeptId } from '../../core/data-scope.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { callerPermissions } from '../../core/permissions.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { At, ServiceContext } from '../../core/service-context.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { bookSlot, releaseSlot } from '../../core/appointment-slots.ts';

/*
 * Service orders and their status flow (docs/service.md). Every transition is one conditional update
 * (`where status = <the status it was read in>`): of two parallel transitions of one order exactly one
 * applies, the other is refused. Each writes a timeline entry and an audit entry in the same transaction.
 */

/** Which orders a list shows: all of them, those dispatched to me, or those staff placed (proxy orders). */
export type OrderScope = 'all' | 'mine' | 'proxy';

const staff = alias(admin, 'staff');
const creator = alias(admin, 'creator');

const listSpec: ListSpec = {
  fields: {
    orderNo: { column: serviceOrder.orderNo, filter: 'like', sortable: true },
    serviceName: { column: serviceOrder.serviceName, filter: 'like' },
    customerName: { column: serviceOrder.customerName, filter: 'like' },
    customerPhone: { column: serviceOrder.customerPhone, filter: 'like' },
    source: { column: serviceOrder.source, filter: 'eq' },
    staffId: { column: serviceOrder.staffId, filter: 'number' },
    appointmentDate: { column: serviceOrder.appointmentDate, filter: 'eq', sortable: true },
    amount: { column: serviceOrder.amount, sortable: true, sum: true },
    createdAt: { column: serviceOrder.createdAt, sortable: true },
  },
  dateColumn: serviceOrder.createdAt,
  defaultOrder: [desc(serviceOrder.createdAt), desc(serviceOrder.id)],
};

const selection = {
  order: serviceOrder,
  staffName: staff.realName,
  staffAccount: staff.name,
  creatorName: creator.realName,
  creatorAccount: creator.name,
};

type Order = typeof serviceOrder.$inferSelect;
interface Selected {
  order: Order;
  staffName: string | null;
  staffAccount: string | null;
  creatorName: string | null;
  creatorAccount: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toRow = ({ order: o, ...names }: Selected): ServiceOrderRow => ({
  id: o.id,
  orderNo: o.orderNo,
  source: o.source as ServiceOrderSource,
  status: o.status as ServiceOrderStatus,
  serviceName: o.serviceName,
  customerName: o.customerName,
  customerPhone: o.customerPhone,
  address: o.address,
  amount: Number(o.amount),
  appointmentDate: o.appointmentDate,
  slotId: o.slotId,
  slotTime: o.slotTime,
  staffId: o.staffId,
  staffName: names.staffName || names.staffAccount || '',
  remark: o.remark,
  cancelReason: o.cancelReason,
  createdById: o.createdBy,
  createdByName: names.creatorName || names.creatorAccount || '',
  createdAt: o.createdAt.toISOString(),
  dispatchedAt: iso(o.dispatchedAt),
  startedAt: iso(o.startedAt),
  completedAt: iso(o.completedAt),
  cancelledAt: iso(o.cancelledAt),
});

function withNames(ctx: ServiceContext) {
  return ctx.tx
    .select(selection)
    .from(serviceOrder)
    .leftJoin(staff, and(eq(staff.tenantId, serviceOrder.tenantId), eq(staff.id, serviceOrder.staffId)))
    .leftJoin(creator, and(eq(creator.tenantId, serviceOrder.tenantId), eq(creator.id, serviceOrder.createdBy)));
}

/**
 * The caller's data scope over orders: the staff member who placed it (a proxy order) and their department
 * then, and its assignee; an order the customer placed has no department (docs/decisions.md, "Who sees what").
 */
export const orderDataScope = (ctx: ServiceContext) => callerScope(ctx, { dept: serviceOrder.ownerDeptId, owner: serviceOrder.createdBy, alsoOwners: [serviceOrder.staffId] });

/** What a list shows: "mine" the orders dispatched to the caller; the others, orders within the caller's data scope. */
async function scopeConditions(ctx: ServiceContext, scope: OrderScope): Promise<Array<SQL | undefined>> {
  const conditions: Array<SQL | undefined> = [eq(serviceOrder.tenantId, ctx.tenantId)];
  if (scope === 'mine') conditions.push(eq(serviceOrder.staffId, ctx.account.adminId));
  else conditions.push(await orderDataScope(ctx));
  if (scope === 'proxy') conditions.push(eq(serviceOrder.source, 'proxy'));
  return conditions;
}

/** `status`: one status or a comma list of them (the list's own filter: parseList knows no text lists). */
function splitStatus(query: Record<string, unknown>): { filters: Record<string, unknown>; status?: SQL } {
  const { status: raw, ...filters } = query;
  if (raw === undefined || raw === '') return { filters };
  const values = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).filter(Boolean);
  if (values.some((v) => !ServiceOrderStatus.includes(v as ServiceOrderStatus))) throw new BizError('BadRequest', { additional: 'status' });
  return { filters, status: values.length ? inArray(serviceOrder.status, values) : undefined };
}

export async function listOrders(ctx: ServiceContext, query: Record<string, unknown>, scope: OrderScope) {
  const { filters, status } = splitStatus(query);
  const parsed = parseList(listSpec, filters, [...(await scopeConditions(ctx, scope)), status]);
  const page = await runPage(parsed, withNames(ctx).$dynamic(), ctx.tx.select(countAll()).from(serviceOrder).$dynamic());
  return { data: (page.data as Selected[]).map(toRow), pagination: page.pagination };
}

/** Orders per status under the list's filters except the status itself (the counts of the status tabs). */
export async function countOrders(ctx: ServiceContext, query: Record<string, unknown>, scope: OrderScope): Promise<ServiceOrderCounts> {
  const { filters } = splitStatus(query);
  const parsed = parseList(listSpec, filters, await scopeConditions(ctx, scope));
  const rows = await ctx.tx.select({ status: serviceOrder.status, n: count() }).from(serviceOrder).where(parsed.where).groupBy(serviceOrder.status);
  const counts = Object.fromEntries(ServiceOrderStatus.map((s) => [s, 0])) as ServiceOrderCounts;
  counts.all = 0;
  for (const row of rows) {
    counts[row.status as ServiceOrderStatus] = Number(row.n);
    counts.all += Number(row.n);
  }
  return counts;
}

/** An order by id (detail and every write): one outside the caller's data scope (its assignee is always in it) is answered as missing. */
async function findOrder(ctx: ServiceContext, id: number): Promise<Order> {
  const [row] = await ctx.tx.select().from(serviceOrder).where(and(eq(serviceOrder.tenantId, ctx.tenantId), eq(serviceOrder.id, id), await orderDataScope(ctx))).limit(1);
  if (!row) throw new BizError('ServiceOrderNotExist', { additional: id });
  return row;
}

/** An order the scope shows (a "mine" order is one dispatched to the caller). */
export async function assertOrderVisible(ctx: ServiceContext, id: number, scope: OrderScope = 'all'): Promise<Order> {
  const order = await findOrder(ctx, id);
  if ((scope === 'mine' && order.staffId !== ctx.account.adminId) || (scope === 'proxy' && order.source !== 'proxy')) throw new BizError('ServiceOrderNotExist', { additional: id });
  return order;
}

/**
 * Who may read and write an order's chat — over REST and the WebSocket alike, both through here: its
 * assignee, or someone holding the order screen (all orders; proxy orders, for a proxy order) whose data
 * scope holds the order. Anyone else is answered as if the order did not exist.
 */
export async function assertChatAccess(ctx: ServiceContext, id: number): Promise<Order> {
  const [row] = await ctx.tx.select().from(serviceOrder).where(and(eq(serviceOrder.tenantId, ctx.tenantId), eq(serviceOrder.id, id))).limit(1);
  if (row && row.staffId === ctx.account.adminId) return row;
  const perms = await callerPermissions(ctx.tx, ctx.account);
  const screen = perms.isSuper || perms.menuNames.has('service_order') || (row?.source === 'proxy' && perms.menuNames.has('service_proxyOrder'));
  if (!row || !screen) throw new BizError('ServiceOrderNotExist', { additional: id });
  return findOrder(ctx, id);
}

async function orderRow(ctx: ServiceContext, id: number): Promise<ServiceOrderRow> {
  const [row] = await withNames(ctx).where(and(eq(serviceOrder.tenantId, ctx.tenantId), eq(serviceOrder.id, id)));
  return toRow(row as Selected);
}

export async function getOrder(ctx: ServiceContext, id: number, scope: OrderScope): Promise<ServiceOrderDetail> {
  await assertOrderVisible(ctx, id, scope);
  const logs = await ctx.tx
    .select({ log: serviceOrderLog, name: admin.realName, account: admin.name })
    .from(serviceOrderLog)
    .leftJoin(admin, and(eq(admin.tenantId, serviceOrderLog.tenantId), eq(admin.id, serviceOrderLog.adminId)))
    .where(and(eq(serviceOrderLog.tenantId, ctx.tenantId), eq(serviceOrderLog.orderId, id)))
    .orderBy(asc(serviceOrderLog.id));
  return {
    ...(await orderRow(ctx, id)),
    logs: logs.map(({ log, name, account }): ServiceOrderLogRow => ({
      id: log.id,
      action: log.action as ServiceOrderLogRow['action'],
      fromStatus: log.fromStatus as ServiceOrderStatus | null,
      toStatus: log.toStatus as ServiceOrderStatus,
      adminId: log.adminId,
      adminName: name || account || '',
      remark: log.remark,
      createdAt: log.createdAt.toISOString(),
    })),
  };
}

async function writeLog(ctx: ServiceContext, orderId: number, action: ServiceOrderLogRow['action'], fromStatus: string | null, toStatus: string, remark: string | null | undefined, at: Date) {
  await ctx.tx.insert(serviceOrderLog).values({ tenantId: ctx.tenantId, orderId, action, fromStatus, toStatus, adminId: ctx.account.adminId, remark: remark ?? null, createdAt: at });
}

/**
 * Who hears of a new order: a notice in the message center to staff with newOrderNotify who may open the
 * service orders (core/notices.ts `newOrderListeners`); an SMS to staff with smsNotify.
 */
export interface NewOrderNotice {
  orderNo: string;
  serviceName: string;
  /** Phones to send the SMS notice to, after the commit. */
  smsPhones: string[];
}

/** A notice about an order: each reader reads it in their language. */
function orderNotice(key: NoticeKey, order: Order): Notice {
  return {
    key,
    params: {
      orderNo: order.orderNo,
      serviceName: order.serviceName,
      customerName: order.customerName,
      customerPhone: order.customerPhone,
      address: order.address,
      appointmentDate: order.appointmentDate ?? '',
      slotTime: order.slotTime ?? '',
    },
  };
}

async function notifyNewOrder(ctx: ServiceContext, order: Order): Promise<NewOrderNotice> {
  const listeners = await ctx.tx
    .select({ id: admin.id, phone: admin.phone, smsNotify: admin.smsNotify })
    .from(admin)
    .where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.enabled, true)));
  // A customer's own (online) order comes from the system; staff placing one for a customer are not told of it.
  await sendNotice(ctx, await newOrderListeners(ctx.tx, ctx.tenantId, 'service_order'), orderNotice('serviceOrderNew', order), order.source === 'online' ? { from: 'system' } : {});
  const [settings] = await ctx.tx
    .select({ value: systemSetting.value })
    .from(systemSetting)
    .where(and(eq(systemSetting.tenantId, ctx.tenantId), eq(systemSetting.key, 'orderNotifyPhones')));
  const configured = systemSettingsSchema.shape.orderNotifyPhones.safeParse(settings?.value ?? []);
  const phones = new Set([...listeners.filter((a) => a.smsNotify && a.phone).map((a) => a.phone!), ...(configured.success ? configured.data : [])]);
  return { orderNo: order.orderNo, serviceName: order.serviceName, smsPhones: [...phones] };
}

/**
 * Places an order (online by the customer, or proxy by staff) with its appointment, if any: the slot's
 * place is taken in the same transaction. `appointmentsOpen` is the public config's openAppointment, read
 * by the caller before the transaction.
 */
export async function createOrder(
  ctx: ServiceContext,
  input: ServiceOrderCreate,
  opts: { source: ServiceOrderSource; appointmentsOpen: boolean } & At,
): Promise<{ order: ServiceOrderRow; notice: NewOrderNotice }> {
  let slotTime: string | null = null;
  if (input.appointmentDate && input.slotId) {
    if (!opts.appointmentsOpen) throw new BizError('AppointmentClosed');
    const today = new Date().toISOString().slice(0, 10);
    if (input.appointmentDate < today) throw new BizError('TimeSlotNotAvailable', { additional: input.appointmentDate });
    slotTime = await bookSlot(ctx, input.appointmentDate, input.slotId);
  }
  const now = opts.at ?? new Date();
  const orderNo = await nextBillCode(ctx.tx, ctx.tenantId, 'service_order', 'FW', now.toISOString().slice(0, 10));
  const [created] = await ctx.tx
    .insert(serviceOrder)
    .values({
      tenantId: ctx.tenantId,
      orderNo,
      source: opts.source,
      status: 'PendingDispatch',
      serviceName: input.serviceName,
      customerName: input.customerName,
      customerPhone: input.customerPhone,
      address: input.address,
      amount: input.amount,
      appointmentDate: input.appointmentDate ?? null,
      slotId: input.slotId ?? null,
      slotTime,
      remark: input.remark ?? null,
      createdBy: ctx.account.adminId,
      ownerDeptId: opts.source === 'proxy' ? await creatorDeptId(ctx) : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await writeLog(ctx, created.id, 'create', null, 'PendingDispatch', input.remark, now);
  const notice = await notifyNewOrder(ctx, created);
  const order = await orderRow(ctx, created.id);
  ctx.audit({ action: 'create', entity: 'service-order', entityId: created.id, detail: { ...order } });
  return { order, notice };
}

/** Moves an order from `from` (what it was read in) to `to`; refused when another change came first. */
async function transition(
  ctx: ServiceContext,
  order: Order,
  to: ServiceOrderStatus,
  action: ServiceOrderLogRow['action'],
  values: Partial<typeof serviceOrder.$inferInsert>,
  remark: string | null | undefined,
  at: Date,
): Promise<ServiceOrderRow> {
  const changed = await ctx.tx
    .update(serviceOrder)
    .set({ ...values, status: to, updatedAt: at })
    .where(and(eq(serviceOrder.tenantId, ctx.tenantId), eq(serviceOrder.id, order.id), eq(serviceOrder.status, order.status)))
    .returning({ id: serviceOrder.id });
  if (!changed.length) throw new BizError('ServiceOrderStatusProhibit', { additional: order.orderNo });
  await writeLog(ctx, order.id, action, order.status, to, remark, at);
  ctx.audit({ action, entity: 'service-order', entityId: order.id, detail: { orderNo: order.orderNo, from: order.status, to, ...(remark ? { remark } : {}) } });
  return orderRow(ctx, order.id);
}

function assertStatus(order: Order, allowed: readonly ServiceOrderStatus[]) {
  if (!allowed.includes(order.status as ServiceOrderStatus)) throw new BizError('ServiceOrderStatusProhibit', { additional: order.orderNo });
}

/**
 * Dispatches (or re-dispatches) an order to an enabled staff member. With the tenant's dispatchAutoAudit
 * the dispatch is approved at once (PendingService); otherwise it waits for review (PendingAudit).
 */
export async function dispatchOrder(ctx: ServiceContext, { id, staffId, remark }: ServiceOrderDispatch, { at = new Date() }: At = {}): Promise<ServiceOrderRow> {
  const order = await findOrder(ctx, id);
  assertStatus(order, DISPATCHABLE_STATUSES);
  const [target] = await ctx.tx
    .select({ id: admin.id })
    .from(admin)
    .where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, staffId), eq(admin.enabled, true), eq(admin.isLock, false)));
  if (!target) throw new BizError('StaffNotAvailable', { additional: staffId });
  // Once the tenant keeps service staff, orders go to its enabled service staff only.
  const technicians = await ctx.tx.select({ adminId: serviceStaff.adminId, enabled: serviceStaff.enabled }).from(serviceStaff).where(eq(serviceStaff.tenantId, ctx.tenantId));
  if (technicians.length && !technicians.some((s) => s.adminId === staffId && s.enabled)) throw new BizError('NotServiceStaff', { additional: staffId });
  const { dispatchAutoAudit } = await readTenantConfig(ctx.tx, ctx.tenantId);
  const to: ServiceOrderStatus = dispatchAutoAudit ? 'PendingService' : 'PendingAudit';
  const row = await transition(ctx, order, to, 'dispatch', { staffId, dispatchedAt: at }, remark, at);
  // The assignee hears of it in the message center (the header bell), dispatched or re-dispatched; not when
  // they dispatched it to themselves (a message's sender and receiver differ).
  if (staffId !== ctx.account.adminId) {
    await sendNotice(ctx, [staffId], orderNotice('serviceOrderDispatched', order), { at });
  }
  return row;
}

/** Reviews a dispatch: passed, the order waits for its service; refused, it goes back to be dispatched. */
export async function auditDispatch(ctx: ServiceContext, { id, pass, reason }: ServiceOrderAudit, { at = new Date() }: At = {}): Promise<ServiceOrderRow> {
  const order = await findOrder(ctx, id);
  assertStatus(order, ['PendingAudit']);
  return pass
    ? transition(ctx, order, 'PendingService', 'audit_pass', {}, reason, at)
    : transition(ctx, order, 'PendingDispatch', 'audit_refuse', { staffId: null, dispatchedAt: null }, reason, at);
}

/** The assignee starts the service. */
export async function startOrder(ctx: ServiceContext, { id, remark }: ServiceOrderStep, { at = new Date() }: At = {}): Promise<ServiceOrderRow> {
  const order = await findOrder(ctx, id);
  if (order.staffId !== ctx.account.adminId) throw forbidden('OnlyAssigneeCanOperate');
  assertStatus(order, ['PendingService']);
  return transition(ctx, order, 'InService', 'start', { startedAt: at }, remark, at);
}

/** The assignee completes the service. */
export async function completeOrder(ctx: ServiceContext, { id, remark }: ServiceOrderStep, { at = new Date() }: At = {}): Promise<ServiceOrderRow> {
  const order = await findOrder(ctx, id);
  if (order.staffId !== ctx.account.adminId) throw forbidden('OnlyAssigneeCanOperate');
  assertStatus(order, ['InService']);
  return transition(ctx, order, 'Completed', 'complete', { completedAt: at }, remark, at);
}

/** Cancels an order whose service has not started; its appointment's place is given back. */
export async function cancelOrder(ctx: ServiceContext, { id, reason }: ServiceOrderCancel, { at = new Date() }: At = {}): Promise<ServiceOrderRow> {
  const order = await findOrder(ctx, id);
  assertStatus(order, CANCELLABLE_STATUSES);
  const row = await transition(ctx, order, 'Cancelled', 'cancel', { cancelReason: reason, cancelledAt: at }, reason, at);
  if (order.appointmentDate && order.slotId) await releaseSlot(ctx, order.appointmentDate, order.slotId);
  return row;
}

/**
 * Staff an order can be dispatched to (enabled, not locked), for the dispatch dialog: the enabled service
 * staff with their skills, areas and current load, least loaded first, once the tenant keeps any; else every
 * such staff member.
 */
export async function dispatchableStaff(ctx: ServiceContext) {
  const load = sql<number>`(select count(*)::int from service_order o where o.tenant_id = ${admin.tenantId} and o.staff_id = ${admin.id}
    and o.status in (${sql.join(OPEN_SERVICE_STATUSES.map((s) => sql`${s}`), sql`, `)}))`;
  const [kept] = await ctx.tx.select({ n: count() }).from(serviceStaff).where(eq(serviceStaff.tenantId, ctx.tenantId));
  const rows = await ctx.tx
    .select({ id: admin.id, name: admin.name, realName: admin.realName, phone: admin.phone, skills: serviceStaff.skills, areas: serviceStaff.areas, load })
    .from(admin)
    .leftJoin(serviceStaff, and(eq(serviceStaff.tenantId, admin.tenantId), eq(serviceStaff.adminId, admin.id)))
    .where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.enabled, true), eq(admin.isLock, false), Number(kept?.n ?? 0) > 0 ? eq(serviceStaff.enabled, true) : undefined))
    .orderBy(asc(load), asc(admin.id));
  return rows.map((r) => ({ id: r.id, name: r.realName || r.name, account: r.name, phone: r.phone ?? '', skills: r.skills ?? [], areas: r.areas ?? [], load: Number(r.load) }));
}
