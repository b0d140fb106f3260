import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostPeriodDetail } from '@p8/contract/production-cost';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { billPath, billSteps, financeVerifyEmpty, ok, refused, runCostJob, verifyEmpty } from './bill-fixtures.ts';

/*
 * The cost run step by step through the levels of a BOM (逐步结转), through the API (PGlite; PostgreSQL with
 * TEST_DB=postgres). August: a controller is made of 2 boards, a board of 1 chip (1.00). The board order makes 10
 * boards from 10 chips (10.00) with 5.00 of piece wages; the controller order picks 8 of them at the 1.00 they came
 * in at and makes 4 controllers with 4.00 of wages; 10.00 of overhead, 5 hours on each order. One controller is
 * issued. The run costs the boards first (10 + 5 + 5 = 20.00, 2.00 each): of their 10.00 more, the 2 on the shelf
 * take 2.00 and the 8 the controller order picked take 8.00 into its material — so the controllers cost
 * 8 + 8 + 4 + 5 = 25.00 (6.25 each), not 17.00; the 3 on the shelf take 12.75 more, the one issued 4.25 into cost of
 * sales. Nothing of the boards' difference reaches cost of sales.
 *
 * September: one order makes 5 sensors (1 chip each, soldered at 0.50) and 5 drives (3 chips each, assembled at
 * 1.00), 2 hours on each product's step; the 10.00 of overhead August's cancelled run left on 5101 goes by hours.
 * Each product is costed apart — its own chips, wages and hours: the sensors 5 + 2.50 + 5 = 12.50, the drives
 * 15 + 5 + 5 = 25.00 — where sharing the order by quantity would give both 18.75.
 */

let ctx: TestContext;
let api: Caller;
const AUG = '2026-08';
const august = billSteps<Bill>(() => api, `${AUG}-12`);
const ids = { pc: 0, chip: 0, board: 0, controller: 0, sensor: 0, drive: 0, w: 0, worker: 0, solder: 0, assemble: 0, fund: 0, power: 0 };
interface Bill {
  id: number;
  lines: Array<{ id: number; materialId: number; role?: string; number: number; productId?: number | null }>;
}

async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}
async function stockOf(materialId: number) {
  const found = await ok(api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${ids.w}&pageSize=200`));
  return { quantity: found.reduce((s, r) => s + Number(r.quantity), 0), amount: Number(found.reduce((s, r) => s + Number(r.amount), 0).toFixed(6)) };
}
const detail = () => ok(api.get<CostPeriodDetail>(`/api/admin/production/cost/${AUG}`));
const figures = async () =>
  Object.fromEntries((await detail()).orders.map((o) => [o.materialCode, [o.material, o.rolledIn, o.labour, o.overhead, o.finished, o.unitCost, o.closing].map(Number)]));

/** An audited order of `number` of `product`: its materials picked, its one step (`process`) reported good in 5 hours at `rate`, accounted; completed whole. */
async function made(product: number, number: number, component: number, process: number, rate: number) {
  const { saved, pass, get } = august;
  const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: product, number, warehouseId: ids.w }] });
  await pass('ProductionOrder', id);
  const order = await get('ProductionOrder', id);
  const material = order.lines.find((l) => l.role === 'Material')!;
  const step = order.lines.find((l) => l.role === 'Process')!;
  const pick = await saved('ProductionPick', { warehouseId: ids.w, lines: [{ materialId: component, number: material.number, sourceLineId: material.id }] });
  await pass('ProductionPick', pick);
  const report = await saved('ProcessReport', { lines: [{ materialId: product, number, processId: process, staffId: ids.worker, hours: 5, unitPrice: rate, sourceLineId: step.id }] });
  await pass('ProcessReport', report);
  const [reported] = (await get('ProcessReport', report)).lines;
  const accounting = await saved('ProcessAccounting', { salaryPeriod: AUG, lines: [{ materialId: product, number, staffId: ids.worker, unitPrice: rate, sourceLineId: reported.id }] });
  await pass('ProcessAccounting', accounting);
  const productLine = order.lines.find((l) => l.role === 'Product')!;
  const completion = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: product, number, sourceLineId: productLine.id }] });
  await pass('ProductionInstock', completion);
  return id;
}

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'CostLevels');
  api = await adminCaller(ctx, t);
  ids.worker = (await staffCaller(ctx, t)).adminId;
  ids.pc = await api.create('unit', { name: 'pc' });
  const material = (code: string, name: string) => api.create('material', { code, name, units: [{ unitId: ids.pc, isMain: true }] });
  ids.controller = await material('C', 'Controller');
  ids.board = await material('B', 'Board');
  ids.chip = await material('X', 'Chip');
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.solder = await api.create('process', { name: 'Solder', pieceRate: 0.5 });
  ids.assemble = await api.create('process', { name: 'Assemble', pieceRate: 1 });
  const soldering = await api.create('routing', { name: 'Soldering', steps: [{ processId: ids.solder }] });
  const assembly = await api.create('routing', { name: 'Assembly', steps: [{ processId: ids.assemble }] });
  await api.create('bom', { materialId: ids.controller, version: 'V1', isDefault: true, routingId: assembly, lines: [{ materialId: ids.board, quantity: 2 }] });
  await api.create('bom', { materialId: ids.board, version: 'V1', isDefault: true, routingId: soldering, lines: [{ materialId: ids.chip, quantity: 1 }] });
  ids.sensor = await material('S', 'Sensor');
  ids.drive = await material('D', 'Drive');
  await api.create('bom', { materialId: ids.sensor, version: 'V1', isDefault: true, routingId: soldering, lines: [{ materialId: ids.chip, quantity: 1 }] });
  await api.create('bom', { materialId: ids.drive, version: 'V1', isDefault: true, routingId: assembly, lines: [{ materialId: ids.chip, quantity: 3 }] });
  ids.fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: 1000, openingDate: '2026-01-01' }))).id;
  ids.power = await api.create('fee', { name: '车间电费', kind: 'expense', overhead: true });
  const opening = await august.saved('OtherInstock', { billDate: `${AUG}-01`, warehouseId: ids.w, lines: [{ materialId: ids.chip, number: 100, unitPrice: 1 }] });
  await august.pass('OtherInstock', opening);
});
afterAll(() => ctx.close());

describe('the cost run through the levels of a BOM', () => {
  it('takes what a sub-assembly costs more into the order that picked it, before costing that order', async () => {
    const fee = await august.saved('Fee', { fundAccountId: ids.fund, lines: [{ feeTypeId: ids.power, amount: 10 }] });
    await august.pass('Fee', fee);
    await made(ids.board, 10, ids.chip, ids.solder, 0.5);
    await made(ids.controller, 4, ids.board, ids.assemble, 1);
    expect(await stockOf(ids.controller)).toEqual({ quantity: 4, amount: 8 });
    const issue = await august.saved('OtherOutstock', { warehouseId: ids.w, lines: [{ materialId: ids.controller, number: 1 }] });
    await august.pass('OtherOutstock', issue);
    const salary = await august.saved('Salary', { salaryPeriod: AUG, lines: [{ staffId: ids.worker, basePay: 0 }] });
    await august.pass('Salary', salary);

    expect(await runCostJob(ctx, api, AUG, 'hours')).toMatchObject({ status: 'succeeded' });
    // material, of it rolled in, labour, overhead, finished, unit cost, closing
    expect(await figures()).toEqual({ B: [10, 0, 5, 5, 20, 2, 0], C: [16, 8, 4, 5, 25, 6.25, 0] });
    expect(await stockOf(ids.board)).toEqual({ quantity: 2, amount: 4 });
    expect(await stockOf(ids.controller)).toEqual({ quantity: 3, amount: 18.75 });
    const b = await balances();
    expect(b['5001'] ?? 0).toBeCloseTo(0, 6);
    expect(b['5101'] ?? 0).toBeCloseTo(0, 6);
    // Only the controller issued: its 4.25 more; the boards' 8.00 went into the controllers, not to cost of sales.
    expect(b['6401'] ?? 0).toBeCloseTo(4.25, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('runs again to the same figures, and cancels back to what the completions took in', async () => {
    const before = await balances();
    const again = await runCostJob(ctx, api, AUG, 'hours');
    expect(Number((again.result as { adjusted: string }).adjusted)).toBe(0);
    expect(await balances()).toEqual(before);
    expect(await figures()).toEqual({ B: [10, 0, 5, 5, 20, 2, 0], C: [16, 8, 4, 5, 25, 6.25, 0] });
    expect(await stockOf(ids.controller)).toEqual({ quantity: 3, amount: 18.75 });

    await ok(api.post('/api/admin/production/cost/cancel', { period: AUG }));
    expect(await stockOf(ids.board)).toEqual({ quantity: 2, amount: 2 });
    expect(await stockOf(ids.controller)).toEqual({ quantity: 3, amount: 6 });
    const after = await balances();
    expect(after['6401'] ?? 0).toBeCloseTo(0, 6);
    expect(after['5101']).toBeCloseTo(10, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('costs each product of an order apart: its own materials, wages and hours', async () => {
    const SEPT = '2026-09';
    const september = billSteps<Bill>(() => api, `${SEPT}-10`);
    const { saved, pass, get } = september;
    const products = [
      { role: 'Product', materialId: ids.sensor, number: 5, warehouseId: ids.w },
      { role: 'Product', materialId: ids.drive, number: 5, warehouseId: ids.w },
    ];
    // A material line is for one of the order's own products.
    await refused(api.post(billPath('ProductionOrder'), { billDate: `${SEPT}-10`, lines: [...products, { role: 'Material', materialId: ids.chip, number: 1, productId: ids.board }] }), 'MaterialProductNotOnOrder');
    const id = await saved('ProductionOrder', { lines: products });
    await pass('ProductionOrder', id);
    const order = await get('ProductionOrder', id);
    // Exploded from each product's BOM, each material line says which product it is for.
    const materials = order.lines.filter((l) => l.role === 'Material');
    expect(materials.map((l) => [l.productId, Number(l.number)])).toEqual([
      [ids.sensor, 5],
      [ids.drive, 15],
    ]);
    const pick = await saved('ProductionPick', { warehouseId: ids.w, lines: materials.map((l) => ({ materialId: ids.chip, number: l.number, sourceLineId: l.id })) });
    await pass('ProductionPick', pick);
    const steps = order.lines.filter((l) => l.role === 'Process');
    const rate = (l: Bill['lines'][number]) => (l.materialId === ids.sensor ? 0.5 : 1);
    const report = await saved('ProcessReport', {
      lines: steps.map((l) => ({ materialId: l.materialId, number: 5, processId: l.materialId === ids.sensor ? ids.solder : ids.assemble, staffId: ids.worker, hours: 2, unitPrice: rate(l), sourceLineId: l.id })),
    });
    await pass('ProcessReport', report);
    const reported = (await get('ProcessReport', report)).lines;
    const accounting = await saved('ProcessAccounting', { salaryPeriod: SEPT, lines: reported.map((l) => ({ materialId: l.materialId, number: 5, staffId: ids.worker, unitPrice: rate(l), sourceLineId: l.id })) });
    await pass('ProcessAccounting', accounting);
    const salary = await saved('Salary', { salaryPeriod: SEPT, lines: [{ staffId: ids.worker, basePay: 0 }] });
    await pass('Salary', salary);
    for (const product of order.lines.filter((l) => l.role === 'Product')) {
      const completion = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: product.materialId, number: 5, sourceLineId: product.id }] });
      await pass('ProductionInstock', completion);
    }
    // Completed, each took half the order's work in progress (its quantity's share): 10.00 each.
    expect([await stockOf(ids.sensor), await stockOf(ids.drive)]).toEqual([
      { quantity: 5, amount: 10 },
      { quantity: 5, amount: 10 },
    ]);

    expect(await runCostJob(ctx, api, SEPT, 'hours')).toMatchObject({ status: 'succeeded', result: { orders: 1 } });
    const costed = await ok(api.get<CostPeriodDetail>(`/api/admin/production/cost/${SEPT}`));
    expect(Object.fromEntries(costed.orders.map((o) => [o.materialCode, [o.material, o.labour, o.overhead, o.finished, o.unitCost].map(Number)]))).toEqual({
      D: [15, 5, 5, 25, 5],
      S: [5, 2.5, 5, 12.5, 2.5],
    });
    expect([await stockOf(ids.sensor), await stockOf(ids.drive)]).toEqual([
      { quantity: 5, amount: 12.5 },
      { quantity: 5, amount: 25 },
    ]);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });
});
