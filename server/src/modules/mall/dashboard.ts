import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MallOrderStatus } from '@p8/contract/mall';
import { orderDays, orderOverview, perDay, sumOf, type DashboardSection, type OrderDay } from '../../core/dashboard.ts';
import { mallOrder } from '../../db/schema/index.ts';

/** Orders whose money the shop holds: paid and not given back (a refund sets the order to Refunded). */
const SOLD: ReadonlySet<string> = new Set<MallOrderStatus>(['Paid', 'Shipped', 'Completed']);
const sold = (r: OrderDay) => SOLD.has(r.status);
const ORDERS = '/mall/order';

/** The mall's part of the home dashboard: its orders today, to handle, in all, this month, and per day. */
export const mallDashboard: DashboardSection = {
  key: 'mall',
  title: { zh: '商城订单', en: 'Mall orders' },
  order: 10,
  menus: ['mall_order'],
  async figures(view) {
    const { today, yesterday, monthStart, lastMonthStart } = view.dates;
    // Open refunds are not in the aggregates: counted on mall_order_refund_idx, in the same statement.
    const { totals, recent, extra: refunding } = await orderOverview<number>(
      view,
      'mall',
      sql`(select count(*)::int from ${mallOrder} where ${and(eq(mallOrder.tenantId, view.ctx.tenantId), inArray(mallOrder.refundStatus, ['Requested', 'Approved']))})`,
    );
    const thisMonth = (r: OrderDay) => r.day >= monthStart;
    const lastMonth = (r: OrderDay) => r.day >= lastMonthStart && r.day < monthStart;
    const isToday = (r: OrderDay) => r.day === today;
    const isYesterday = (r: OrderDay) => r.day === yesterday;
    return [
      { key: 'todayOrders', label: { zh: '今日订单', en: "Today's orders" }, format: 'count', value: sumOf(recent, isToday), previous: sumOf(recent, isYesterday), link: ORDERS },
      { key: 'todaySales', label: { zh: '今日销售额', en: "Today's sales" }, format: 'amount', value: sumOf(recent, (r) => isToday(r) && sold(r), 'amount'), previous: sumOf(recent, (r) => isYesterday(r) && sold(r), 'amount') },
      { key: 'pendingPayment', label: { zh: '待付款', en: 'Awaiting payment' }, format: 'count', value: sumOf(totals, (r) => r.status === 'PendingPayment'), link: ORDERS },
      { key: 'toShip', label: { zh: '待发货', en: 'To ship' }, format: 'count', value: sumOf(totals, (r) => r.status === 'Paid'), link: ORDERS },
      { key: 'refunding', label: { zh: '退款处理中', en: 'Open refunds' }, format: 'count', value: refunding, link: ORDERS },
      { key: 'totalOrders', label: { zh: '累计订单', en: 'All orders' }, format: 'count', value: sumOf(totals, () => true) },
      { key: 'totalSales', label: { zh: '累计销售额', en: 'All sales' }, format: 'amount', value: sumOf(totals, sold, 'amount') },
      { key: 'monthOrders', group: 'overview', label: { zh: '本月商城订单', en: 'Mall orders this month' }, format: 'count', value: sumOf(recent, thisMonth), previous: sumOf(recent, lastMonth) },
      { key: 'monthSales', group: 'overview', label: { zh: '本月商城销售额', en: 'Mall sales this month' }, format: 'amount', value: sumOf(recent, (r) => thisMonth(r) && sold(r), 'amount'), previous: sumOf(recent, (r) => lastMonth(r) && sold(r), 'amount') },
    ];
  },
  async series({ ctx }, range) {
    const found = await orderDays(ctx, 'mall', range.start, range.end);
    return [
      { key: 'orders', label: { zh: '下单数', en: 'Orders placed' }, format: 'count', values: perDay(range.days, found, () => true) },
      { key: 'sales', label: { zh: '销售额', en: 'Sales' }, format: 'amount', values: perDay(range.days, found, sold, 'amount') },
    ];
  },
};
