import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, financeVerifyEmpty, ok, refused, stockOf, verifyEmpty } from './bill-fixtures.ts';

/*
 * Outsourcing through the API (PGlite; PostgreSQL with TEST_DB=postgres): an order's materials from its
 * product's BOM, picks sending them to the supplier (1408), a partial receipt with a reject and a scrap consuming
 * its share of them by the BOM and valued at those materials plus its fee, what the supplier holds per order and
 * never below zero (receipts, returns and withdrawals refused), a refund at the cost it came in at giving the
 * materials back, the fee paid, and the books agreeing.
 */

let ctx: TestContext;
let api: Caller;
const DAY = '2026-11-24';
const ids = { piece: 0, product: 0, a: 0, b: 0, w: 0, bom: 0, supplier: 0, fund: 0 };

interface Line {
  id: number;
  materialId: number;
  role?: string;
  number: number;
  sourceLineId?: number;
  progress: Record<string, { state: string; done: number }>;
}
interface Bill {
  id: number;
  billStatus: string;
  progress: Record<string, string>;
  lines: Line[];
}
interface Held {
  orderId: number;
  materialId: number;
  sent: string;
  returned: string;
  consumed: string;
  quantity: string;
  amount: string;
}

const { get, pass, saved } = billSteps<Bill>(() => api, DAY);
async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }>; debitTotal: string; creditTotal: string }>('/api/admin/finance/trialBalance'));
  expect(trial.debitTotal).toBe(trial.creditTotal);
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}
async function stockValue(materialId: number) {
  const rows = await ok(api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${ids.w}&pageSize=200`));
  return rows.reduce((s, r) => s + Number(r.amount), 0);
}
/** What the order's supplier holds, per material: [quantity, value]. */
async function held(orderId: number) {
  const rows = await ok(api.get<Held[]>(`/api/admin/outsourcing/atSupplier?orderId=${orderId}&pageSize=50`));
  return Object.fromEntries(rows.map((r) => [r.materialId, [Number(r.quantity), Number(r.amount)]]));
}
async function order(number: number) {
  const id = await saved('OutsourcingOrder', { supplierId: ids.supplier, lines: [{ role: 'Product', materialId: ids.product, number, unitPrice: 5, warehouseId: ids.w }] });
  await pass('OutsourcingOrder', id);
  return get('OutsourcingOrder', id);
}
/** A pick of `lines` ([order line, quantity]) from the order, audited. */
async function pick(lines: Array<[Line, number]>) {
  const id = await saved('OutsourcingPick', { supplierId: ids.supplier, warehouseId: ids.w, lines: lines.map(([l, number]) => ({ materialId: l.materialId, number, sourceLineId: l.id })) });
  await pass('OutsourcingPick', id);
  return get('OutsourcingPick', id);
}

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Outsourcing');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.product = await api.create('material', { code: 'P', name: 'Controller', tags: ['outsource'], units: [{ unitId: ids.piece, isMain: true }] });
  ids.a = await api.create('material', { code: 'A', name: 'Board', units: [{ unitId: ids.piece, isMain: true }] });
  ids.b = await api.create('material', { code: 'B', name: 'Case', units: [{ unitId: ids.piece, isMain: true }] });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.supplier = await api.create('supplier', { code: 'S', name: 'Maker' });
  // One controller takes two boards and a case.
  ids.bom = await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, lines: [{ materialId: ids.a, quantity: 2 }, { materialId: ids.b, quantity: 1 }] });
  // 100 boards at 2.00 and 50 cases at 3.00.
  const opening = await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.a, number: 100, unitPrice: 2 }, { materialId: ids.b, number: 50, unitPrice: 3 }] });
  await pass('OtherInstock', opening);
  ids.fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: 1000, openingDate: '2026-01-01' }))).id;
});
afterAll(() => ctx.close());

describe('outsourcing', () => {
  it('orders make one product, their materials from its BOM', async () => {
    const id = await saved('OutsourcingOrder', { supplierId: ids.supplier, lines: [{ role: 'Product', materialId: ids.product, number: 10, unitPrice: 5 }] });
    const o = await get('OutsourcingOrder', id);
    expect(o.lines.map((l) => [l.role, l.materialId, l.number])).toEqual([
      ['Product', ids.product, 10],
      ['Material', ids.a, 20],
      ['Material', ids.b, 10],
    ]);
    // Its amount is the processing fee of the product: 10 × 5.
    expect((o as unknown as { priceTotal: number }).priceTotal).toBe(50);
    await refused(api.post(path('OutsourcingOrder'), { billDate: DAY, supplierId: ids.supplier, lines: [{ role: 'Material', materialId: ids.a, number: 1 }] }), 'OutsourcingOrderOneProduct');
    await refused(
      api.post(path('OutsourcingOrder'), { billDate: DAY, supplierId: ids.supplier, lines: [{ role: 'Product', materialId: ids.product, number: 1 }, { role: 'Product', materialId: ids.a, number: 1 }] }),
      'OutsourcingOrderOneProduct',
    );
  });

  it('send materials, receive part with a reject and a scrap, consume by BOM and value at materials + fee; refunds and returns at cost; the supplier never holds below zero', async () => {
    const before = await balances();
    const o = await order(10);
    const [product, boards, cases] = o.lines;
    // Never more than the order needs.
    await refused(api.post(path('OutsourcingPick'), { billDate: DAY, supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.a, number: 21, sourceLineId: boards.id }] }), 'NumberExceedSourceBill');
    // A receipt before anything is sent: the supplier holds nothing to make it from.
    const early = await saved('OutsourcingInstock', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 1, unitPrice: 5, sourceLineId: product.id }] });
    await ok(api.post(`${path('OutsourcingInstock')}/submit`, { id: early }));
    await refused(api.post(`${path('OutsourcingInstock')}/audit`, { id: early }), 'OutsourcingMaterialShort');
    await ok(api.post(`${path('OutsourcingInstock')}/refuse`, { id: early, reason: 'test' }));
    await ok(api.del(path('OutsourcingInstock'), { ids: [early] }));

    // Send everything: 20 boards at 2 and 10 cases at 3 (70) leave our stock for the supplier's, onto 1408.
    const sent = await pick([
      [boards, 20],
      [cases, 10],
    ]);
    expect(await stockOf(api, ids.a, ids.w)).toBe(80);
    expect(await stockOf(api, ids.b, ids.w)).toBe(40);
    expect(await held(o.id)).toEqual({ [ids.a]: [20, 40], [ids.b]: [10, 30] });
    let now = await get('OutsourcingOrder', o.id);
    expect(now.progress).toEqual({ instock: 'NoInstock', pick: 'AllPick', inspection: 'NoInspection' });
    let books = await balances();
    expect(books['1408'] - (before['1408'] ?? 0)).toBe(70);

    // Four accepted, one rejected, one scrapped: six made, five consumed (four + one scrapped) → 10 boards (20) and
    // 5 cases (15); the four come in at 35 of materials + 4 × 5 fee = 55 (13.75 each). The reject stays with the supplier.
    const first = await saved('OutsourcingInstock', {
      supplierId: ids.supplier,
      warehouseId: ids.w,
      lines: [{ materialId: ids.product, number: 4, rejectedNumber: 1, scrapNumber: 1, unitPrice: 5, sourceLineId: product.id }],
    });
    await pass('OutsourcingInstock', first);
    expect(await stockOf(api, ids.product, ids.w)).toBe(4);
    expect(await stockValue(ids.product)).toBe(55);
    expect(await held(o.id)).toEqual({ [ids.a]: [10, 20], [ids.b]: [5, 15] });
    books = await balances();
    expect(books['1408'] - (before['1408'] ?? 0)).toBe(35);
    expect(books['2202'] - (before['2202'] ?? 0)).toBe(20);
    now = await get('OutsourcingOrder', o.id);
    expect(now.progress).toEqual({ instock: 'PartialInStock', pick: 'AllPick', inspection: 'NoInspection' });
    expect(now.billStatus).toBe('Partially');

    // Six more need 12 boards: the supplier holds 10. Refused, nothing changes.
    const more = await saved('OutsourcingInstock', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 6, unitPrice: 5, sourceLineId: product.id }] });
    await ok(api.post(`${path('OutsourcingInstock')}/submit`, { id: more }));
    await refused(api.post(`${path('OutsourcingInstock')}/audit`, { id: more }), 'OutsourcingMaterialShort');
    expect(await held(o.id)).toEqual({ [ids.a]: [10, 20], [ids.b]: [5, 15] });
    expect(await stockOf(api, ids.product, ids.w)).toBe(4);

    // Two of the four go back (goods and money): at 13.75 each (27.50), the fee 10 off the payable, and their
    // materials (5 boards at 10, 2.5 cases at 7.50) back with the supplier.
    const received = await get('OutsourcingInstock', first);
    const refund = await saved('OutsourcingRefund', { supplierId: ids.supplier, refundType: 'ReturnsRefunds', warehouseId: ids.w, lines: [{ materialId: ids.product, number: 2, unitPrice: 5, sourceLineId: received.lines[0].id }] });
    await pass('OutsourcingRefund', refund);
    expect(await stockOf(api, ids.product, ids.w)).toBe(2);
    expect(await stockValue(ids.product)).toBe(27.5);
    expect(await held(o.id)).toEqual({ [ids.a]: [15, 30], [ids.b]: [7.5, 22.5] });
    books = await balances();
    expect(books['1408'] - (before['1408'] ?? 0)).toBe(52.5);
    expect(books['2202'] - (before['2202'] ?? 0)).toBe(10);
    expect((books['6401'] ?? 0) - (before['6401'] ?? 0)).toBe(0);

    // Five boards come back at the 2.00 they left at; eight cases cannot: the supplier holds 7.5.
    const back = await saved('OutsourcingReturn', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.a, number: 5, sourceLineId: sent.lines[0].id }] });
    await pass('OutsourcingReturn', back);
    expect(await stockOf(api, ids.a, ids.w)).toBe(85);
    expect(await held(o.id)).toEqual({ [ids.a]: [10, 20], [ids.b]: [7.5, 22.5] });
    const tooMany = await saved('OutsourcingReturn', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.b, number: 8, sourceLineId: sent.lines[1].id }] });
    await ok(api.post(`${path('OutsourcingReturn')}/submit`, { id: tooMany }));
    await refused(api.post(`${path('OutsourcingReturn')}/audit`, { id: tooMany }), 'OutsourcingMaterialShort');
    expect(await stockOf(api, ids.b, ids.w)).toBe(40);

    // A pick with returns keeps its audit; withdrawing the refund takes its materials back from the supplier:
    // allowed while it holds them.
    await refused(api.post(`${path('OutsourcingPick')}/abandonAudit`, { id: sent.id }), 'ExistChildrenBillProhibitAbandonAudit');
    await ok(api.post(`${path('OutsourcingRefund')}/abandonAudit`, { id: refund }));
    expect(await held(o.id)).toEqual({ [ids.a]: [5, 10], [ids.b]: [5, 15] });
    expect((await balances())['1408'] - (before['1408'] ?? 0)).toBe(25);
    await pass('OutsourcingRefund', refund);
    expect(await held(o.id)).toEqual({ [ids.a]: [10, 20], [ids.b]: [7.5, 22.5] });

    // Withdrawing a pick whose materials a receipt consumed would leave the supplier below zero: refused.
    const other = await order(2);
    const otherPick = await pick([
      [other.lines[1], 4],
      [other.lines[2], 2],
    ]);
    const otherIn = await saved('OutsourcingInstock', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 1, unitPrice: 5, sourceLineId: other.lines[0].id }] });
    await pass('OutsourcingInstock', otherIn);
    await refused(api.post(`${path('OutsourcingPick')}/abandonAudit`, { id: otherPick.id }), 'OutsourcingMaterialShort');
    expect(await held(other.id)).toEqual({ [ids.a]: [2, 4], [ids.b]: [1, 3] });
    // Withdrawn, the receipt gives its consumption back.
    await ok(api.post(`${path('OutsourcingInstock')}/abandonAudit`, { id: otherIn }));
    expect(await held(other.id)).toEqual({ [ids.a]: [4, 8], [ids.b]: [2, 6] });

    // The fee left to pay (20 − 10) is paid.
    const payment = await saved('Payment', { supplierId: ids.supplier, payType: 'OrdinaryPay', fundAccountId: ids.fund, lines: [{ sourceBillId: first, amount: '20' }, { sourceBillId: refund, amount: '-10' }] });
    await pass('Payment', payment);
    expect((await balances())['2202'] - (before['2202'] ?? 0)).toBe(0);
    expect((await get('OutsourcingInstock', first)).progress.settlement).toBe('AllSettlement');

    // The report lists the order's holding with its supplier, filtered and sorted.
    const listed = await ok(api.get<Array<Held & { supplierName: string; billCode: string; materialCode: string }>>(`/api/admin/outsourcing/atSupplier?supplierId=${ids.supplier}&orderId=${o.id}&materialCodeSort=desc`));
    expect(listed.map((r) => [r.materialCode, r.supplierName, Number(r.sent), Number(r.returned), Number(r.consumed), Number(r.quantity)])).toEqual([
      ['B', 'Maker', 10, 0, 2.5, 7.5],
      ['A', 'Maker', 20, 5, 5, 10],
    ]);

    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('push down from an MRP suggestion to outsource a material tagged outsource', async () => {
    const plan = await saved('MrpPlan', { planBucket: 'day', lines: [{ mrpRole: 'Demand', materialId: ids.product, number: 100, needDate: '2026-12-28' }] });
    const planned = await get('MrpPlan', plan);
    const suggestion = planned.lines.find((l) => (l as unknown as { mrpRole: string }).mrpRole === 'Outsource');
    expect(suggestion?.materialId).toBe(ids.product);
    // Not a suggestion to make in our own shop.
    expect(planned.lines.some((l) => (l as unknown as { mrpRole: string }).mrpRole === 'Produce')).toBe(false);
    await pass('MrpPlan', plan);
    await refused(api.post(`${path('ProductionOrder')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [suggestion!.id] }), 'SourceBillNotExist');
    const made = (await ok(api.post<{ id: number }>(`${path('OutsourcingOrder')}/pushDown`, { sourceType: 'MrpPlan', sourceLineIds: [suggestion!.id] }))).id;
    const o = await get('OutsourcingOrder', made);
    expect(o.lines.map((l) => [l.role, l.materialId])).toEqual([
      ['Product', ids.product],
      ['Material', ids.a],
      ['Material', ids.b],
    ]);
  });
});

describe.skipIf(TEST_DB !== 'postgres')('concurrent receipts of one order', () => {
  it('never consume more than was sent', async () => {
    for (let round = 0; round < 3; round++) {
      const o = await order(10);
      const [product, boards, cases] = o.lines;
      // Ten boards sent: enough for five controllers, not for two receipts of four.
      await pick([
        [boards, 10],
        [cases, 10],
      ]);
      const receipts = [];
      for (let i = 0; i < 2; i++) {
        const id = await saved('OutsourcingInstock', { supplierId: ids.supplier, warehouseId: ids.w, lines: [{ materialId: ids.product, number: 4, unitPrice: 5, sourceLineId: product.id }] });
        await ok(api.post(`${path('OutsourcingInstock')}/submit`, { id }));
        receipts.push(id);
      }
      const [x, y] = await Promise.all(receipts.map((id) => api.post(`${path('OutsourcingInstock')}/audit`, { id })));
      expect([x.body.message, y.body.message].sort()).toEqual(['OutsourcingMaterialShort', 'Success'].sort());
      expect(await held(o.id)).toEqual({ [ids.a]: [2, 4], [ids.b]: [6, 18] });
    }
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });
});
