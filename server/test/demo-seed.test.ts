import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bom, Material, Partner } from '@p8/contract/basic';
import type { StockDifference } from '@p8/contract/bills/api';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { BillStatus } from '@p8/contract/bills/status';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedDemoRecords } from '../src/db/seed/demo-records.ts';
import { seedMallDemo } from '../src/db/seed/demo-mall.ts';
import { seedFinanceDemo } from '../src/db/seed/demo-finance.ts';
import { seedServiceDemo } from '../src/db/seed/demo-service.ts';
import { seedPeopleDemo } from '../src/db/seed/demo-people.ts';
import { seedMessagesDemo } from '../src/db/seed/demo-messages.ts';
import type { MessageRow } from '@p8/contract/office';
import { seedOfficeDemo } from '../src/db/seed/demo-office.ts';
import { TaskStage, type TaskBoard } from '@p8/contract/tasks';
import type { PersonMonth, ReportRow } from '@p8/contract/people';
import { ServiceOrderStatus, type ServiceMessageRow, type ServiceOrderCounts, type ServiceOrderRow } from '@p8/contract/service';
import type { AgreementRow, SwiperRow, TimeSettings } from '@p8/contract/base';
import type { DashboardChart } from '@p8/contract/home';
import { seedDemoBills } from '../src/db/seed/demo-bills.ts';
import type { MallOrderCounts, MallProductRow, MallLotteryRow, MallFeedback, MallCategoryNode } from '@p8/contract/mall';
import { call, login, startTestApp, TEST_DB, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await seedDemo(ctx.database);
});
afterAll(() => ctx.close());

describe(`demo records (${TEST_DB})`, () => {
  it('gives the first demo tenant a living company through the API, once, and leaves the second one empty', async () => {
    expect(await seedDemoRecords(ctx.app)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const list = async <T>(record: string) => (await call<T[]>(ctx.app, 'GET', `/api/admin/basic/${record}?current=1&pageSize=100`, { token })).body;

    const materials = await list<Material>('material');
    expect(materials.data).toHaveLength(19);
    // Codes came from the numbering service, units and categories from the records seeded before them.
    expect(materials.data.every((m) => /^WL\d{6}$/.test(m.code) && m.mainUnitName && m.categoryName)).toBe(true);
    const customers = await list<Partner>('customer');
    expect(customers.data.map((c) => c.code).sort()).toEqual(['KH000001', 'KH000002', 'KH000003', 'KH000004']);
    expect((await list('supplier')).data).toHaveLength(4);
    expect((await list('stock')).data).toHaveLength(6);
    expect((await list('location')).data).toHaveLength(7);
    expect((await list<Bom>('bom')).data).toHaveLength(5);
    expect((await list('fee')).data).toHaveLength(5);
    expect((await list('paytype')).data).toHaveLength(5);

    // A second start leaves the records alone.
    expect(await seedDemoRecords(ctx.app)).toBe(false);
    expect((await list<Material>('material')).data).toHaveLength(19);

    const other = await login(ctx.app, 'admin2', 'admin123');
    expect((await call<Material[]>(ctx.app, 'GET', '/api/admin/basic/material', { token: other })).body.data).toEqual([]);
  });

  it('gives the first demo tenant two attendance groups and two months of punches: late, early, missing and absent days among them', async () => {
    const now = new Date(2026, 10, 20, 12);
    expect(await seedPeopleDemo(ctx.app, ctx.database, ctx.config, now)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', `/api/admin/people/${url}`, { token })).body;
    expect((await get<unknown[]>('attendanceGroup')).data).toHaveLength(2);
    expect((await get<unknown[]>('clockAddress')).data).toHaveLength(2);
    const report = await get<ReportRow[]>('report?month=2026-10&pageSize=50');
    expect(report.data).toHaveLength(8);
    const total = (key: keyof ReportRow) => report.data.reduce((sum, row) => sum + Number(row[key]), 0);
    for (const key of ['normal', 'late', 'absent', 'missing'] as const) expect(total(key), key).toBeGreaterThan(0);
    // October 2026: 22 weekdays, two of them National Day holidays (the 1st and 2nd; the 3rd is a Saturday).
    expect(report.data[0].workdays).toBe(20);
    const mine = (await get<PersonMonth>('clock?month=2026-10')).data;
    expect(mine.days.find((d) => d.date === '2026-10-01')).toMatchObject({ dayType: 'holiday', result: 'rest' });
    expect(await seedPeopleDemo(ctx.app, ctx.database, ctx.config, now)).toBe(false);
  }, 120_000);

  it('gives the first demo tenant tasks in every stage through the services, once', async () => {
    const now = new Date(2026, 10, 20, 12);
    expect(await seedOfficeDemo(ctx.app, ctx.database, ctx.config, now)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const board = (await call<TaskBoard>(ctx.app, 'GET', '/api/admin/office/task/board', { token })).body.data;
    for (const stage of TaskStage) expect(board.columns.find((c) => c.stage === stage)!.tasks.length, stage).toBeGreaterThan(0);
    const progress = board.columns.find((c) => c.stage === 'InProgress')!.tasks;
    expect(progress.some((task) => task.overdue)).toBe(true);
    expect(progress.every((task) => (task.percent ?? 0) > 0)).toBe(true);
    expect(await seedOfficeDemo(ctx.app, ctx.database, ctx.config, now)).toBe(false);
  }, 120_000);

  it('gives the first demo tenant its money through the services: accounts, bills paid and received in part, an advance, a fee; verify empty', async () => {
    expect(await seedFinanceDemo(ctx.app)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', `/api/admin/finance/${url}`, { token })).body.data;
    expect(await get<unknown[]>('account')).toHaveLength(3);
    const receivable = await get<Array<{ balance: string; advance: string; open: string }>>('receivable');
    expect(receivable.some((r) => r.advance === '3000.000000')).toBe(true);
    expect(receivable.some((r) => r.open === '460.000000')).toBe(true);
    expect((await get<Array<{ open: string }>>('payable')).map((p) => p.open)).toContain('2100.000000');
    // Payments, receipts and the fee are audited bills of the engine.
    // (The fifth: the export customer's USD receipt, docs/cross-border.md.)
    expect((await get<Array<{ billStatus: string }>>('receipt')).map((r) => r.billStatus)).toEqual(['Audit', 'Audit', 'Audit', 'Audit', 'Audit']);
    // Cross-border: dollars and euros with two weeks of rates, the USD sale received at another day's rate (6603).
    const currencies = await call<Array<{ code: string }>>(ctx.app, 'GET', '/api/admin/basic/currency?current=1&pageSize=10', { token });
    expect(currencies.body.data.map((c) => c.code).sort()).toEqual(['EUR', 'USD']);
    const trial = await get<{ accounts: Array<{ code: string; balance: string }> }>('trialBalance');
    expect(trial.accounts.find((a) => a.code === '6603')?.balance ?? '0').not.toMatch(/^0(\.0+)?$/);
    expect((await get<Array<{ billStatus: string }>>('payment')).map((r) => r.billStatus)).toEqual(['Audit', 'Audit']);
    // Opening balances of partners: audited bills; one opening receivable received in part, one payable paid.
    const openings = await get<Array<{ id: number; billStatus: string; beginningType: string; priceTotal: number }>>('beginning?pageSize=50');
    expect(openings.map((o) => o.billStatus)).toEqual(Array(7).fill('Audit'));
    const states = await Promise.all(openings.map(async (o) => (await get<{ progress: { settlement?: string } }>(`beginning/${o.id}`)).progress.settlement));
    expect(states.sort()).toEqual(['AllSettlement', 'PartialSettlement', 'UnSettlement', 'UnSettlement', 'UnSettlement', undefined, undefined].sort());
    const customers = await call<Array<{ shortName: string; openingReceivable: number }>>(ctx.app, 'GET', '/api/admin/basic/customer?current=1&pageSize=100', { token });
    expect(customers.body.data.find((c) => c.shortName === '上海智控')).toMatchObject({ openingReceivable: 5000 });
    expect(receivable.some((r) => r.advance === '2000.000000' && r.open === '5000.000000')).toBe(true);
    expect((await get<Array<{ priceTotal: number }>>('fee')).map((r) => r.priceTotal)).toEqual([350]);
    // Last month's salaries, audited and paid in part (the last staff member's net pay is still open).
    const salaries = await get<Array<{ billStatus: string; progress: Record<string, string> }>>('salary');
    expect(salaries.map((b) => [b.billStatus, b.progress.settlement])).toEqual([['Audit', 'PartialSettlement']]);
    expect((await get<Array<{ billStatus: string }>>('salaryPayment')).map((r) => r.billStatus)).toEqual(['Audit']);
    expect((await call<unknown[]>(ctx.app, 'POST', '/api/admin/finance/verify', { token })).body.data).toEqual([]);
    // Once only.
    expect(await seedFinanceDemo(ctx.app)).toBe(false);
  });

  it('gives the first demo tenant bills in every status through the engine, with real stock that the ledger agrees with, once', async () => {
    const started = performance.now();
    expect(await seedDemoBills(ctx.app, ctx.database, ctx.config)).toBe(true);
    const seconds = (performance.now() - started) / 1000;
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', `/api/admin/${url}`, { token })).body.data;
    expect((await call<StockDifference[]>(ctx.app, 'POST', '/api/admin/stock/verify', { token })).body.data).toEqual([]);
    // The ledger agrees, the inventory account with the stock included; a sale invoice of the out-stock (all
    // invoiced) and a red-letter one of its refund, counting negative.
    expect((await call<unknown[]>(ctx.app, 'POST', '/api/admin/finance/verify', { token })).body.data).toEqual([]);
    const invoices = await get<Array<{ billStatus: string; taxPriceTotal: number }>>('finance/saleInvoice');
    expect(invoices.map((i) => [i.billStatus, Math.sign(i.taxPriceTotal)]).sort()).toEqual([['Audit', -1], ['Audit', 1]]);
    // Bills due within their warning days (a delivery, a receipt, a payment): the dashboard's early warning
    // has something to say on the first sign-in.
    const warning = await get<{ bills: Array<{ kind: string; daysLeft: number }> }>('stock/warning');
    expect([...new Set(warning.bills.map((b) => b.kind))].sort()).toEqual(['delivery', 'maintenance', 'pay', 'receipt']);
    // The machines' work orders not yet done: the reflow oven's repair due today, the placement machine's plan in four days.
    expect(warning.bills.filter((b) => b.kind === 'maintenance').map((b) => [(b as { partnerName?: string }).partnerName, b.daysLeft])).toEqual([
      ['回流焊炉', 0],
      ['贴片机', 4],
    ]);
    const outstocks = await get<Array<{ progress: Record<string, string> }>>('sale/outstock?pageSize=50');
    expect(outstocks.filter((b) => b.progress.invoice === 'AllInvoiced')).toHaveLength(1);
    // Every status but the joint review's shows up in some type's tabs.
    const seen = new Set<string>();
    for (const decl of BILL_TYPES) {
      const tabs = await get<Record<string, number>>(`${billApiPath(decl).replace('/api/admin/', '')}/tabs`);
      for (const [status, count] of Object.entries(tabs)) if (status !== 'all' && count > 0) seen.add(status);
    }
    expect([...seen].sort()).toEqual(BillStatus.filter((s) => s !== 'UnAudit').sort());
    const stock = await get<Array<{ materialName: string; warehouseName: string; locationName: string | null; quantity: string; unitCost: string; amount: string }>>('stock/current?pageSize=200');
    const costedPeriod = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 2, 1)).toISOString().slice(0, 7);
    const motors = stock.filter((r) => r.materialName === '直流无刷电机' && r.locationName === 'C-02 电机区');
    // 40 opening − 10 − 8 sold + 2 returned, at C-02.
    expect(motors).toEqual([expect.objectContaining({ warehouseName: '成品仓', locationName: 'C-02 电机区', quantity: '24.000000' })]);
    // The stock check counted 775 of the 785 m of wire the works' order left; the withdrawn out-stock took nothing.
    expect(stock.find((r) => r.materialName === '铜芯软电线')?.quantity).toBe('775.000000');
    // 50,000 resistors: the withdrawn out-stock took none, production picked 24 for each of 50 boards this month and
    // of the 10 of the costed month.
    expect(stock.find((r) => r.materialName === '贴片电阻')?.quantity).toBe('48560.000000');
    // 30 of the 50 boards completed into the semi-finished store; the costed month's 10 went into its works.
    // (And the 2 scrapped at the first step, in the waste store.)
    expect(stock.filter((r) => r.materialName === '控制板组件').map((r) => [r.warehouseName, r.locationName, r.quantity])).toEqual([
      ['半成品仓', 'B-01 板卡区', '30.000000'],
      ['废品仓', null, '2.000000'],
    ]);
    // The 50 boards' steps show their reports: 2 scrapped at the first (48 good), 3 sent back for rework at the last (30 good).
    const boardOrder = (await get<Array<{ id: number; remark: string }>>('production/order?pageSize=50')).find((b) => b.remark === '月度备货')!;
    const boardSteps = (await get<{ lines: Array<Record<string, unknown>> }>(`production/order/${boardOrder.id}`)).lines.filter((l) => l.role === 'Process');
    expect([boardSteps[0], boardSteps.at(-1)!].map((l) => [l.reportedGood, l.reportedScrap, l.reportedRework])).toEqual([
      [48, 2, 0],
      [30, 0, 3],
    ]);
    // The costed month's three levels: 9 works completed and picked by the controllers' order, the scrapped one in
    // the waste store; 8 controllers completed, at the full cost the month's run gave them.
    expect(stock.filter((r) => r.materialName === '控制器机芯').map((r) => [r.warehouseName, r.quantity])).toEqual([['废品仓', '1.000000']]);
    const controllers = stock.filter((r) => r.materialName === '步进电机控制器');
    expect(controllers.map((r) => [r.warehouseName, r.locationName, r.quantity])).toEqual([['成品仓', 'C-01 控制器区', '8.000000']]);
    const costs = await get<{ orders: Array<{ materialName: string; completed: string; unitCost: string; finished: string; perpetual: string; rolledIn: string }> }>(`production/cost/${costedPeriod}`);
    expect(costs.orders.map((o) => [o.materialName, o.completed])).toEqual([
      ['控制板组件', '10.000000'],
      ['控制器机芯', '9.000000'],
      ['步进电机控制器', '8.000000'],
    ]);
    expect(controllers[0].unitCost).toBe(costs.orders[2].unitCost);
    // Costed level by level: each level's month's products were all picked by the level above, so what the run
    // added to their cost is all in the material of the order above (none to cost of sales).
    const [boards, works, stepper] = costs.orders.map((o) => ({ added: Number(o.finished) - Number(o.perpetual), rolledIn: Number(o.rolledIn) }));
    expect(boards.added).toBeGreaterThan(0);
    expect([works.rolledIn, stepper.rolledIn]).toEqual([boards.added, works.added].map((n) => Number(n.toFixed(6))));
    // (400 screws sent to the supplier making the motor brackets, 400 picked for the end caps machined for 精工数控,
    // 80 for the costed month's 10 works.)
    expect(stock.filter((r) => r.materialName === '内六角螺钉').map((r) => [r.warehouseName, r.quantity]).sort()).toEqual([['半成品仓', '2000.000000'], ['原料仓', '17120.000000']]);
    // Entrusted machining: 100 of 精工数控's 200 castings left in its consignment store, at no value; the 100 end caps went back.
    expect(stock.filter((r) => r.materialName === '端盖铸件毛坯').map((r) => [r.warehouseName, r.quantity, Number(r.amount)])).toEqual([['客供料仓(精工数控)', '100.000000', 0]]);
    expect(stock.filter((r) => r.materialName === '机床主轴端盖')).toEqual([]);
    const entrusted = await get<Array<{ customerName: string; materialName: string; received: string; consumed: string; returned: string; closing: string; orders: string }>>('production/entrustStatement');
    expect(entrusted.map((r) => [r.customerName, r.materialName, ...[r.received, r.consumed, r.returned, r.closing].map(Number)])).toEqual([['苏州精工数控机床有限公司', '端盖铸件毛坯', 200, 100, 0, 100]]);
    expect(entrusted[0].orders).toMatch(/^SCDD/);
    // Consumables: 3 of the 40 barrels of oil issued to the sheet-metal workshop, 1.5 picked for the end caps (a
    // consumables line of their BOM: one barrel by the BOM, more taken as the machining used it).
    expect(stock.filter((r) => r.materialName === '润滑油').map((r) => r.quantity)).toEqual(['35.500000']);
    // Outsourcing: 100 brackets ordered, 60 accepted (5 of them sent back) — the order part received; the supplier
    // holds the steel and screws of the 39 still to make and of the 5 returned: 50 − 0.5 × 61 + 0.5 × 61 × 5 ÷ 60.
    expect(stock.find((r) => r.materialName === '电机安装支架')?.quantity).toBe('55.000000');
    expect((await get<Array<{ billStatus: string }>>('outsourcing/order')).map((b) => b.billStatus)).toEqual(['Partially']);
    const held = await get<Array<{ materialName: string; quantity: string }>>('outsourcing/atSupplier?materialCodeSort=asc');
    expect(Object.fromEntries(held.map((r) => [r.materialName, r.quantity]))).toEqual({ 冷轧钢板: '22.041667', 内六角螺钉: '176.333333' });
    // The reports sort, filter and export (the screens' list kit sends `<column>Sort` and posts the query to export).
    const byQuantity = await get<Array<{ quantity: string }>>('stock/current?quantitySort=desc&pageSize=200');
    expect(byQuantity.map((r) => Number(r.quantity))).toEqual(byQuantity.map((r) => Number(r.quantity)).sort((a, b) => b - a));
    // (The finance demo moved motors of its own in another warehouse.)
    const motorLedger = await get<Array<{ locationName: string | null; quantity: string }>>(`stock/ledger?keyword=${encodeURIComponent('无刷')}&pageSize=50`);
    expect(motorLedger.filter((r) => r.locationName === 'C-02 电机区').map((r) => Number(r.quantity)).reduce((a, b) => a + b, 0)).toBe(24);
    const period = await get<Array<{ materialName: string; warehouseName: string; opening: string; inQuantity: string; outQuantity: string; closing: string }>>(
      `stock/summary?keyword=${encodeURIComponent('无刷')}&start=${new Date(Date.now() - 19 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    // Before the period: 40 in, 0 out (the first sale left 17 days ago); in it: 2 back, 18 out, and one exchanged (1 in, 1 out).
    expect(period.filter((r) => r.warehouseName === '成品仓')).toEqual([expect.objectContaining({ opening: '40.000000', inQuantity: '3.000000', outQuantity: '19.000000', closing: '24.000000' })]);
    // The exchange: an audited sale exchange, its exchange refund exchanged whole.
    expect((await get<Array<{ billStatus: string }>>('sale/exchange')).map((b) => b.billStatus)).toEqual(['Audit']);
    const refunds = await get<Array<{ refundType: string; billStatus: string; progress: Record<string, string> }>>('sale/refund');
    expect(refunds.filter((r) => r.refundType === 'Exchange').map((r) => [r.billStatus, r.progress.exchange])).toEqual([['Complete', 'AllExchange']]);
    const file = await ctx.app.inject({ method: 'POST', url: '/api/admin/stock/ledger/export?lang=en', headers: { authorization: `Bearer ${token}` }, payload: { keyword: '无刷' } });
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain('Stock%20ledger');
    expect((await call(ctx.app, 'GET', '/api/admin/stock/current?bogusSort=asc', { token })).body.status).toBe(0);
    expect(await seedDemoBills(ctx.app, ctx.database, ctx.config)).toBe(false);
    // The second demo tenant has none.
    const other = await login(ctx.app, 'admin2', 'admin123');
    expect((await call<unknown[]>(ctx.app, 'GET', '/api/admin/stock/current', { token: other })).body.data).toEqual([]);
    console.log(`demo bills seeded in ${seconds.toFixed(2)} s (${TEST_DB})`);
  }, 120_000);

  it('gives the first demo tenant a mall: categories, 24 products with images, orders over 60 days in every status, a lottery, feedback', async () => {
    const started = performance.now();
    expect(await seedMallDemo(ctx.app, ctx.database, ctx.config)).toBe(true);
    const seconds = (performance.now() - started) / 1000;
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', `/api/admin/mall/${url}`, { token })).body;
    expect((await get<MallCategoryNode[]>('category/tree')).data.map((c) => c.children?.length)).toEqual([3, 2, 2, 2]);
    const products = await get<MallProductRow[]>('product?pageSize=100');
    expect(products.data).toHaveLength(24);
    expect(products.data.every((p) => p.image.startsWith('/api/base/file/') && p.skuCount >= 1)).toBe(true);
    // The images are real files behind the upload route.
    const image = await ctx.app.inject({ method: 'GET', url: products.data[0].image });
    expect(image.headers['content-type']).toBe('image/png');
    const counts = (await get<MallOrderCounts>('order/counts')).data;
    expect(counts.all).toBe(200);
    for (const tab of ['PendingPayment', 'Paid', 'Shipped', 'Completed', 'Cancelled', 'Refunded', 'Refunding'] as const) expect(counts[tab], tab).toBeGreaterThan(0);
    const lotteries = (await get<MallLotteryRow[]>('lottery')).data;
    expect(lotteries.find((l) => l.status === 'InProgress')!.drawCount).toBeGreaterThan(0);
    expect((await get<MallFeedback[]>('feedback?pageSize=100')).data).toHaveLength(8);
    expect(await seedMallDemo(ctx.app, ctx.database, ctx.config)).toBe(false);
    console.log(`mall demo seeded in ${seconds.toFixed(2)} s (${TEST_DB})`);
  }, 180_000);

  it('gives the first demo tenant swiper slides, agreements, business hours and slots, service orders in every status with chat', async () => {
    expect(await seedServiceDemo(ctx.app, ctx.database, ctx.config)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const get = async <T>(url: string) => (await call<T>(ctx.app, 'GET', `/api/admin/${url}`, { token })).body.data;
    const swipers = await get<SwiperRow[]>('base/swiper');
    expect(swipers).toHaveLength(3);
    const image = await ctx.app.inject({ method: 'GET', url: swipers[0].image });
    expect(image.headers['content-type']).toBe('image/png');
    expect((await get<AgreementRow[]>('base/agreement')).every((a) => a.updatedAt && a.content.includes('<h2>'))).toBe(true);
    const time = await get<TimeSettings>('base/time');
    expect(time.slots).toHaveLength(5);
    expect(time.days.filter((d) => d.open)).toHaveLength(6);
    const counts = await get<ServiceOrderCounts>('service/order/counts');
    for (const status of ServiceOrderStatus) expect(counts[status], status).toBeGreaterThan(0);
    const orders = await get<ServiceOrderRow[]>('service/order?pageSize=100');
    const chats = await Promise.all(orders.map((o) => get<ServiceMessageRow[]>(`service/message?orderId=${o.id}`)));
    expect(chats.filter((c) => c.length > 0).length).toBeGreaterThan(5);
    expect(await seedServiceDemo(ctx.app, ctx.database, ctx.config)).toBe(false);
    // The second demo tenant has none of it.
    const other = await login(ctx.app, 'admin2', 'admin123');
    expect((await call<SwiperRow[]>(ctx.app, 'GET', '/api/admin/base/swiper', { token: other })).body.data).toEqual([]);
  }, 120_000);

  it("spreads the mall and service orders over the database's last 60 days, so that the dashboard's charts are not flat", async () => {
    const token = await login(ctx.app, 'admin', 'admin123');
    const chart = async (query = '') => (await call<DashboardChart>(ctx.app, 'GET', `/api/admin/home/chart${query}`, { token })).body.data;
    const orders = (c: DashboardChart, key: string) => c.charts.find((x) => x.key === key)!.series.find((s) => s.key === 'orders')!.values;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    // The default range: the 30 days ending on the database's today.
    const recent = await chart();
    for (const key of ['mall', 'service']) {
      expect(recent.days.at(-1)).toBe(recent.today);
      expect(orders(recent, key).filter((n) => n > 0).length, `${key}: days with orders of the last 30`).toBeGreaterThan(12);
      expect(sum(orders(recent, key).slice(-7)), `${key}: orders of the last 7 days`).toBeGreaterThan(0);
    }
    // Every order falls in the 61 days up to today (none later, none older), the older half not empty.
    const start = new Date(Date.parse(`${recent.today}T00:00:00Z`) - 60 * 86_400_000).toISOString().slice(0, 10);
    const all = await chart(`?start=${start}&end=${recent.today}`);
    const counts = { mall: (await call<MallOrderCounts>(ctx.app, 'GET', '/api/admin/mall/order/counts', { token })).body.data.all, service: (await call<ServiceOrderCounts>(ctx.app, 'GET', '/api/admin/service/order/counts', { token })).body.data.all };
    for (const key of ['mall', 'service'] as const) {
      expect(sum(orders(all, key)), `${key}: orders of the last 60 days`).toBe(counts[key]);
      expect(sum(orders(all, key).slice(0, 30)), `${key}: orders 31-60 days ago`).toBeGreaterThan(0);
    }
    expect(counts.service).toBeGreaterThanOrEqual(120);
  });

  it("gives the first demo tenant's administrator unread messages of several kinds, once", async () => {
    expect(await seedMessagesDemo(ctx.app, ctx.database, ctx.config)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const inbox = (await call<MessageRow[]>(ctx.app, 'GET', '/api/admin/office/message?box=inbox&isRead=false&pageSize=100', { token })).body.data;
    // A colleague's message, a new service order, a new mall order, and the attendance job's notice (from the system).
    expect(inbox.some((m) => !m.isNotice && m.title === '本周五下午盘点')).toBe(true);
    expect(inbox.some((m) => m.title.startsWith('新服务订单'))).toBe(true);
    expect(inbox.some((m) => m.title.startsWith('新商城订单'))).toBe(true);
    expect(inbox.some((m) => m.title.startsWith('考勤异常') && m.senderId === null)).toBe(true);
    expect((await call<{ count: number }>(ctx.app, 'GET', '/api/admin/office/message/unread/count', { token })).body.data.count).toBe(inbox.length);
    expect(await seedMessagesDemo(ctx.app, ctx.database, ctx.config)).toBe(false);
  }, 60_000);
});
