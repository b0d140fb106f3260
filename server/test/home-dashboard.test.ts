import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardChart, DashboardStatistics } from '@p8/contract/home';
import type { MallOrder } from '@p8/contract/mall';
import { rows } from '../src/db/connection.ts';
import { stockValuation } from '../src/db/schema/index.ts';
import { MENU_TEMPLATE, type MenuTemplate } from '../src/db/seed/menus.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { mallApi } from './mall-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let admin: Caller;
let api: ReturnType<typeof mallApi>;

const HOME = '/api/admin/home';
const ok = <T>(res: { body: { status: number; data: T } }) => {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
};
const statistics = async (c: Caller = admin) => ok(await c.get<DashboardStatistics>(`${HOME}/statistics`));
const chart = async (query = '', c: Caller = admin) => ok(await c.get<DashboardChart>(`${HOME}/chart${query}`));
const figure = (s: DashboardStatistics, section: string, key: string) => {
  const found = [...s.sections.filter((x) => x.key === section).flatMap((x) => x.figures), ...s.overview.filter((f) => f.section === section)].find((f) => f.key === key);
  if (!found) throw new Error(`no figure ${section}.${key}`);
  return found;
};
const series = (c: DashboardChart, section: string, key: string) => c.charts.find((x) => x.key === section)!.series.find((x) => x.key === key)!.values;
const today = async () => (await rows<{ d: string }>(ctx.database, sql`select current_date::text as d`))[0].d;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'Home');
  admin = await adminCaller(ctx, a);
  api = mallApi(ctx, admin.token);
});
afterAll(() => ctx.close());

function walk(nodes: MenuTemplate[]): MenuTemplate[] {
  return nodes.flatMap((n) => [n, ...walk(n.children ?? [])]);
}
const templateMenus = walk(MENU_TEMPLATE);

describe(`dashboard sections (${TEST_DB})`, () => {
  it('has the sections of the mall, the service orders and the stock', () => {
    expect(ctx.app.dashboard.all().map((s) => s.key).sort()).toEqual(expect.arrayContaining(['asset', 'mall', 'service']));
  });

  it('every section names menus of the template and links only to screens of it', async () => {
    const s = await statistics();
    for (const section of ctx.app.dashboard.all()) {
      for (const name of section.menus) expect(templateMenus.some((m) => m.name === name && m.type === 'Menu'), `${section.key}: ${name}`).toBe(true);
      const figures = [...s.sections.filter((x) => x.key === section.key).flatMap((x) => x.figures), ...s.overview.filter((f) => f.section === section.key)];
      for (const link of figures.flatMap((f) => (f.link ? [f.link] : []))) expect(templateMenus.some((m) => m.path === link && m.type === 'Menu'), `${section.key}: ${link}`).toBe(true);
    }
  });
});

describe(`dashboard of mall orders (${TEST_DB})`, () => {
  it('counts a placed, paid, shipped and completed order today, in the chart and in the overview', async () => {
    const before = await statistics();
    const day = await today();
    const customer = await api.customer();
    const product = await api.product(await api.category());
    const order = await api.order(customer, [{ skuId: product.skus[0].id, quantity: 2 }]);
    let s = await statistics();
    expect(figure(s, 'mall', 'todayOrders').value).toBe(figure(before, 'mall', 'todayOrders').value + 1);
    expect(figure(s, 'mall', 'pendingPayment').value).toBe(figure(before, 'mall', 'pendingPayment').value + 1);
    expect(figure(s, 'mall', 'todaySales').value).toBe(figure(before, 'mall', 'todaySales').value);

    await api.send('PUT', '/api/admin/mall/order/pay', { id: order.id, payType: 'wechat' });
    s = await statistics();
    expect(figure(s, 'mall', 'toShip').value).toBe(figure(before, 'mall', 'toShip').value + 1);
    expect(figure(s, 'mall', 'todaySales').value).toBeCloseTo(figure(before, 'mall', 'todaySales').value + order.payAmount, 2);
    await api.send('PUT', '/api/admin/mall/order/ship', { id: order.id, logisticsCompany: '顺丰', logisticsNo: 'SF1' });
    await api.send<MallOrder>('PUT', '/api/admin/mall/order/complete', { id: order.id });
    s = await statistics();
    expect(figure(s, 'mall', 'toShip').value).toBe(figure(before, 'mall', 'toShip').value);
    expect(figure(s, 'mall', 'totalOrders').value).toBe(figure(before, 'mall', 'totalOrders').value + 1);
    expect(figure(s, 'mall', 'monthSales').value).toBeCloseTo(figure(before, 'mall', 'monthSales').value + order.payAmount, 2);

    const c = await chart();
    expect(c.days).toHaveLength(30);
    expect(c.end).toBe(day);
    // The business day the screen counts from is the database's, the same as the default range's end.
    expect(c.today).toBe(day);
    expect(series(c, 'mall', 'orders').at(-1)).toBe(figure(s, 'mall', 'todayOrders').value);
    expect(series(c, 'mall', 'sales').at(-1)).toBeCloseTo(figure(s, 'mall', 'todaySales').value, 2);

    // Cancelled: counted as placed, not as sold; an open refund shows until it is refunded.
    const cancelled = await api.order(customer, [{ skuId: product.skus[1].id, quantity: 1 }]);
    await api.send('PUT', '/api/admin/mall/order/cancel', { id: cancelled.id, reason: '不要了' });
    const refunded = await api.order(customer, [{ skuId: product.skus[2].id, quantity: 1 }]);
    await api.send('PUT', '/api/admin/mall/order/pay', { id: refunded.id });
    await api.send('PUT', '/api/admin/mall/order/refund/apply', { id: refunded.id, reason: '不想要' });
    expect(figure(await statistics(), 'mall', 'refunding').value).toBe(figure(before, 'mall', 'refunding').value + 1);
    await api.send('PUT', '/api/admin/mall/order/refund/approve', { id: refunded.id });
    await api.send('PUT', '/api/admin/mall/order/refund/confirm', { id: refunded.id });
    s = await statistics();
    expect(figure(s, 'mall', 'refunding').value).toBe(figure(before, 'mall', 'refunding').value);
    expect(figure(s, 'mall', 'todayOrders').value).toBe(figure(before, 'mall', 'todayOrders').value + 3);
    expect(figure(s, 'mall', 'todaySales').value).toBeCloseTo(figure(before, 'mall', 'todaySales').value + order.payAmount, 2);
  });

  it('keeps the daily aggregates equal to the orders themselves', async () => {
    for (const [kind, table, amount] of [
      ['mall', 'mall_order', 'pay_amount'],
      ['service', 'service_order', 'amount'],
    ] as const) {
      const [diff] = await ctx.database.withTenant(a.tenantId, (tx) =>
        rows<{ n: string }>(
          tx,
          sql`select count(*)::text as n from (
                select created_at::date as day, status, count(*)::bigint as orders, sum(${sql.raw(amount)})::numeric(18, 2) as amount from ${sql.raw(table)} where tenant_id = ${a.tenantId} group by 1, 2
                except
                select day, status, sum(orders)::bigint, sum(amount)::numeric(18, 2) from order_daily where tenant_id = ${a.tenantId} and kind = ${kind} group by 1, 2 having sum(orders) <> 0
              ) d`,
        ),
      );
      expect(diff.n, kind).toBe('0');
      const [totals] = await ctx.database.withTenant(a.tenantId, (tx) =>
        rows<{ n: string }>(
          tx,
          sql`select count(*)::text as n from (
                select status, sum(orders) as orders, sum(amount) as amount from order_daily where tenant_id = ${a.tenantId} and kind = ${kind} group by 1 having sum(orders) <> 0
                except
                select status, sum(orders), sum(amount) from order_total where tenant_id = ${a.tenantId} and kind = ${kind} group by 1 having sum(orders) <> 0
              ) d`,
        ),
      );
      expect(totals.n, `${kind} totals`).toBe('0');
    }
  });
});

describe(`dashboard of service orders (${TEST_DB})`, () => {
  it('counts a proxy order to dispatch, and in the chart', async () => {
    const before = await statistics();
    ok(await admin.post('/api/admin/service/proxyOrder', { serviceName: '空调清洗', customerName: '张三', customerPhone: '13800000001', address: '上海市浦东新区世纪大道100号', amount: 120 }));
    const s = await statistics();
    expect(figure(s, 'service', 'todayOrders').value).toBe(figure(before, 'service', 'todayOrders').value + 1);
    expect(figure(s, 'service', 'pendingDispatch').value).toBe(figure(before, 'service', 'pendingDispatch').value + 1);
    expect(series(await chart(), 'service', 'orders').at(-1)).toBe(figure(s, 'service', 'todayOrders').value);
  });
});

describe(`dashboard assets and early warning (${TEST_DB})`, () => {
  it('values the stock at its moving-average cost and warns of materials below their safety stock', async () => {
    const unitId = await admin.create('unit', { name: `个${Date.now()}` });
    const low = await admin.create('material', { name: '低库存螺丝', units: [{ unitId, isMain: true }], safetyStock: 10 });
    const fine = await admin.create('material', { name: '足量螺母', units: [{ unitId, isMain: true }], safetyStock: 1 });
    await admin.create('material', { name: '无库存垫片', units: [{ unitId, isMain: true }], safetyStock: 5 });
    const warehouseId = await admin.create('stock', { name: `主仓${Date.now()}` });
    await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.insert(stockValuation).values([
        { tenantId: a.tenantId, materialId: low, warehouseId, quantity: '3', amount: '30.5' },
        { tenantId: a.tenantId, materialId: fine, warehouseId, quantity: '4', amount: '8' },
      ]),
    );
    const s = await statistics();
    expect(figure(s, 'asset', 'stockValue').value).toBe(38.5);
    expect(figure(s, 'asset', 'stockQuantity').value).toBe(7);
    expect(figure(s, 'asset', 'materials').value).toBe(2);
    const warned = s.warnings.items.filter((w) => w.kind === 'lowStock');
    expect(warned.map((w) => [w.subject.endsWith('无库存垫片'), w.detail])).toEqual([
      [true, '0 / 5'],
      [false, '3 / 10'],
    ]);
    expect(s.warnings.total).toBe(2);
  });
});

describe(`dashboard visibility (${TEST_DB})`, () => {
  it('shows each caller only the sections of the menus they may open', async () => {
    const mallOnly = await staffCaller(ctx, a, ['mall_order']);
    let s = await statistics(mallOnly);
    expect(s.sections.map((x) => x.key)).toEqual(['mall']);
    expect(s.warnings.total).toBe(0);
    expect((await chart('', mallOnly)).charts.map((x) => x.key)).toEqual(['mall']);

    const stockOnly = await staffCaller(ctx, a, ['basic_material']);
    s = await statistics(stockOnly);
    expect(s.sections.map((x) => x.key)).toEqual(['asset']);
    expect(s.warnings.total).toBeGreaterThan(0);
    expect((await chart('', stockOnly)).charts).toEqual([]);

    const nothing = await staffCaller(ctx, a, []);
    expect(await statistics(nothing)).toEqual({ sections: [], overview: [], warnings: { total: 0, items: [] } });
  });

  it('shows a figure only to who may open its own screen: no company revenue to a technician, no fund balance to a payment clerk', async () => {
    // "My orders" shows a technician their own orders; the company's service counts and amounts are the all-orders screen's.
    const technician = await staffCaller(ctx, a, ['service_myOrder']);
    const mine = await statistics(technician);
    expect(mine.sections.map((x) => x.key)).toEqual([]);
    expect(mine.overview).toEqual([]);
    expect((await chart('', technician)).charts).toEqual([]);

    const clerk = await staffCaller(ctx, a, ['finance_payment']);
    const s = await statistics(clerk);
    expect(s.sections.map((x) => ({ key: x.key, figures: x.figures.map((f) => f.key) }))).toEqual([{ key: 'fund', figures: ['moneyOut'] }]);
    expect(JSON.stringify(s)).not.toContain('"menus"');
    const warehouse = await staffCaller(ctx, a, ['basic_stock']);
    expect((await statistics(warehouse)).sections.flatMap((x) => x.figures.map((f) => f.key))).toEqual(['warehouses']);
  });

  it('shows another tenant none of these orders', async () => {
    const b = await seedTenant(ctx.database, 'HomeB');
    const token = await login(ctx.app, b.name, b.password);
    const s = ok(await call<DashboardStatistics>(ctx.app, 'GET', `${HOME}/statistics`, { token }));
    for (const section of s.sections) for (const f of section.figures) expect(f.value, `${section.key}.${f.key}`).toBe(0);
    expect(s.warnings.total).toBe(0);
  });
});

describe(`dashboard chart range (${TEST_DB})`, () => {
  it('covers the asked days, both included, and refuses a reversed, too long or invalid range', async () => {
    const c = await chart('?start=2026-02-27&end=2026-03-02');
    expect(c.days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    for (const section of c.charts) for (const s of section.series) expect(s.values).toHaveLength(4);
    expect((await admin.get(`${HOME}/chart?start=2026-03-02&end=2026-03-01`)).body.message).toBe('StartDateAfterEndDate');
    expect((await admin.get(`${HOME}/chart?start=2025-01-01&end=2026-03-01`)).body.message).toBe('DashboardRangeTooLong');
    expect((await admin.get(`${HOME}/chart?start=2026-02-30`)).body.message).toBe('DateOutOfRange');
    expect((await chart('?start=2025-03-02&end=2026-03-02')).days).toHaveLength(366);
  });
});
