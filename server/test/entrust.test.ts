import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, financeVerifyEmpty, ok, refused, stockOf, trialBalances, verifyEmpty } from './bill-fixtures.ts';

/*
 * Entrusted machining (受托加工; PGlite, PostgreSQL with TEST_DB=postgres): a customer's materials come into that
 * customer's consignment warehouse at no value (nothing in the ledger), only that customer's orders pick them
 * (their work in progress holds only the company's own materials), nothing else moves them, and the finished
 * goods leave on a sale out-stock priced at the processing fee. What is left goes back on a return.
 */

let ctx: TestContext;
let api: Caller;
const DAY = '2026-11-20';
const ids = { piece: 0, blank: 0, bolt: 0, bracket: 0, w: 0, acme: 0, beta: 0, acmeStore: 0, betaStore: 0, receipt: 0 };

interface Line {
  id: number;
  materialId: number;
  role?: string;
  number: number;
}
interface Bill {
  id: number;
  billStatus: string;
  customerId?: number | null;
  customerName?: string | null;
  lines: Line[];
}
const { get, pass, saved } = billSteps<Bill>(() => api, DAY);
const switches = (patch: Record<string, boolean>) => ok(api.put('/api/admin/admin/tenant', patch));
const balances = () => trialBalances(api);
const refusedAt = async (type: string, id: number, step: 'submit' | 'audit', key: string) => {
  if (step === 'audit') await ok(api.post(`${path(type)}/submit`, { id }));
  await refused(api.post(`${path(type)}/${step}`, { id }), key);
};
/** An audited order for `number` brackets, machining for `customerId` (none: the company's own). */
async function order(number: number, customerId: number | null) {
  const id = await saved('ProductionOrder', { customerId, lines: [{ role: 'Product', materialId: ids.bracket, number, warehouseId: ids.w }] });
  await pass('ProductionOrder', id);
  return get('ProductionOrder', id);
}
const materialLine = (o: Bill, materialId: number) => o.lines.find((l) => l.role === 'Material' && l.materialId === materialId)!;

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Entrust');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.blank = await api.create('material', { code: 'BLANK', name: 'Steel blank (customer)', units: [{ unitId: ids.piece, isMain: true }], tags: ['entrust'] });
  ids.bolt = await api.create('material', { code: 'BOLT', name: 'Bolt', units: [{ unitId: ids.piece, isMain: true }] });
  ids.bracket = await api.create('material', { code: 'BRKT', name: 'Bracket', units: [{ unitId: ids.piece, isMain: true }] });
  ids.acme = await api.create('customer', { code: 'ACME', name: 'Acme Motors' });
  ids.beta = await api.create('customer', { code: 'BETA', name: 'Beta Pumps' });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  ids.acmeStore = await api.create('stock', { code: 'W-ACME', name: 'Acme consignment', customerId: ids.acme });
  ids.betaStore = await api.create('stock', { code: 'W-BETA', name: 'Beta consignment', customerId: ids.beta });
  // A bracket: one customer blank and two of the company's bolts.
  await api.create('bom', { materialId: ids.bracket, version: 'V1', isDefault: true, lines: [{ materialId: ids.blank, quantity: 1 }, { materialId: ids.bolt, quantity: 2 }] });
  await pass('OtherInstock', await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.bolt, number: 100, unitPrice: 2 }] }));
});
afterAll(() => ctx.close());

describe(`entrusted machining (${TEST_DB})`, () => {
  it('is closed until the tenant turns it on', async () => {
    await refused(api.post(path('EntrustReceipt'), { billDate: DAY, customerId: ids.acme, warehouseId: ids.acmeStore, lines: [{ materialId: ids.blank, number: 1 }] }), 'EntrustMachiningNotOpen');
    await refused(api.post(path('ProductionOrder'), { billDate: DAY, customerId: ids.acme, lines: [{ role: 'Product', materialId: ids.bracket, number: 1 }] }), 'EntrustMachiningNotOpen');
    await switches({ openEntrustMachining: true, openDirectOutstock: true });
  });

  it("receives a customer's materials into its consignment warehouse at no value, and nowhere else", async () => {
    const before = await balances();
    ids.receipt = await saved('EntrustReceipt', { customerId: ids.acme, warehouseId: ids.acmeStore, lines: [{ materialId: ids.blank, number: 50 }] });
    await pass('EntrustReceipt', ids.receipt);
    expect(await stockOf(api, ids.blank, ids.acmeStore)).toBe(50);
    const current = await ok(api.get<Array<{ amount: string }>>(`/api/admin/stock/current?materialId=${ids.blank}&pageSize=50`));
    expect(current.reduce((s, r) => s + Number(r.amount), 0)).toBe(0);
    expect(await balances()).toEqual(before);
    // Not into the company's own warehouse, nor another customer's.
    for (const warehouseId of [ids.w, ids.betaStore]) {
      const id = await saved('EntrustReceipt', { customerId: ids.acme, warehouseId, lines: [{ materialId: ids.blank, number: 1 }] });
      await refusedAt('EntrustReceipt', id, 'audit', 'EntrustWarehouseNotCustomers');
    }
    // The consignment warehouse keeps its customer while it holds stock.
    await refused(api.put('/api/admin/basic/stock', { id: ids.acmeStore, name: 'Acme consignment', customerId: ids.beta }), 'WarehouseCustomerChangeHoldingStock');
  });

  it("picks the customer's materials only for that customer's orders, at no value into work in progress", async () => {
    const before = await balances();
    const forAcme = await order(10, ids.acme);
    const pick = await saved('ProductionPick', {
      customerId: ids.acme,
      lines: [
        { materialId: ids.blank, number: 10, sourceLineId: materialLine(forAcme, ids.blank).id, warehouseId: ids.acmeStore },
        { materialId: ids.bolt, number: 20, sourceLineId: materialLine(forAcme, ids.bolt).id, warehouseId: ids.w },
      ],
    });
    await pass('ProductionPick', pick);
    expect(await get('ProductionPick', pick)).toMatchObject({ customerId: ids.acme, customerName: 'Acme Motors' });
    expect(await stockOf(api, ids.blank, ids.acmeStore)).toBe(40);
    // Only the company's bolts are work in progress: 20 × 2.00.
    expect((await balances())['5001'] - (before['5001'] ?? 0)).toBeCloseTo(40, 6);

    // A pick must machine for its order's customer…
    const another = await order(1, ids.acme);
    const unnamed = await saved('ProductionPick', { customerId: null, lines: [{ materialId: ids.bolt, number: 1, sourceLineId: materialLine(another, ids.bolt).id, warehouseId: ids.w }] });
    await refusedAt('ProductionPick', unnamed, 'submit', 'EntrustCustomerNotSources');
    // …and the company's own orders, or another customer's, do not take Acme's blanks.
    for (const customerId of [null, ids.beta]) {
      const other = await order(1, customerId);
      const id = await saved('ProductionPick', { customerId, lines: [{ materialId: ids.blank, number: 1, sourceLineId: materialLine(other, ids.blank).id, warehouseId: ids.acmeStore }] });
      await refusedAt('ProductionPick', id, 'audit', 'EntrustedStockOtherCustomer');
    }
    // Nor does anything else move them: a transfer to the company's store.
    const transfer = await saved('StockTransfer', { warehouseId: ids.acmeStore, targetWarehouseId: ids.w, lines: [{ materialId: ids.blank, number: 1, warehouseId: ids.acmeStore, targetWarehouseId: ids.w }] });
    await refusedAt('StockTransfer', transfer, 'audit', 'EntrustedStockOtherCustomer');

    // Completed, the brackets carry the company's own cost only; shipped at the processing fee.
    const completion = await saved('ProductionInstock', { warehouseId: ids.w, lines: [{ materialId: ids.bracket, number: 10, sourceLineId: forAcme.lines.find((l) => l.role === 'Product')!.id, warehouseId: ids.w }] });
    await pass('ProductionInstock', completion);
    const shipped = await saved('SaleOutstock', { customerId: ids.acme, warehouseId: ids.w, lines: [{ materialId: ids.bracket, number: 10, unitPrice: 15, warehouseId: ids.w }] });
    await pass('SaleOutstock', shipped);
    const after = await balances();
    expect(after['6001'] - (before['6001'] ?? 0)).toBeCloseTo(150, 6);
    expect(after['6401'] - (before['6401'] ?? 0)).toBeCloseTo(40, 6);
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it('sends back what is left from the receipt, from the consignment warehouse only', async () => {
    const receipt = await get('EntrustReceipt', ids.receipt);
    const back = await saved('EntrustReturn', { customerId: ids.acme, warehouseId: ids.acmeStore, lines: [{ materialId: ids.blank, number: 5, sourceLineId: receipt.lines[0].id, warehouseId: ids.acmeStore }] });
    await pass('EntrustReturn', back);
    expect(await stockOf(api, ids.blank, ids.acmeStore)).toBe(35);
    const fromOwn = await saved('EntrustReturn', { customerId: ids.acme, warehouseId: ids.w, lines: [{ materialId: ids.blank, number: 1, sourceLineId: receipt.lines[0].id, warehouseId: ids.w }] });
    await refusedAt('EntrustReturn', fromOwn, 'audit', 'EntrustWarehouseNotCustomers');
    // The customer is in use while its consignment warehouse names it.
    await refused(api.del('/api/admin/basic/customer', { ids: [ids.acme] }), 'CustomerInUseProhibitDelete');
    await verifyEmpty(api);
    await financeVerifyEmpty(api);
  });

  it("states each customer's materials: opening, received, consumed by the orders named, returned, held", async () => {
    // One more order of 3 for Acme: 3 blanks picked, 1 brought back by a production return.
    const third = await order(3, ids.acme);
    const pick = await saved('ProductionPick', { customerId: ids.acme, lines: [{ materialId: ids.blank, number: 3, sourceLineId: materialLine(third, ids.blank).id, warehouseId: ids.acmeStore }] });
    await pass('ProductionPick', pick);
    const picked = await get('ProductionPick', pick);
    const back = await saved('ProductionReturn', { customerId: ids.acme, warehouseId: ids.acmeStore, lines: [{ materialId: ids.blank, number: 1, sourceLineId: picked.lines[0].id, warehouseId: ids.acmeStore }] });
    await pass('ProductionReturn', back);
    const codes = (await ok(api.get<Array<{ billCode: string; customerId: number | null }>>(`${path('ProductionOrder')}?pageSize=50`))).filter((o) => o.customerId === ids.acme).map((o) => o.billCode);
    type Row = { customerName: string; materialCode: string; opening: string; received: string; consumed: string; returned: string; other: string; closing: string; orders: string | null };
    const figures = ['opening', 'received', 'consumed', 'returned', 'other', 'closing'] as const;
    const statement = async (query: string) =>
      (await ok(api.get<Row[]>(`/api/admin/production/entrustStatement?customerId=${ids.acme}&${query}`))).map((r) => ({ ...r, ...Object.fromEntries(figures.map((f) => [f, Number(r[f])])) }));
    const [row] = await statement('');
    // 50 received, 10 + 3 − 1 consumed, 5 returned: 33 held, as current stock shows.
    expect(row).toMatchObject({ customerName: 'Acme Motors', materialCode: 'BLANK', opening: 0, received: 50, consumed: 12, returned: 5, other: 0, closing: 33 });
    expect(await stockOf(api, ids.blank, ids.acmeStore)).toBe(33);
    // The orders that consumed, by code; none of another customer's.
    expect(row.orders?.split(', ').every((code) => codes.includes(code))).toBe(true);
    expect(row.orders?.split(', ')).toHaveLength(2);
    // A later period opens with what was held and moves nothing.
    const [later] = await statement('startDate=2026-11-21');
    expect(later).toMatchObject({ opening: 33, received: 0, consumed: 0, returned: 0, closing: 33, orders: null });
    // Beta holds nothing: no row.
    expect(await ok(api.get<Row[]>(`/api/admin/production/entrustStatement?customerId=${ids.beta}`))).toEqual([]);
    const exported = await api.download('/api/admin/production/entrustStatement/export', { customerId: ids.acme });
    expect(exported.status).toBe(200);
    expect(String(exported.headers['content-type'])).toContain('spreadsheet');
  });
});
