import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import type { FloorStep } from '@p8/contract/shop-floor';
import { billPath as path, billSteps, financeVerifyEmpty, ok, refused, stockOf, verifyEmpty } from './bill-fixtures.ts';

/*
 * Production through the API (PGlite; PostgreSQL with TEST_DB=postgres): a production order's materials from
 * its product's BOM, picks taking only its materials and completions only its products, the progress of each
 * on its own lines, returns at the cost the pick took out, completions valued at the order's work in progress
 * (the last one takes what is left), 5001 work in progress in the ledger going back to zero, and the
 * production switches.
 */

let ctx: TestContext;
let tenant: TestTenant;
let api: Caller;
const DAY = '2026-11-24';
const ids = { piece: 0, product: 0, a: 0, b: 0, w: 0, bom: 0 };

interface Line {
  id: number;
  materialId: number;
  role?: string;
  bomId?: number | null;
  itemType?: string;
  processId?: number;
  unitPrice?: number;
  priceTotal?: number;
  number: number;
  progress: Record<string, { state: string; done: number }>;
}
interface Bill {
  id: number;
  billStatus: string;
  progress: Record<string, string>;
  lines: Line[];
}

const { get, pass, saved } = billSteps<Bill>(() => api, DAY);
/** Tenant switches, through the settings screen's API. */
const switches = (patch: Record<string, boolean>) => ok(api.put('/api/admin/admin/tenant', patch));
/** The trial balance's balance per account (natural side positive); its totals agree. */
async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }>; debitTotal: string; creditTotal: string }>('/api/admin/finance/trialBalance'));
  expect(trial.debitTotal).toBe(trial.creditTotal);
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}
async function stockValue(materialId: number) {
  const rows = await ok(api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${ids.w}&pageSize=200`));
  return rows.reduce((s, r) => s + Number(r.amount), 0);
}
/** An audited production order for `number` of the product, its materials from the product's BOM. */
async function order(number: number) {
  const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: ids.product, number, warehouseId: ids.w }] });
  await pass('ProductionOrder', id);
  return get('ProductionOrder', id);
}

beforeAll(async () => {
  ctx = await startTestApp();
  const t = (tenant = await seedTenant(ctx.database, 'Production'));
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.product = await api.create('material', { code: 'P', name: 'Controller', units: [{ unitId: ids.piece, isMain: true }] });
  ids.a = await api.create('material', { code: 'A', name: 'Board', units: [{ unitId: ids.piece, isMain: true }] });
  ids.b = await api.create('material', { code: 'B', name: 'Case', units: [{ unitId: ids.piece, isMain: true }] });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  // One controller takes two boards and a case, one case in ten lost in assembly.
  ids.bom = await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, lines: [{ materialId: ids.a, quantity: 2 }, { materialId: ids.b, quantity: 1, lossRate: 10 }] });
  // 100 boards at 2.00 and 50 cases at 3.00.
  const opening = await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.a, number: 100, unitPrice: 2 }, { materialId: ids.b, number: 50, unitPrice: 3 }] });
  await pass('OtherInstock', opening);
});
afterAll(() => ctx.close());

describe('production orders', () => {
  it('take their materials from the product BOM when saved with products only, and need a product', async () => {
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: ids.product, number: 10 }] });
    const saved1 = await get('ProductionOrder', id);
    expect(saved1.lines.map((l) => [l.role, l.materialId, l.number])).toEqual([
      ['Product', ids.product, 10],
      ['Material', ids.a, 20],
      ['Material', ids.b, 11],
    ]);
    expect(saved1.lines[0].bomId).toBe(ids.bom);
    // Its quantity is the products it makes, not those and their materials.
    expect((saved1 as unknown as { number: number }).number).toBe(10);
    // Materials given by hand are kept as given.
    await ok(api.put(path('ProductionOrder'), { id, billDate: DAY, lines: [{ role: 'Product', materialId: ids.product, number: 10 }, { role: 'Material', materialId: ids.a, number: 25 }] }));
    expect((await get('ProductionOrder', id)).lines.map((l) => [l.role, l.number])).toEqual([
      ['Product', 10],
      ['Material', 25],
    ]);
    await refused(api.post(path('ProductionOrder'), { billDate: DAY, lines: [{ role: 'Material', materialId: ids.a, number: 1 }] }), 'ProductionOrderNeedsProduct');
    await refused(api.post(path('ProductionOrder'), { billDate: DAY, lines: [{ materialId: ids.product, number: 1 }] }), 'PleaseSelectLineRole');
  });

  it('are picked by their materials and completed by their products, valued at the work in progress they absorbed', async () => {
    const before = await balances();
    const o = await order(10);
    const [product, boards, cases] = o.lines;
    // The pick's picker offers the materials only; the product line is not a pick's source.
    const offered = await ok(api.get<Array<{ sourceLineId: number }>>(`${path('ProductionPick')}/sources?sourceType=ProductionOrder&pageSize=50`));
    expect(offered.map((l) => l.sourceLineId).filter((id) => o.lines.some((l) => l.id === id))).toEqual([boards.id, cases.id]);
    await refused(api.post(`${path('ProductionPick')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [product.id] }), 'SourceBillNotExist');
    await refused(api.post(path('ProductionPick'), { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 1, sourceLineId: product.id }] }), 'SourceBillNotExist');
    await refused(api.post(path('ProductionPick'), { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: ids.a, number: 1 }] }), 'PleaseSelectSourceBill');

    // Pick everything: 20 boards at 2 and 11 cases at 3 go into work in progress (73).
    const pick = (await ok(api.post<{ id: number }>(`${path('ProductionPick')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [boards.id, cases.id] }))).id;
    const draft = await get('ProductionPick', pick);
    await ok(api.put(path('ProductionPick'), { id: pick, billDate: DAY, warehouseId: ids.w, lines: draft.lines.map((l) => ({ id: l.id, materialId: l.materialId, number: l.number, sourceLineId: (l as unknown as { sourceLineId: number }).sourceLineId })) }));
    await pass('ProductionPick', pick);
    expect(await stockOf(api, ids.a, ids.w)).toBe(80);
    let now = await get('ProductionOrder', o.id);
    expect(now.progress).toEqual({ instock: 'NoInstock', pick: 'AllPick', inspection: 'NoInspection' });
    expect(now.billStatus).toBe('Audit');
    // Each line shows the progress that counts on it.
    expect(Object.keys(now.lines[0].progress)).toEqual(['instock', 'inspection']);
    expect(Object.keys(now.lines[1].progress)).toEqual(['pick']);
    expect((await balances())['5001'] - (before['5001'] ?? 0)).toBe(73);

    // One case comes back, at the 3.00 it left at: 70 left in progress.
    const pickLines = (await get('ProductionPick', pick)).lines;
    const back = await saved('ProductionReturn', { warehouseId: ids.w, lines: [{ materialId: ids.b, number: 1, sourceLineId: pickLines[1].id }] });
    await pass('ProductionReturn', back);
    expect((await balances())['5001'] - (before['5001'] ?? 0)).toBe(70);

    // Four of ten completed: 70 ÷ 10 = 7.00 each.
    const first = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.product, number: 4, sourceLineId: product.id }] });
    await pass('ProductionInstock', first);
    expect(await stockValue(ids.product)).toBe(28);
    now = await get('ProductionOrder', o.id);
    expect(now.progress).toEqual({ instock: 'PartialInStock', pick: 'AllPick', inspection: 'NoInspection' });
    expect(now.billStatus).toBe('Partially');
    // The pick and the return went into what that completion took: they keep their audits.
    await refused(api.post(`${path('ProductionPick')}/abandonAudit`, { id: pick }), 'ProductionCompletedProhibitAbandonAudit');
    await refused(api.post(`${path('ProductionReturn')}/abandonAudit`, { id: back }), 'ProductionCompletedProhibitAbandonAudit');

    // Beyond the six open: refused unless the tenant allows it.
    await refused(api.post(path('ProductionInstock'), { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 7, sourceLineId: product.id }] }), 'NumberExceedSourceBill');
    // The last six take what is left (42), and work in progress is back where it was.
    const last = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.product, number: 6, sourceLineId: product.id }] });
    await pass('ProductionInstock', last);
    expect(await stockValue(ids.product)).toBe(70);
    now = await get('ProductionOrder', o.id);
    expect(now.progress).toEqual({ instock: 'AllInStock', pick: 'AllPick', inspection: 'NoInspection' });
    expect(now.billStatus).toBe('Complete');
    expect((await balances())['5001']).toBe(before['5001'] ?? 0);
    // A completed order is not picked from again.
    await refused(api.post(path('ProductionPick'), { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: ids.a, number: 1, sourceLineId: boards.id }] }), 'ProductionOrderCompleted');
    await refused(api.post(`${path('ProductionPick')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [boards.id] }), 'ProductionOrderCompleted');

    // The order is held while bills take from it; withdrawing the last completion reopens it.
    await refused(api.post(`${path('ProductionOrder')}/abandonAudit`, { id: o.id }), 'ExistChildrenBillProhibitAbandonAudit');
    await ok(api.post(`${path('ProductionInstock')}/abandonAudit`, { id: last }));
    expect((await get('ProductionOrder', o.id)).billStatus).toBe('Partially');
    expect((await balances())['5001'] - (before['5001'] ?? 0)).toBe(42);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('are made to a sale order: its goods become the products, by the BOM the sale order chose, apart from what it ships', async () => {
    const customer = await api.create('customer', { code: 'C', name: 'Customer' });
    await switches({ openSaleOrderBomSelect: true });
    const sale = await saved('SaleOrder', { customerId: customer, deliveryDate: '2026-12-20', lines: [{ materialId: ids.product, number: 3, unitPrice: 100, bomId: ids.bom }] });
    await pass('SaleOrder', sale);
    const [saleLine] = (await get('SaleOrder', sale)).lines;
    const made = (await ok(api.post<{ id: number }>(`${path('ProductionOrder')}/pushDown`, { sourceType: 'SaleOrder', sourceLineIds: [saleLine.id] }))).id;
    const draft = (await get('ProductionOrder', made)) as Bill & { deliveryDate: string };
    expect(draft.deliveryDate).toBe('2026-12-20');
    expect(draft.lines.map((l) => [l.role, l.materialId, l.number])).toEqual([
      ['Product', ids.product, 3],
      ['Material', ids.a, 6],
      ['Material', ids.b, 3.3],
    ]);
    expect(draft.lines[0].bomId).toBe(ids.bom);
    await pass('ProductionOrder', made);
    const now = await get('SaleOrder', sale);
    expect(now.progress.production).toBe('AllProduction');
    // Still all to ship: putting goods into production does not use up the order's open quantity.
    const open = await ok(api.get<Array<{ sourceLineId: number; openNumber: string }>>(`${path('SaleOutstock')}/sources?sourceType=SaleOrder&pageSize=50`));
    expect(open.find((l) => l.sourceLineId === saleLine.id)?.openNumber).toBe('3.000000');
    await switches({ openSaleOrderBomSelect: false });
  });

  it("lay out their process steps from the routing, reported step by step at each step's piece rate", async () => {
    const cut = await api.create('process', { name: 'Cut', pieceRate: 0.5, standardHours: 0.1 });
    const solder = await api.create('process', { name: 'Solder', pieceRate: 0.8, standardHours: 0.2 });
    const routing = await api.create('routing', { name: 'Cut then solder', steps: [{ processId: cut }, { processId: solder, pieceRate: 1.2 }] });
    const kit = await api.create('material', { code: 'Q', name: 'Kit', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: kit, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.a, quantity: 1 }] });
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: kit, number: 10 }] });
    await pass('ProductionOrder', id);
    const o = await get('ProductionOrder', id);
    expect(o.lines.map((l) => [l.role, l.materialId, l.number, l.processId ?? null, l.role === 'Process' ? l.unitPrice : null])).toEqual([
      ['Product', kit, 10, null, null],
      ['Material', ids.a, 10, null, null],
      ['Process', kit, 10, cut, 0.5],
      ['Process', kit, 10, solder, 1.2],
    ]);
    const [, , cutLine, solderLine] = o.lines;
    // The report's picker offers the steps only.
    const offered = await ok(api.get<Array<{ sourceLineId: number }>>(`${path('ProcessReport')}/sources?sourceType=ProductionOrder&pageSize=50`));
    expect(offered.map((l) => l.sourceLineId).filter((lineId) => o.lines.some((l) => l.id === lineId))).toEqual([cutLine.id, solderLine.id]);

    // All ten cut, six soldered: each at its step's piece rate.
    const report = (await ok(api.post<{ id: number }>(`${path('ProcessReport')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [cutLine.id, solderLine.id], numbers: [{ sourceLineId: solderLine.id, number: 6 }] }))).id;
    const draft = (await get('ProcessReport', report)) as Bill & { priceTotal: number };
    expect(draft.lines.map((l) => [l.processId, l.number, l.unitPrice, l.priceTotal])).toEqual([
      [cut, 10, 0.5, 5],
      [solder, 6, 1.2, 7.2],
    ]);
    expect(draft.priceTotal).toBe(12.2);
    await pass('ProcessReport', report);
    let now = await get('ProductionOrder', id);
    expect(now.progress.report).toBe('PartialReport');
    expect(now.lines[2].progress.report.state).toBe('AllReport');
    expect(now.lines[3].progress.report.state).toBe('PartialReport');
    // A step cannot be reported beyond the order.
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: kit, number: 1, processId: cut, sourceLineId: cutLine.id }] }), 'NumberExceedReportable');
    const rest = await saved('ProcessReport', { lines: [{ materialId: kit, number: 4, processId: solder, unitPrice: 1.2, sourceLineId: solderLine.id }] });
    await pass('ProcessReport', rest);
    now = await get('ProductionOrder', id);
    expect(now.progress).toMatchObject({ report: 'AllReport', instock: 'NoInstock' });
    // A step reports at most what the previous step passed: nothing cut yet, then three cut.
    const again = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: kit, number: 5 }] });
    await pass('ProductionOrder', again);
    const [, , cut2, solder2] = (await get('ProductionOrder', again)).lines;
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: kit, number: 1, processId: solder, sourceLineId: solder2.id }] }), 'PreviousProcessNotReported');
    const cutReport = await saved('ProcessReport', { lines: [{ materialId: kit, number: 3, processId: cut, sourceLineId: cut2.id }] });
    await pass('ProcessReport', cutReport);
    const beyond = await api.post<unknown>(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: kit, number: 4, processId: solder, sourceLineId: solder2.id }] });
    expect(beyond.body).toMatchObject({ message: 'NumberExceedReportable', details: { line: 1, need: '4.000000', have: '3.000000' } });
    // The three cut pieces are relied on once the next step reports them: the cut report keeps its audit.
    const bent = await saved('ProcessReport', { lines: [{ materialId: kit, number: 1, processId: solder, sourceLineId: solder2.id }] });
    await refused(api.post(`${path('ProcessReport')}/abandonAudit`, { id: cutReport }), 'BillReportedProhibitAbandonAudit');
    await ok(api.del(path('ProcessReport'), { ids: [bent] }));
    await ok(api.post(`${path('ProcessReport')}/abandonAudit`, { id: cutReport }));
    await pass('ProcessReport', cutReport);
    // A draft of two takes them from what is reportable.
    await saved('ProcessReport', { lines: [{ materialId: kit, number: 2, processId: solder, sourceLineId: solder2.id }] });
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: kit, number: 2, processId: solder, sourceLineId: solder2.id }] }), 'NumberExceedReportable');
    // A step without its process is refused, with its line.
    await refused(api.post(path('ProductionOrder'), { billDate: DAY, lines: [{ role: 'Product', materialId: kit, number: 1 }, { role: 'Process', materialId: kit, number: 1 }] }), 'PleaseSelectProcess');
  });

  it('send rework back to its step: reported again there, never passed on, earning nothing, shown on the order', async () => {
    const cut = await api.create('process', { name: 'Trim', pieceRate: 0.5 });
    const solder = await api.create('process', { name: 'Weld', pieceRate: 1.2 });
    const routing = await api.create('routing', { name: 'Trim then weld', steps: [{ processId: cut }, { processId: solder }] });
    const frame = await api.create('material', { code: 'FR', name: 'Frame', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: frame, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.a, quantity: 1 }] });
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: frame, number: 10 }] });
    await pass('ProductionOrder', id);
    const [, , trim, weld] = (await get('ProductionOrder', id)).lines;
    const line = (step: Line, figures: Record<string, number>) => ({ materialId: frame, processId: step.processId, unitPrice: step.unitPrice, sourceLineId: step.id, ...figures });
    // 8 trimmed good, 1.5 sent back for rework: the rework earns nothing.
    const first = await saved('ProcessReport', { lines: [line(trim, { number: 8, reworkNumber: 1.5 })] });
    expect((await get('ProcessReport', first)).lines.map((l) => [l.number, (l as Line & { reworkNumber: number }).reworkNumber, l.priceTotal])).toEqual([[8, 1.5, 4]]);
    await pass('ProcessReport', first);
    // The rework is still at the trim step: 8 taken + 1 + 1.5 of rework is beyond the order's 10.
    const beyond = await api.post<unknown>(path('ProcessReport'), { billDate: DAY, lines: [line(trim, { number: 1, reworkNumber: 1.5 })] });
    expect(beyond.body).toMatchObject({ message: 'NumberExceedReportable', details: { line: 1, need: '10.500000', have: '10.000000' } });
    // Rework is not passed on: the weld step reports at most the 8 good, good and rework together.
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [line(weld, { number: 6, reworkNumber: 2.5 })] }), 'NumberExceedReportable');
    // A line of rework only (no good piece), and a line of nothing.
    const weldBack = await saved('ProcessReport', { lines: [line(weld, { number: 5 }), line(weld, { number: 0, reworkNumber: 3 })] });
    await pass('ProcessReport', weldBack);
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [line(weld, { number: 0 })] }), 'PleaseInputNumber');
    // The order's steps show their reports' figures; the weld step is partly reported (its rework is not done).
    let o = await get('ProductionOrder', id);
    const figures = (l: Line) => {
      const { reportedGood, reportedScrap, reportedRework } = l as Line & Record<string, number>;
      return [reportedGood, reportedScrap, reportedRework, l.progress.report.state];
    };
    expect([o.lines[2], o.lines[3]].map(figures)).toEqual([
      [8, 0, 1.5, 'PartialReport'],
      [5, 0, 3, 'PartialReport'],
    ]);
    expect(o.lines[0]).not.toHaveProperty('reportedGood');
    // The reworked pieces come back and are reported good: the three at weld (8 passed, 5 taken), the 1.5 and the
    // last half at trim; then nothing more is reportable at weld until trim passes more.
    const again = await saved('ProcessReport', { lines: [line(weld, { number: 3 }), line(trim, { number: 2 })] });
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [line(weld, { number: 0, reworkNumber: 0.5 })] }), 'NumberExceedReportable');
    await pass('ProcessReport', again);
    o = await get('ProductionOrder', id);
    expect([o.lines[2], o.lines[3]].map(figures)).toEqual([
      [10, 0, 1.5, 'AllReport'],
      [8, 0, 3, 'PartialReport'],
    ]);
    // Piece-rate accounting is offered the good pieces only: the rework-only line offers nothing.
    const offered = await ok(api.get<Array<{ sourceLineId: number; openNumber: string }>>(`${path('ProcessAccounting')}/sources?sourceType=ProcessReport&pageSize=200`));
    const weldLines = (await get('ProcessReport', weldBack)).lines;
    expect(offered.filter((l) => weldLines.some((w) => w.id === l.sourceLineId)).map((l) => Number(l.openNumber))).toEqual([5]);
    // Two reports at once, each 3 good and 2 for rework of 5: weighed one after the other under the order's lock
    // (PostgreSQL), the second finds 3 taken — one is saved, the other refused.
    const small = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: frame, number: 5 }] });
    await pass('ProductionOrder', small);
    const [, , smallTrim] = (await get('ProductionOrder', small)).lines;
    const both = await Promise.all([0, 1].map(() => api.post<unknown>(path('ProcessReport'), { billDate: DAY, lines: [line(smallTrim, { number: 3, reworkNumber: 2 })] })));
    expect(both.map((r) => (r.body as { message: string }).message).sort()).toEqual(['NumberExceedReportable', 'Success']);
  });

  it("list a worker's dispatched steps on the shop floor's quick report, every open step for the report screen's holders", async () => {
    const worker = await staffCaller(ctx, tenant, ['production_quickReport', 'production_report_add', 'production_report_submit']);
    const mould = await api.create('process', { name: 'Mould', pieceRate: 0.3 });
    const box = await api.create('process', { name: 'Box', pieceRate: 0.1 });
    const crew = await api.create('team', { code: 'FL', name: 'Floor crew', members: [{ staffId: worker.adminId, share: 1 }] });
    const routing = await api.create('routing', { name: 'Mould then box', steps: [{ processId: mould, teamId: crew }, { processId: box }] });
    const lid = await api.create('material', { code: 'LID', name: 'Lid', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: lid, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.a, quantity: 1 }] });
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: lid, number: 10 }] });
    await pass('ProductionOrder', id);
    const o = (await get('ProductionOrder', id)) as Bill & { billCode: string };
    const [, , mouldStep, boxStep] = o.lines;
    const steps = async (who: Caller, all = false) =>
      (await ok(who.get<FloorStep[]>(`/api/admin/production/quickReport/${all ? 'allSteps' : 'steps'}?keyword=${o.billCode}`))).map((s) => [s.processName, s.stepNo, s.reportable, s.reportedGood, s.reportedRework, s.dispatchedTo]);
    // Nothing dispatched to the worker yet; the report screen's holder sees the open first step (the second has nothing passed).
    expect(await steps(worker)).toEqual([]);
    expect(await steps(api, true)).toEqual([['Mould', 1, '10.000000', '0.000000', '0.000000', []]]);
    // Every open step takes the report screen (a worker who may add reports holds it); the quick report's alone does not.
    const looker = await staffCaller(ctx, tenant, ['production_quickReport']);
    expect(await steps(looker)).toEqual([]);
    await refused(looker.get('/api/admin/production/quickReport/allSteps'), 'Forbidden');
    // The moulding dispatched to the worker's crew: theirs.
    await pass('ProcessDispatch', await saved('ProcessDispatch', { lines: [{ materialId: lid, number: 10, processId: mould, teamId: crew, sourceLineId: mouldStep.id }, { materialId: lid, number: 10, processId: box, sourceLineId: boxStep.id }] }));
    expect(await steps(worker)).toEqual([['Mould', 1, '10.000000', '0.000000', '0.000000', ['Floor crew']]]);
    // The worker reports 6 good and 2 for rework through the engine's routes, as the screen does, and submits it.
    const report = await ok(worker.post<{ id: number }>(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: lid, number: 6, reworkNumber: 2, processId: mould, teamId: crew, staffId: worker.adminId, unitPrice: 0.3, sourceLineId: mouldStep.id }] }));
    await ok(worker.post(`${path('ProcessReport')}/submit`, { id: report.id }));
    // Still reportable: the 4 the draft does not take (the 2 for rework among them); beyond it, refused for the worker too.
    expect(await steps(worker)).toEqual([['Mould', 1, '4.000000', '0.000000', '0.000000', ['Floor crew']]]);
    await refused(worker.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: lid, number: 3, reworkNumber: 2, processId: mould, sourceLineId: mouldStep.id }] }), 'NumberExceedReportable');
    await ok(api.post(`${path('ProcessReport')}/audit`, { id: report.id }));
    expect(await steps(worker)).toEqual([['Mould', 1, '4.000000', '6.000000', '2.000000', ['Floor crew']]]);
    expect((await steps(api, true)).map((s) => [s[0], s[2]])).toEqual([
      ['Mould', '4.000000'],
      ['Box', '6.000000'],
    ]);
  });

  it('stock the scrap a report counted at its scrap value, off the order\'s work in progress, never beyond the scrap', async () => {
    const stamp = await api.create('process', { name: 'Stamp', pieceRate: 1 });
    const routing = await api.create('routing', { name: 'Stamping', steps: [{ processId: stamp }] });
    const plate = await api.create('material', { code: 'PL', name: 'Plate', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: plate, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.a, quantity: 1 }] });
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: plate, number: 10, warehouseId: ids.w }] });
    await pass('ProductionOrder', id);
    const o = await get('ProductionOrder', id);
    const material = o.lines.find((l) => l.role === 'Material')!;
    const step = o.lines.find((l) => l.role === 'Process')!;
    const pick = await saved('ProductionPick', { warehouseId: ids.w, lines: [{ materialId: ids.a, number: 10, sourceLineId: material.id }] });
    await pass('ProductionPick', pick);
    // Seven good, three scrapped.
    const report = await saved('ProcessReport', { lines: [{ materialId: plate, number: 7, scrapNumber: 3, processId: stamp, unitPrice: 1, sourceLineId: step.id }] });
    await pass('ProcessReport', report);
    // The three scrapped came into the step and left production there: none of the 10 is left to report.
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: plate, number: 1, processId: stamp, unitPrice: 1, sourceLineId: step.id }] }), 'NumberExceedReportable');
    await refused(api.post(path('ProcessReport'), { billDate: DAY, lines: [{ materialId: plate, number: 0, scrapNumber: 1, processId: stamp, unitPrice: 1, sourceLineId: step.id }] }), 'NumberExceedReportable');
    const [reported] = (await get('ProcessReport', report)).lines;
    // The waste in-stock's picker offers the three scrapped, not the seven good.
    const offered = await ok(api.get<Array<{ sourceLineId: number; number: string; openNumber: string }>>(`${path('ProductionWaste')}/sources?sourceType=ProcessReport&pageSize=50`));
    expect(offered.filter((l) => l.sourceLineId === reported.id).map((l) => [Number(l.number), Number(l.openNumber)])).toEqual([[3, 3]]);
    await refused(api.post(path('ProductionWaste'), { billDate: DAY, warehouseId: ids.w, lines: [{ materialId: plate, number: 4, unitPrice: 0.5, sourceLineId: reported.id, warehouseId: ids.w }] }), 'NumberExceedSourceBill');
    const before = await balances();
    const waste = await saved('ProductionWaste', { warehouseId: ids.w, lines: [{ materialId: plate, number: 2, unitPrice: 0.5, sourceLineId: reported.id, warehouseId: ids.w }] });
    await pass('ProductionWaste', waste);
    // Two in at 0.50: 1.00 into stock, off 5001.
    const after = await balances();
    expect(after['1405'] - before['1405']).toBeCloseTo(1, 6);
    expect(after['5001'] - before['5001']).toBeCloseTo(-1, 6);
    let r = await get('ProcessReport', report);
    expect(r.progress).toMatchObject({ waste: 'PartialWaste', accounting: 'NoAccounting' });
    expect(r.lines[0].progress.waste).toMatchObject({ state: 'PartialWaste', done: 2 });
    // The rest by push down: one scrapped piece left; the good pieces are still all open to accounting (apart).
    const rest = (await ok(api.post<{ id: number }>(`${path('ProductionWaste')}/pushDown`, { sourceType: 'ProcessReport', sourceLineIds: [reported.id] }))).id;
    expect((await get('ProductionWaste', rest)).lines.map((l) => l.number)).toEqual([1]);
    await ok(api.put(path('ProductionWaste'), { ...(await get('ProductionWaste', rest)), warehouseId: ids.w, lines: [{ materialId: plate, number: 1, unitPrice: 0.5, sourceLineId: reported.id, warehouseId: ids.w }] }));
    await pass('ProductionWaste', rest);
    r = await get('ProcessReport', report);
    expect(r.progress.waste).toBe('AllWaste');
    const accounting = await ok(api.get<Array<{ sourceLineId: number; openNumber: string }>>(`${path('ProcessAccounting')}/sources?sourceType=ProcessReport&pageSize=50`));
    expect(accounting.filter((l) => l.sourceLineId === reported.id).map((l) => Number(l.openNumber))).toEqual([7]);
    // The seven completed take their share of what is left of the work in progress (10 boards at 2.00 less 1.50 of
    // scrap value: 18.50, of an order of 10): 12.95.
    const done = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: plate, number: 7, sourceLineId: o.lines.find((l) => l.role === 'Product')!.id, warehouseId: ids.w }] });
    await pass('ProductionInstock', done);
    // The waste in-stock keeps its audit once the completion took the order's work in progress into stock.
    await refused(api.post(`${path('ProductionWaste')}/abandonAudit`, { id: waste }), 'ProductionCompletedProhibitAbandonAudit');
    const finished = await ok(api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${plate}&warehouseId=${ids.w}&pageSize=200`));
    // Beside the scrap's 1.50 in the same warehouse.
    expect(finished.reduce((sum, row) => sum + Number(row.amount), 0)).toBeCloseTo(12.95 + 1.5, 6);
    // A report line without scrap offers nothing to stock: no waste state on it (another order's step: this one has
    // nothing left to report, its 10 taken by 7 good and 3 scrapped).
    const another = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: plate, number: 1, warehouseId: ids.w }] });
    await pass('ProductionOrder', another);
    const anotherStep = (await get('ProductionOrder', another)).lines.find((l) => l.role === 'Process')!;
    const clean = await saved('ProcessReport', { lines: [{ materialId: plate, number: 1, processId: stamp, unitPrice: 1, sourceLineId: anotherStep.id }] });
    await pass('ProcessReport', clean);
    expect((await get('ProcessReport', clean)).progress.waste).toBeUndefined();
    await verifyEmpty(api);
  });

  it('dispatch their process steps to a team, a worker and a machine, step by step', async () => {
    const press = await api.create('process', { name: 'Press', pieceRate: 0.3 });
    const pack = await api.create('process', { name: 'Pack', pieceRate: 0.2 });
    const team = await api.create('team', { code: 'TD', name: 'Pressers' });
    const machine = await api.create('equipment', { code: 'M1', name: 'Press 1', teamId: team, status: 'running' });
    const routing = await api.create('routing', { name: 'Press then pack', steps: [{ processId: press, teamId: team }, { processId: pack }] });
    const box = await api.create('material', { code: 'X', name: 'Box', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: box, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: ids.b, quantity: 1 }] });
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: box, number: 8 }] });
    await pass('ProductionOrder', id);
    const [, , pressLine, packLine] = (await get('ProductionOrder', id)).lines;
    // The dispatch picker offers the steps only; the press step goes to its team's worker on the machine.
    const offered = await ok(api.get<Array<{ sourceLineId: number }>>(`${path('ProcessDispatch')}/sources?sourceType=ProductionOrder&pageSize=50`));
    expect(offered.map((l) => l.sourceLineId).filter((lineId) => [pressLine.id, packLine.id].includes(lineId))).toEqual([pressLine.id, packLine.id]);
    const dispatch = (await ok(api.post<{ id: number }>(`${path('ProcessDispatch')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [pressLine.id] }))).id;
    const [line] = (await get('ProcessDispatch', dispatch)).lines as Array<Line & { teamId?: number }>;
    expect([line.processId, line.teamId, line.number]).toEqual([press, team, 8]);
    await ok(api.put(path('ProcessDispatch'), { id: dispatch, billDate: DAY, lines: [{ ...line, staffId: api.adminId, equipmentId: machine, planStart: DAY, planFinish: '2026-11-26' }] }));
    await pass('ProcessDispatch', dispatch);
    const detail = (await get('ProcessDispatch', dispatch)).lines[0] as Line & Record<string, unknown>;
    expect([detail.staffId, detail.equipmentId, detail.planStart, detail.planFinish]).toEqual([api.adminId, machine, DAY, '2026-11-26']);
    const now = await get('ProductionOrder', id);
    expect(now.progress.dispatch).toBe('PartialDispatch');
    expect([now.lines[2].progress.dispatch.state, now.lines[3].progress.dispatch.state]).toEqual(['AllDispatch', 'NoDispatch']);
    // Dispatching does not use up what may be reported of the step.
    const pressed = await saved('ProcessReport', { lines: [{ materialId: box, number: 8, processId: press, unitPrice: 0.3, sourceLineId: pressLine.id }] });
    await pass('ProcessReport', pressed);
    // Nothing more of the press step to dispatch; a machine a dispatch names is in use.
    await refused(api.post(`${path('ProcessDispatch')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [pressLine.id] }), 'BillAllPushed');
    await refused(api.del('/api/admin/basic/equipment', { ids: [machine] }), 'EquipmentInUseProhibitDelete');
    // A scrapped machine takes no work.
    await ok(api.put('/api/admin/basic/equipment', { id: machine, status: 'scrapped' }));
    const next = (await ok(api.post<{ id: number }>(`${path('ProcessDispatch')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [packLine.id] }))).id;
    const [packing] = (await get('ProcessDispatch', next)).lines;
    const sent = await api.put<unknown>(path('ProcessDispatch'), { id: next, billDate: DAY, lines: [{ ...packing, equipmentId: machine }] });
    expect(sent.body).toMatchObject({ message: 'EquipmentScrapped', details: { line: 1 } });
  });

  it('pick the consumables of their BOM (子项类型 耗材) beyond the requirement only with openConsumablesOutstock', async () => {
    const glue = await api.create('material', { code: 'GLUE', name: 'Glue', units: [{ unitId: ids.piece, isMain: true }] });
    const gadget = await api.create('material', { code: 'GADGET', name: 'Gadget', units: [{ unitId: ids.piece, isMain: true }] });
    await api.create('bom', { materialId: gadget, version: 'V1', isDefault: true, lines: [{ materialId: ids.a, quantity: 1 }, { materialId: glue, quantity: 0.5, itemType: 'Consumable' }] });
    const opening = await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: glue, number: 20, unitPrice: 1 }] });
    await pass('OtherInstock', opening);
    const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: gadget, number: 4, warehouseId: ids.w }] });
    await pass('ProductionOrder', id);
    const [, boards, glueLine] = (await get('ProductionOrder', id)).lines;
    // The order's material lines keep their BOM line's type.
    expect([boards.itemType, glueLine.itemType, glueLine.number]).toEqual(['Standard', 'Consumable', 2]);
    const pick = (lines: Array<[Line, number]>) => api.post<{ id: number }>(path('ProductionPick'), { billDate: DAY, warehouseId: ids.w, lines: lines.map(([l, number]) => ({ materialId: l.materialId, number, sourceLineId: l.id })) });
    await switches({ openConsumablesOutstock: false, allowProductionClaimBeyond: false });
    await refused(pick([[glueLine, 3]]), 'NumberExceedSourceBill');
    await switches({ openConsumablesOutstock: true });
    // Consumables as the work uses them; the standard parts still no more than the order needs.
    await refused(pick([[glueLine, 3], [boards, 5]]), 'NumberExceedSourceBill');
    const taken = (await ok(pick([[glueLine, 3], [boards, 4]]))).id;
    await pass('ProductionPick', taken);
    expect(await stockOf(api, glue, ids.w)).toBe(17);
    await switches({ openConsumablesOutstock: false });
  });

  it('complete beyond the order only with allowProductionInstockBeyond, and only when all is picked with completionNeedAllPickOutstock', async () => {
    const o = await order(2);
    const [product, boards] = o.lines;
    const pick = await saved('ProductionPick', { warehouseId: ids.w, lines: [{ materialId: ids.a, number: 2, sourceLineId: boards.id }] });
    await pass('ProductionPick', pick);
    expect((await get('ProductionOrder', o.id)).progress.pick).toBe('PartialPick');
    // Nothing completed yet: the pick may lose its audit and have it again.
    await ok(api.post(`${path('ProductionPick')}/abandonAudit`, { id: pick }));
    await pass('ProductionPick', pick);

    await switches({ completionNeedAllPickOutstock: true, allowProductionInstockBeyond: true });
    const done = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.product, number: 3, sourceLineId: product.id }] });
    await refused(api.post(`${path('ProductionInstock')}/submit`, { id: done }), 'NotAllPickOutstockProhibitCompletion');
    await switches({ completionNeedAllPickOutstock: false });
    // Three of two: the beyond switch lets it, at all the work in progress (4 boards at 2.00 ÷ 3).
    await pass('ProductionInstock', done);
    expect((await get('ProductionOrder', o.id)).progress.instock).toBe('AllInStock');
    await switches({ allowProductionInstockBeyond: false });
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });
});
