import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../connection.ts';
import { admin, mallProduct, mallSku, message, partner } from '../schema/index.ts';
import { withServiceContext, type Caller } from '../../core/service-context.ts';
import { setStaffNotify } from '../../modules/system/staff-service.ts';
import { sendMessage } from '../../modules/office/messages.ts';
import { createOrder as createServiceOrder } from '../../modules/service/orders.ts';
import { createOrder as createMallOrder } from '../../modules/mall/order.ts';
import { notifyAttendanceAnomalies } from '../../modules/people/attendance-notices.ts';
import { localDate, nextDate } from '../../modules/people/attendance.ts';
import { DEMO_TENANTS } from './demo.ts';

/*
 * The first demo tenant's message center (docs/people.md): once the other demo data is in, the administrator
 * switches new-order notices on, and through the services — each acting as the one who would — a workshop
 * worker writes to them, places a service order and a mall order for customers (the administrator is told of
 * both), and the attendance job tells the last workday's anomalies (the administrator's own missed clock-out
 * among them). The bell then shows unread messages of several kinds. Seeded once: a run that finds a
 * message from that worker to the administrator does nothing.
 */

const WRITER = 'wangqiang';

/** Seeds the first demo tenant's messages; false when done already (or the tenant, its worker or its mall is missing). */
export async function seedMessagesDemo(app: FastifyInstance, database: Database, config: Config, now = new Date()): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const found = await database.withSystem((tx) =>
    tx.select({ tenantId: admin.tenantId, id: admin.id, name: admin.name }).from(admin).where(inArray(admin.name, [demo.adminName, WRITER])),
  );
  const me = found.find((a) => a.name === demo.adminName);
  const writer = found.find((a) => a.name === WRITER && a.tenantId === me?.tenantId);
  if (!me || !writer) return false;
  const tenantId = me.tenantId;
  const actingAs = (adminId: number): Caller => ({ tenantId, account: { tenantId, adminId, sessionId: '' }, config, registries: app.registries, log: app.log, ip: '', access: app.access });
  const unit = <T>(adminId: number, fn: Parameters<typeof withServiceContext<T>>[2]) => withServiceContext(database, actingAs(adminId), fn);

  const shop = await unit(writer.id, async (ctx) => {
    const [done] = await ctx.tx
      .select({ id: message.id })
      .from(message)
      .where(and(eq(message.tenantId, tenantId), eq(message.senderId, writer.id), eq(message.receiverId, me.id)))
      .limit(1);
    if (done) return undefined;
    const [sku] = await ctx.tx
      .select({ id: mallSku.id })
      .from(mallSku)
      .innerJoin(mallProduct, and(eq(mallProduct.tenantId, mallSku.tenantId), eq(mallProduct.id, mallSku.productId)))
      .where(and(eq(mallSku.tenantId, tenantId), eq(mallProduct.onShelf, true), gt(mallSku.stock, 5)))
      .orderBy(asc(mallSku.id))
      .limit(1);
    const [customer] = await ctx.tx
      .select({ id: partner.id })
      .from(partner)
      .where(and(eq(partner.tenantId, tenantId), eq(partner.kind, 'customer'), eq(partner.enabled, true)))
      .orderBy(asc(partner.id))
      .limit(1);
    return sku && customer ? { skuId: sku.id, customerId: customer.id } : undefined;
  });
  if (!shop) return false;
  // The administrator hears of new orders from now on (the demo's own past orders told nobody).
  await unit(me.id, (ctx) => setStaffNotify(ctx, me.id, 'newOrderNotify', true));
  await unit(writer.id, async (ctx) => {
    await sendMessage(ctx, { receiverIds: [me.id], title: '本周五下午盘点', content: '<p>周五 14:00 起成品仓盘点，请安排两名同事协助，盘点期间暂停发货。</p>' });
    await createServiceOrder(ctx, { serviceName: '空调清洗（挂机）', customerName: '林女士', customerPhone: '13800138011', address: '深圳市南山区科技园南区 8 栋 1202', amount: 180 }, { source: 'proxy', appointmentsOpen: false });
    await createMallOrder(ctx, { customerId: shop.customerId, consignee: '林女士', phone: '13800138011', address: '深圳市南山区科技园南区 8 栋 1202', items: [{ skuId: shop.skuId, quantity: 2 }], freightAmount: 0, discountAmount: 0, buyerRemark: '工作日送货' }, 'proxy');
  });
  // The last workday's anomalies, as the nightly job tells them (the day after it, in the morning).
  await notifyAttendanceAnomalies({ database, config, registries: app.registries, access: app.access, log: app.log }, { now: morningAfterLastWorkday(now) });
  return true;
}

/** 08:00 of the day after the last weekday before `now` (the demo calendars rest on Saturdays and Sundays). */
function morningAfterLastWorkday(now: Date): Date {
  let date = nextDate(localDate(now), -1);
  for (let i = 0; i < 7; i++, date = nextDate(date, -1)) {
    const weekday = new Date(`${date}T12:00:00`).getDay();
    if (weekday !== 0 && weekday !== 6) break;
  }
  return new Date(`${nextDate(date)}T08:00:00`);
}
