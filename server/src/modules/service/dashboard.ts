import type { ServiceOrderStatus } from '@p8/contract/service';
import { orderDays, orderOverview, perDay, sumOf, type DashboardSection, type OrderDay } from '../../core/dashboard.ts';

const is =
  (...statuses: ServiceOrderStatus[]) =>
  (r: OrderDay) =>
    (statuses as string[]).includes(r.status);
const ORDERS = '/service/order';

/** The service orders' part of the home dashboard: today, to handle, in all, this month, and per day. */
export const serviceDashboard: DashboardSection = {
  key: 'service',
  title: { zh: '服务订单', en: 'Service orders' },
  order: 20,
  // Company-wide counts and amounts: the all-orders screen's, not a technician's "my orders".
  menus: ['service_order'],
  async figures(view) {
    const { today, yesterday, monthStart, lastMonthStart } = view.dates;
    const { totals, recent } = await orderOverview(view, 'service');
    const thisMonth = (r: OrderDay) => r.day >= monthStart;
    const lastMonth = (r: OrderDay) => r.day >= lastMonthStart && r.day < monthStart;
    const completed = is('Completed');
    return [
      { key: 'todayOrders', label: { zh: '今日订单', en: "Today's orders" }, format: 'count', value: sumOf(recent, (r) => r.day === today), previous: sumOf(recent, (r) => r.day === yesterday), link: ORDERS },
      { key: 'pendingDispatch', label: { zh: '待派单', en: 'To dispatch' }, format: 'count', value: sumOf(totals, is('PendingDispatch')), link: ORDERS },
      { key: 'pendingAudit', label: { zh: '待审核', en: 'To review' }, format: 'count', value: sumOf(totals, is('PendingAudit')), link: ORDERS },
      { key: 'inService', label: { zh: '待服务 / 服务中', en: 'To serve / in service' }, format: 'count', value: sumOf(totals, is('PendingService', 'InService')), link: ORDERS },
      { key: 'totalCompleted', label: { zh: '累计完成', en: 'All completed' }, format: 'count', value: sumOf(totals, completed) },
      { key: 'totalAmount', label: { zh: '累计完成金额', en: 'All completed amount' }, format: 'amount', value: sumOf(totals, completed, 'amount') },
      { key: 'monthOrders', group: 'overview', label: { zh: '本月服务订单', en: 'Service orders this month' }, format: 'count', value: sumOf(recent, thisMonth), previous: sumOf(recent, lastMonth) },
      { key: 'monthCompleted', group: 'overview', label: { zh: '本月服务完成金额', en: 'Service amount completed this month' }, format: 'amount', value: sumOf(recent, (r) => thisMonth(r) && completed(r), 'amount'), previous: sumOf(recent, (r) => lastMonth(r) && completed(r), 'amount') },
    ];
  },
  async series({ ctx }, range) {
    const found = await orderDays(ctx, 'service', range.start, range.end);
    return [
      { key: 'orders', label: { zh: '下单数', en: 'Orders placed' }, format: 'count', values: perDay(range.days, found, () => true) },
      { key: 'completed', label: { zh: '已完成', en: 'Completed' }, format: 'count', values: perDay(range.days, found, is('Completed')) },
    ];
  },
};
