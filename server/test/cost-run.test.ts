import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundJobView } from '@p8/contract/system';
import type { CostPeriodDetail, CostPeriodRow } from '@p8/contract/production-cost';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { withServiceContext, type Caller as ServiceCaller } from '../src/core/service-context.ts';
import { runCost as runCostNow } from '../src/modules/finance/cost-run.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, financeVerifyEmpty, ok, refused, runCostJob, verifyEmpty } from './bill-fixtures.ts';

/*
 * The month-end cost run through the API (PGlite; PostgreSQL with TEST_DB=postgres), on two past months so the
 * test holds whatever today is. September: two orders of 10 controllers (2 boards at 2.00 each), both fully
 * picked (40.00 each); order 1's one step reported 10 good in 5 hours and accounted at 1.00 a piece, order 2's 4
 * good in 5 hours; 20.00 of workshop electricity (an overhead fee type); 6 of order 1 completed at its material
 * work in progress (24.00). The run by hours: overhead 10.00 to each order; order 1's unfinished 4 are as far as
 * the step took them (degree 1), so 6 of 10 equivalent units take 24 + 6 + 6 = 36.00 (6.00 each), the completion
 * gains 12.00 in stock; order 2 finished nothing and carries 40 + 4 + 10 = 54.00. October: order 1's last 4 take
 * its 24.00 carried over (6.00 each again).
 */

let ctx: TestContext;
let api: Caller;
let tenant: TestTenant;
const SEPT = '2026-09';
const OCT = '2026-10';
const ids = { piece: 0, product: 0, board: 0, w: 0, worker: 0, assemble: 0, fund: 0, power: 0 };
interface Line {
  id: number;
  materialId: number;
  role?: string;
  number: number;
}
interface Bill {
  id: number;
  lines: Line[];
}

const september = billSteps<Bill>(() => api, `${SEPT}-15`);
const october = billSteps<Bill>(() => api, `${OCT}-10`);
const { get } = september;

async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}
async function stockOf(materialId: number) {
  const rows = await ok(api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${ids.w}&pageSize=200`));
  return { quantity: rows.reduce((s, r) => s + Number(r.quantity), 0), amount: rows.reduce((s, r) => s + Number(r.amount), 0) };
}
async function costLedgerCount() {
  return (await ok(api.get<unknown[]>(`/api/admin/stock/ledger?materialId=${ids.product}&pageSize=200`))).length;
}

/** Runs the period's cost as a background job and waits for it. */
const runCost = (period: string, basis = 'hours') => runCostJob(ctx, api, period, basis);
const detail = (period: string) => ok(api.get<CostPeriodDetail>(`/api/admin/production/cost/${period}`));

/** An audited order of `number` controllers with all its boards picked and its step reported `good` by the worker in 5 hours, accounted. */
async function orderPickedAndReported(number: number, good: number) {
  const { saved, pass } = september;
  const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: ids.product, number, warehouseId: ids.w }] });
  await pass('ProductionOrder', id);
  const order = await get('ProductionOrder', id);
  const material = order.lines.find((l) => l.role === 'Material')!;
  const step = order.lines.find((l) => l.role === 'Process')!;
  const pick = await saved('ProductionPick', { warehouseId: ids.w, lines: [{ materialId: ids.board, number: material.number, sourceLineId: material.id }] });
  await pass('ProductionPick', pick);
  const report = await saved('ProcessReport', { lines: [{ materialId: ids.product, number: good, processId: ids.assemble, staffId: ids.worker, hours: 5, unitPrice: 1, sourceLineId: step.id }] });
  await pass('ProcessReport', report);
  const [reported] = (await get('ProcessReport', report)).lines;
  const accounting = await saved('ProcessAccounting', { salaryPeriod: SEPT, lines: [{ materialId: ids.product, number: good, staffId: ids.worker, unitPrice: 1, sourceLineId: reported.id }] });
  await pass('ProcessAccounting', accounting);
  return { order, product: order.lines.find((l) => l.role === 'Product')!, pick, report };
}

let first: Awaited<ReturnType<typeof orderPickedAndReported>>;
let second: Awaited<ReturnType<typeof orderPickedAndReported>>;
let completion = 0;
let octoberJob = 0;

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'CostRun');
  tenant = t;
  api = await adminCaller(ctx, t);
  ids.worker = (await staffCaller(ctx, t)).adminId;
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.product = await api.create('material', { code: 'P', name: 'Controller', units: [{ unitId: ids.piece, isMain: true }] });
  ids.board = await api.create('material', { code: 'A', name: 'Board', units: [{ unitId: ids.piece, isMain: true }] });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.assemble = await api.create('process', { name: 'Assemble', pieceRate: 1 });
  const routing = await api.create('routing', { name: 'Assembly', steps: [{ processId: ids.assemble }] });
  await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.board, quantity: 2 }] });
  ids.fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: 1000, openingDate: '2026-01-01' }))).id;
  ids.power = await api.create('fee', { name: '车间电费', kind: 'expense', overhead: true });
  const opening = await september.saved('OtherInstock', { billDate: '2026-09-01', warehouseId: ids.w, lines: [{ materialId: ids.board, number: 100, unitPrice: 2 }] });
  await september.pass('OtherInstock', opening);
});
afterAll(() => ctx.close());

describe('the month-end cost run', () => {
  it('collects overhead on 5101 from fee bills of an overhead fee type', async () => {
    const before = await balances();
    const fee = await september.saved('Fee', { fundAccountId: ids.fund, lines: [{ feeTypeId: ids.power, amount: 20 }] });
    await september.pass('Fee', fee);
    const after = await balances();
    expect(after['5101'] - (before['5101'] ?? 0)).toBeCloseTo(20, 6);
    expect((after['6602'] ?? 0) - (before['6602'] ?? 0)).toBeCloseTo(0, 6);
  });

  it('costs a month: materials, labour and overhead split between finished goods and work in progress', async () => {
    first = await orderPickedAndReported(10, 10);
    second = await orderPickedAndReported(10, 4);
    completion = await september.saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.product, number: 6, sourceLineId: first.product.id }] });
    await september.pass('ProductionInstock', completion);
    expect((await stockOf(ids.product)).amount).toBeCloseTo(24, 6);
    // The piece wages reach 5001 with the month's salary.
    const salary = await september.saved('Salary', { salaryPeriod: SEPT, lines: [{ staffId: ids.worker, basePay: 0 }] });
    await september.pass('Salary', salary);

    const job = await runCost(SEPT);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', kind: 'productionCostRun', result: { period: SEPT, orders: 2 } });
    const costed = await detail(SEPT);
    expect(costed.status).toBe('Calculated');
    const [one, two] = costed.orders;
    expect([one.material, one.labour, one.overhead, one.finished, one.unitCost, one.closing].map(Number)).toEqual([40, 10, 10, 36, 6, 24]);
    expect([Number(one.degree), Number(one.unfinished)]).toEqual([1, 4]);
    expect([two.material, two.labour, two.overhead, two.finished, two.closing].map(Number)).toEqual([40, 4, 10, 0, 54]);
    expect(await stockOf(ids.product)).toEqual({ quantity: 6, amount: 36 });
    const b = await balances();
    // Work in progress in the ledger is the orders' closing: 24 + 54; the overhead all allocated.
    expect(b['5001']).toBeCloseTo(78, 6);
    expect(b['5101']).toBeCloseTo(0, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
    const periods = await ok(api.get<CostPeriodRow[]>('/api/admin/production/cost'));
    expect(periods[0]).toMatchObject({ period: SEPT, status: 'Calculated', basis: 'hours', orders: 2 });
  });

  it('runs again to the same figures, posting nothing new', async () => {
    const entries = await costLedgerCount();
    const before = await balances();
    const again = await runCost(SEPT);
    expect(again.status).toBe('succeeded');
    expect(Number((again.result as { adjusted: string }).adjusted)).toBe(0);
    expect(await costLedgerCount()).toBe(entries);
    expect(await balances()).toEqual(before);
    expect((await detail(SEPT)).orders.map((o) => Number(o.finished))).toEqual([36, 0]);
  });

  it('holds the bills it read until cancelled, and keeps periods in order', async () => {
    await refused(api.post(`${path('ProductionInstock')}/abandonAudit`, { id: completion }), 'BillCostAccountedProhibitAbandonAudit');
    await refused(api.post(`${path('ProductionPick')}/abandonAudit`, { id: second.pick }), 'BillCostAccountedProhibitAbandonAudit');
    const [picked] = (await get('ProductionPick', second.pick)).lines;
    const late = await september.saved('ProductionReturn', { warehouseId: ids.w, lines: [{ materialId: ids.board, number: 1, sourceLineId: picked.id }] });
    await ok(api.post(`${path('ProductionReturn')}/submit`, { id: late }));
    await refused(api.post(`${path('ProductionReturn')}/audit`, { id: late }), 'ProductionCostAccounted');
    await ok(api.post(`${path('ProductionReturn')}/refuse`, { id: late, reason: 'September is costed' }));
    // An ordinary fee of the month is not the cost run's.
    const office = await api.create('fee', { name: 'Stationery', kind: 'expense' });
    const fee = await september.saved('Fee', { fundAccountId: ids.fund, lines: [{ feeTypeId: office, amount: 3 }] });
    await september.pass('Fee', fee);
    // Periods not begun, and runs queued twice, are refused.
    await refused(api.post('/api/admin/production/cost/run', { period: '2999-01' }), 'CostPeriodInFuture');
    await refused(api.post('/api/admin/production/cost/run', { period: '2026-13' }), 'SalaryPeriodInvalid');
    octoberJob = (await ok(api.post<{ id: number }>('/api/admin/production/cost/run', { period: OCT }))).id;
    await refused(api.post('/api/admin/production/cost/run', { period: OCT }), 'CostRunInProgress');
  });

  it('carries work in progress into the next month', async () => {
    const last = await october.saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.product, number: 4, sourceLineId: first.product.id }] });
    await october.pass('ProductionInstock', last);
    // The queued October run (above) takes the completion too.
    ctx.app.jobs.start();
    try {
      for (let i = 0; i < 400; i++) {
        const { status } = await ok(api.get<BackgroundJobView>(`/api/admin/system/jobs/${octoberJob}`));
        if (status === 'succeeded' || status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await ctx.app.jobs.stop();
    }
    const job = await ok(api.get<BackgroundJobView>(`/api/admin/system/jobs/${octoberJob}`));
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const [one] = (await detail(OCT)).orders;
    expect([one.opening, one.finished, one.unitCost, one.closing].map(Number)).toEqual([24, 24, 6, 0]);
    expect(await stockOf(ids.product)).toEqual({ quantity: 10, amount: 60 });
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
    await refused(api.post('/api/admin/production/cost/cancel', { period: SEPT }), 'CostPeriodLaterCalculated');
  });

  it('cancels a run: postings and stock adjustments taken back, the bills free again', async () => {
    await ok(api.post('/api/admin/production/cost/cancel', { period: OCT }));
    await ok(api.post('/api/admin/production/cost/cancel', { period: SEPT }));
    await refused(api.post('/api/admin/production/cost/cancel', { period: SEPT }), 'ProductionCostNotAccounted');
    expect((await detail(SEPT)).status).toBe('NotAccounted');
    // Back to what the completions took in: 24 + 16.
    expect(await stockOf(ids.product)).toEqual({ quantity: 10, amount: 40 });
    const b = await balances();
    expect(b['5101']).toBeCloseTo(20, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
    await ok(api.post(`${path('ProductionInstock')}/abandonAudit`, { id: completion }));
    await september.pass('ProductionInstock', completion);
    // Run again from scratch: the same September.
    expect(await runCost(SEPT, 'quantity')).toMatchObject({ status: 'succeeded' });
    const again = await detail(SEPT);
    expect(again.basis).toBe('quantity');
    // By equivalent output at September's end (order 1 completed only in October): order 1 takes 6 + 4 × 1 = 10
    // units, order 2 10 unfinished × 0.4 (4 of 10 through its step) = 4 → 20 × 10/14 and 20 × 4/14.
    expect(again.orders.map((o) => Number(o.overhead))).toEqual([14.285714, 5.714286]);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('and an audit into the same month arriving together: the audit is in the figures, or refused — never lost', async () => {
    // A month of its own: a pick of order 2's boards submitted, then audited while the month is run.
    const period = '2026-07';
    const july = billSteps<Bill>(() => api, `${period}-10`);
    const material = (await get('ProductionOrder', second.order.id)).lines.find((l) => l.role === 'Material')!;
    const caller: ServiceCaller = { tenantId: tenant.tenantId, account: { tenantId: tenant.tenantId, adminId: api.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access };
    await ok(api.post('/api/admin/production/cost/cancel', { period: SEPT }));
    await ok(api.put('/api/admin/admin/tenant', { allowProductionClaimBeyond: true }));
    let auditedPicks = 0;
    for (let round = 0; round < 4; round++) {
      const pick = await july.saved('ProductionPick', { warehouseId: ids.w, lines: [{ materialId: ids.board, number: 0.5, sourceLineId: material.id }] });
      await ok(api.post(`${path('ProductionPick')}/submit`, { id: pick }));
      const [audited] = await Promise.all([
        api.post(`${path('ProductionPick')}/audit`, { id: pick }),
        withServiceContext(ctx.database, caller, (c) => runCostNow(c, period, 'hours')),
      ]);
      if (audited.body.status === 0) auditedPicks++;
      else expect(audited.body.message).toBe('ProductionCostAccounted');
      // Audited before the run took the month: the run saw it (half a board at 2.00 adds 1.00 of material to order 2);
      // after: refused. Either way the figures hold every audited pick of the month and nothing else.
      const { orders } = await detail(period);
      expect(Number(orders.find((o) => o.orderId === second.order.id)?.material ?? 0)).toBeCloseTo(auditedPicks, 6);
      await ok(api.post('/api/admin/production/cost/cancel', { period }));
      if (audited.body.status !== 0) await ok(api.post(`${path('ProductionPick')}/refuse`, { id: pick, reason: 'costed' }));
    }
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });
});
