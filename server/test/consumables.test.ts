import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostPeriodDetail } from '@p8/contract/production-cost';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath, billSteps, financeVerifyEmpty, ok, refused, runCostJob, stockOf, trialBalances, verifyEmpty } from './bill-fixtures.ts';

/*
 * Consumables issues (PGlite; PostgreSQL with TEST_DB=postgres): open only with the tenant's
 * openConsumablesOutstock, only for materials tagged consumables; audited, the goods leave stock at the moving
 * average into manufacturing overhead (Dr 5101 / Cr 1405), which the month's cost run counts in its pool.
 */

let ctx: TestContext;
let api: Caller;
const ids = { piece: 0, oil: 0, bolt: 0, w: 0, dept: 0 };
const DAY = '2026-10-12';
const steps = billSteps<{ id: number; billStatus: string }>(() => api, DAY);
const issues = billPath('ConsumablesOutstock');
const setSwitch = (on: boolean) => ok(api.put('/api/admin/admin/tenant', { openConsumablesOutstock: on }));

const balances = () => trialBalances(api);

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Consumables');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'barrel' });
  ids.oil = await api.create('material', { code: 'OIL', name: 'Lubricating oil', units: [{ unitId: ids.piece, isMain: true }], tags: ['purchase', 'consumables'] });
  ids.bolt = await api.create('material', { code: 'BOLT', name: 'Bolt', units: [{ unitId: ids.piece, isMain: true }], tags: ['purchase', 'production'] });
  ids.w = await api.create('stock', { code: 'W', name: 'Stores' });
  ids.dept = (await ok(api.post<{ id: number }>('/api/admin/security/dept', { name: 'Press shop' }))).id;
  // 10 at 40 and 10 at 50: a moving average of 45.
  for (const unitPrice of [40, 50]) {
    await steps.pass('OtherInstock', await steps.saved('OtherInstock', { billDate: '2026-10-01', warehouseId: ids.w, lines: [{ materialId: ids.oil, number: 10, unitPrice }, { materialId: ids.bolt, number: 10, unitPrice: 1 }] }));
  }
});
afterAll(() => ctx.close());

describe(`consumables issues (${TEST_DB})`, () => {
  const body = (lines: Array<Record<string, unknown>>) => ({ billDate: DAY, deptId: ids.dept, warehouseId: ids.w, lines });

  it('are refused while the tenant has them turned off', async () => {
    await refused(api.post(issues, body([{ materialId: ids.oil, number: 1 }])), 'ConsumablesOutstockNotOpen');
    expect(await ok(api.get<unknown[]>(issues))).toEqual([]);
  });

  it('take only materials tagged consumables, naming the line and material', async () => {
    await setSwitch(true);
    const reply = await api.post(issues, body([{ materialId: ids.oil, number: 1 }, { materialId: ids.bolt, number: 1 }]));
    expect((reply.body as { message: string }).message).toBe('MaterialNotConsumables');
    expect((reply.body as { details?: unknown }).details).toMatchObject({ line: 2, material: { code: 'BOLT', name: 'Bolt' } });
    // The workshop using them is named.
    await refused(api.post(issues, { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: ids.oil, number: 1 }] }), 'PleaseSelectDept');
  });

  it('issue at the moving average into manufacturing overhead, and the cost run counts them in its pool', async () => {
    const before = await balances();
    const id = await steps.saved('ConsumablesOutstock', body([{ materialId: ids.oil, number: 4 }]));
    await steps.pass('ConsumablesOutstock', id);
    expect(await stockOf(api, ids.oil, ids.w)).toBe(16);
    const after = await balances();
    expect(after['5101'] - (before['5101'] ?? 0)).toBeCloseTo(180, 6);
    expect(after['1405'] - (before['1405'] ?? 0)).toBeCloseTo(-180, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
    // No order made anything in October: the pool stays unallocated, whole.
    expect((await runCostJob(ctx, api, '2026-10', 'hours')).status).toBe('succeeded');
    const period = await ok(api.get<CostPeriodDetail>('/api/admin/production/cost/2026-10'));
    expect(Number(period.overhead)).toBeCloseTo(180, 6);
    // Costed, the issue keeps its audit until the run is cancelled.
    await refused(api.post(`${issues}/abandonAudit`, { id }), 'BillCostAccountedProhibitAbandonAudit');
  });

  it('turned off again: drafts are neither submitted nor audited, audited ones stay readable', async () => {
    const draft = await steps.saved('ConsumablesOutstock', body([{ materialId: ids.oil, number: 1 }]));
    const submitted = await steps.saved('ConsumablesOutstock', body([{ materialId: ids.oil, number: 1 }]));
    await ok(api.post(`${issues}/submit`, { id: submitted }));
    await setSwitch(false);
    await refused(api.post(`${issues}/submit`, { id: draft }), 'ConsumablesOutstockNotOpen');
    await refused(api.post(`${issues}/audit`, { id: submitted }), 'ConsumablesOutstockNotOpen');
    await refused(api.put(issues, { id: draft, ...body([{ materialId: ids.oil, number: 2 }]) }), 'ConsumablesOutstockNotOpen');
    expect((await ok(api.get<unknown[]>(issues))).length).toBe(3);
    await ok(api.del(issues, { ids: [draft] }));
  });
});
