import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchSuggestion, BillTransitionView, EarlyWarning } from '@p8/contract/bills/api';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, staffCaller, type Caller } from './basic-fixtures.ts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../src/core/service-context.ts';
import { rows } from '../src/db/connection.ts';
import { earlyWarning } from '../src/bills/early-warning.ts';
import { billDateDashboard } from '../src/bills/dashboard.ts';
import { dashboardDates } from '../src/core/dashboard.ts';
import { localDay } from '../src/bills/stock-rules.ts';
import { billPath, ok, refused, stockOf as stockFixture, verifyEmpty as verifyFixture } from './bill-fixtures.ts';

/*
 * The bill engine's stock rules through the API, on PGlite and on PostgreSQL (TEST_DB=postgres): serial
 * numbers, first-expiry-first-out batches, the stock-check lock, delivery confirmation, the early warning
 * and the refund types. Every test that moves stock ends with POST /api/admin/stock/verify empty.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, plain: 0, serial: 0, batch: 0, supplier: 0, customer: 0, w1: 0, w2: 0 };

/** A day counted from the server's today (the routes' default), `YYYY-MM-DD`. */
function day(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
const TODAY = day(0);

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'BillRules');
  api = await adminCaller(ctx, t);
  await setTenantConfig(ctx, t.tenantId, { openBatchNumber: true, openSerialNumber: true });
  ids.piece = await api.create('unit', { name: 'pc' });
  const units = [{ unitId: ids.piece, isMain: true }];
  ids.plain = await api.create('material', { code: 'P1', name: 'Plain', units, safetyStock: 100 });
  ids.serial = await api.create('material', { code: 'S1', name: 'Phone', units, serialNumber: true });
  ids.batch = await api.create('material', { code: 'B1', name: 'Milk', units, batchNumber: true, warnDays: 10 });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.w2 = await api.create('stock', { code: 'W2', name: 'Second' });
  await audited('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 50, unitPrice: 2 }] });
});
afterAll(() => ctx.close());

const path = billPath;

const save = (type: string, body: Record<string, unknown>) => api.post<{ id: number }>(path(type), { billDate: TODAY, ...body });
const saved = async (type: string, body: Record<string, unknown>) => (await ok(save(type, body))).id;

async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const id = await saved(type, body);
  await ok(api.post(`${path(type)}/submit`, { id }));
  await ok(api.post(`${path(type)}/audit`, { id }));
  return id;
}

const verifyEmpty = () => verifyFixture(api);
const stockOf = (materialId: number, warehouseId = ids.w1) => stockFixture(api, materialId, warehouseId);

describe('serial numbers', () => {
  const line = (serialNumbers: string[], extra: Record<string, unknown> = {}) => ({ materialId: ids.serial, number: serialNumbers.length, serialNumbers, unitPrice: 100, ...extra });

  it('takes one unit per serial; refuses repeats, unknown, misplaced, boxed, used and sent-out serials', async () => {
    await audited('OtherInstock', { warehouseId: ids.w1, lines: [line(['SN-A', 'SN-B', 'SN-C'])] });
    expect(await stockOf(ids.serial)).toBe(3);
    await refused(save('OtherInstock', { warehouseId: ids.w1, lines: [line(['SN-D', 'SN-E'], { number: 3 })] }), 'SerialNumberCountMismatch');
    await refused(save('OtherInstock', { warehouseId: ids.w1, lines: [line(['SN-D']), line(['SN-D'])] }), 'SerialNumberRepeat');
    await refused(save('OtherInstock', { warehouseId: ids.w2, lines: [line(['SN-A'])] }), 'SerialNumberIsUsed');
    await refused(save('OtherOutstock', { warehouseId: ids.w1, lines: [line(['SN-NEVER'])] }), 'SerialNumberNotExist');
    await refused(save('OtherOutstock', { warehouseId: ids.w2, lines: [line(['SN-A'])] }), 'SerialNumberNotExist');
    // A draft out-stock packs SN-A: another out bill cannot take it, the draft itself can be saved again.
    const first = await saved('OtherOutstock', { warehouseId: ids.w1, lines: [line(['SN-A'])] });
    await refused(save('OtherOutstock', { warehouseId: ids.w1, lines: [line(['SN-A'])] }), 'SerialNumberIsBoxed');
    await ok(api.put(path('OtherOutstock'), { id: first, billDate: TODAY, warehouseId: ids.w1, lines: [line(['SN-A'])] }));
    await ok(api.post(`${path('OtherOutstock')}/submit`, { id: first }));
    await ok(api.post(`${path('OtherOutstock')}/audit`, { id: first }));
    await refused(save('OtherOutstock', { warehouseId: ids.w1, lines: [line(['SN-A'])] }), 'SerialNumberIsOutStock');
    // Back in once it went out.
    await audited('OtherInstock', { warehouseId: ids.w2, lines: [line(['SN-A'])] });
    await verifyEmpty();
  });

  it('moves a serial through a transfer without calling it used', async () => {
    await audited('StockTransfer', { warehouseId: ids.w1, targetWarehouseId: ids.w2, lines: [line(['SN-B'])] });
    const here = await ok(api.get<Array<{ serialNumber: string; warehouseId: number }>>(`/api/admin/stock/current?materialId=${ids.serial}&pageSize=200`));
    expect(here.filter((r) => r.serialNumber === 'SN-B').map((r) => Number(r.warehouseId))).toEqual([ids.w2]);
    await verifyEmpty();
  });
});

describe('batches', () => {
  it('suggests batches earliest expiry first, skips expired ones, and the suggestion posts', async () => {
    await audited('OtherInstock', {
      warehouseId: ids.w1,
      lines: [
        { materialId: ids.batch, number: 5, unitPrice: 1, batchNumber: 'LATE', expirationDate: day(60) },
        { materialId: ids.batch, number: 3, unitPrice: 1, batchNumber: 'SOON', expirationDate: day(7) },
        { materialId: ids.batch, number: 4, unitPrice: 1, batchNumber: 'NODATE' },
        { materialId: ids.batch, number: 2, unitPrice: 1, batchNumber: 'GONE', expirationDate: day(-3) },
      ],
    });
    const suggestion = await ok(api.get<BatchSuggestion>(`/api/admin/stock/batches/suggest?materialId=${ids.batch}&warehouseId=${ids.w1}&quantity=9`));
    expect(suggestion.picks.map((p) => [p.batchNumber, Number(p.take)])).toEqual([
      ['SOON', 3],
      ['LATE', 5],
      ['NODATE', 1],
    ]);
    expect(suggestion.picks[0].expirationDate).toBe(day(7));
    expect(Number(suggestion.short)).toBe(0);
    const short = await ok(api.get<BatchSuggestion>(`/api/admin/stock/batches/suggest?materialId=${ids.batch}&warehouseId=${ids.w1}&quantity=20`));
    expect(Number(short.short)).toBe(8);
    await refused(api.get(`/api/admin/stock/batches/suggest?materialId=${ids.batch}&warehouseId=${ids.w1}&quantity=0`), 'NumberMustGreaterThanZero');
    // The picks as an out-stock's lines.
    await audited('OtherOutstock', { warehouseId: ids.w1, lines: suggestion.picks.map((p) => ({ materialId: ids.batch, number: Number(p.take), batchNumber: p.batchNumber })) });
    expect(await stockOf(ids.batch)).toBe(14 - 9);
    await verifyEmpty();
  });
});

describe('assembly', () => {
  it('needs a product coming in and a component going out before it is submitted', async () => {
    const before = await stockOf(ids.plain);
    const onlyOut = await saved('Assembly', { assemblyType: 'Assembly', warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 2, direction: 'out' }] });
    await refused(api.post(`${path('Assembly')}/submit`, { id: onlyOut }), 'AssemblyNeedsBothSides');
    const onlyIn = await saved('Assembly', { assemblyType: 'Assembly', warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 2, direction: 'in' }] });
    await refused(api.post(`${path('Assembly')}/submit`, { id: onlyIn }), 'AssemblyNeedsBothSides');
    expect(await stockOf(ids.plain)).toBe(before);
    await ok(api.del(path('Assembly'), { ids: [onlyOut, onlyIn] }));
  });
});

describe('stock check book quantities', () => {
  it('shows what the place holds while the check is open, and what it held once the check is audited', async () => {
    const material = await api.create('material', { code: 'BOOK1', name: 'Book probe', units: [{ unitId: ids.piece, isMain: true }] });
    await audited('OtherInstock', { warehouseId: ids.w2, lines: [{ materialId: material, number: 12, unitPrice: 1 }] });
    const check = await saved('StockCheck', { warehouseId: ids.w2, lines: [{ materialId: material, number: 9 }] });
    const book = async () => (await ok(api.get<{ lines: Array<{ bookNumber: number }> }>(`${path('StockCheck')}/${check}`))).lines[0].bookNumber;
    expect(await book()).toBe(12);
    await ok(api.post(`${path('StockCheck')}/submit`, { id: check }));
    await ok(api.post(`${path('StockCheck')}/audit`, { id: check }));
    expect(await stockOf(material, ids.w2)).toBe(9);
    expect(await book()).toBe(12);
    await ok(api.post(`${path('StockCheck')}/abandonAudit`, { id: check }));
    expect(await book()).toBe(12);
    await ok(api.post(`${path('StockCheck')}/submit`, { id: check }));
    await ok(api.post(`${path('StockCheck')}/audit`, { id: check }));
    expect(await book()).toBe(12);
    await verifyEmpty();
  });
});

describe('stock-check lock', () => {
  it('keeps a material still being counted from moving in any other bill, until the check is audited', async () => {
    const inId = await audited('OtherInstock', { warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 5, unitPrice: 2 }] });
    const check = await saved('StockCheck', { warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 55 }] });
    const checkCode = (await ok(api.get<{ billCode: string }>(`${path('StockCheck')}/${check}`))).billCode;
    const out = await saved('OtherOutstock', { warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 1 }] });
    await ok(api.post(`${path('OtherOutstock')}/submit`, { id: out }));
    const res = await api.post(`${path('OtherOutstock')}/audit`, { id: out });
    expect(res.body).toMatchObject({ message: 'ExistMaterialIsInventorying' });
    expect(JSON.stringify(res.body)).toContain(checkCode);
    await refused(api.post(`${path('OtherInstock')}/abandonAudit`, { id: inId }), 'ExistMaterialIsInventorying');
    // Another warehouse is not being counted.
    await audited('OtherInstock', { warehouseId: ids.w2, lines: [{ materialId: ids.plain, number: 1, unitPrice: 2 }] });
    await ok(api.post(`${path('StockCheck')}/submit`, { id: check }));
    await ok(api.post(`${path('StockCheck')}/audit`, { id: check }));
    expect(await stockOf(ids.plain)).toBe(55);
    await ok(api.post(`${path('OtherOutstock')}/audit`, { id: out }));
    expect(await stockOf(ids.plain)).toBe(54);
    await verifyEmpty();
  });
});

describe('delivery and early warning', () => {
  it('confirms arrival only after sending, by its button code, on the timeline; the warning follows', async () => {
    const url = path('SaleShip');
    const ship = await saved('SaleShip', { customerId: ids.customer, warehouseId: ids.w1, deliveryDate: day(2), deliveryWarnDays: 3, lines: [{ materialId: ids.plain, number: 1 }] });
    const later = await audited('SaleShip', { customerId: ids.customer, warehouseId: ids.w1, deliveryDate: day(10), deliveryWarnDays: 3, lines: [{ materialId: ids.plain, number: 1 }] });
    await refused(api.post(`${url}/delivery`, { id: ship, operation: 'deliver' }), 'BillNotAudit');
    await ok(api.post(`${url}/submit`, { id: ship }));
    await ok(api.post(`${url}/audit`, { id: ship }));

    const warning = () => ok(api.get<EarlyWarning>(`/api/admin/stock/warning?today=${TODAY}`));
    const due = (await warning()).bills.filter((b) => b.kind === 'delivery');
    expect(due.map((b) => b.billId)).toEqual([ship]);
    expect(due[0]).toMatchObject({ billType: 'SaleShip', date: day(2), warnDays: 3, daysLeft: 2, partnerName: 'Customer one' });
    expect(due.map((b) => b.billId)).not.toContain(later);

    await refused(api.post(`${url}/delivery`, { id: ship, operation: 'arrive' }), 'DeliveryNotConfirmed');
    await refused(api.post(`${url}/delivery`, { id: ship, operation: 'later' }), 'ParamError');
    const clerk = await staffCaller(ctx, t, ['sale_ship_add']);
    expect((await clerk.post(`${url}/delivery`, { id: ship, operation: 'deliver' })).body.status).toBe(40300);
    expect(await ok(api.post(`${url}/delivery`, { id: ship, operation: 'deliver' }))).toEqual({ deliveryStatus: 'InDelivery' });
    await refused(api.post(`${url}/delivery`, { id: ship, operation: 'deliver' }), 'DeliveryAlreadyConfirmed');
    await refused(api.post(`${url}/abandonAudit`, { id: ship }), 'BillDeliveredProhibitAbandonAudit');
    expect(await ok(api.post(`${url}/delivery`, { id: ship, operation: 'arrive' }))).toEqual({ deliveryStatus: 'Arrived' });
    expect((await ok(api.get<{ deliveryStatus: string }>(`${url}/${ship}`))).deliveryStatus).toBe('Arrived');
    const steps = await ok(api.get<BillTransitionView[]>(`${url}/${ship}/timeline`));
    expect(steps.slice(-2).map((s) => [s.operation, s.toStatus])).toEqual([
      ['deliver', 'Audit'],
      ['arrive', 'Audit'],
    ]);
    expect((await warning()).bills.some((b) => b.billId === ship)).toBe(false);
    // Ten days ahead the later notice warns too.
    const ahead = await ok(api.get<EarlyWarning>(`/api/admin/stock/warning?today=${day(8)}`));
    expect(ahead.bills.find((b) => b.billId === later)).toMatchObject({ kind: 'delivery', daysLeft: 2 });
  });

  it('warns of overdue payments, low stock and expiring batches', async () => {
    const instock = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w2, payDate: day(-1), payWarnDays: 0, lines: [{ materialId: ids.plain, number: 1, unitPrice: 3 }] });
    const warning = await ok(api.get<EarlyWarning>(`/api/admin/stock/warning?today=${TODAY}`));
    expect(warning.bills.find((b) => b.billId === instock)).toMatchObject({ kind: 'pay', daysLeft: -1, partnerName: 'Supplier one' });
    // Plain: a safety stock of 100, less in stock.
    expect(warning.lowStock.find((m) => m.materialId === ids.plain)).toMatchObject({ materialCode: 'P1', safetyStock: expect.stringMatching(/^100(\.0+)?$/) });
    expect(warning.lowStock.some((m) => m.materialId === ids.serial)).toBe(false);
    // Milk warns 10 days ahead: the FEFO out-stock took all of SOON (7 days); LATE is 60 days away; GONE expired.
    const expiring = warning.expiring.filter((e) => e.materialId === ids.batch).map((e) => e.batchNumber);
    expect(expiring).not.toContain('LATE');
    expect(expiring).toContain('GONE');
    for (const bad of ['2026-13-40', '2026-02-30', 'today']) await refused(api.get(`/api/admin/stock/warning?today=${bad}`), 'DateOutOfRange');
    await verifyEmpty();
  });

  it("counts the bill dates from the database's today, not the Node process's clock", async () => {
    // A database time zone (UTC-12 or UTC+14: 26 hours apart) whose date is not the process's local date.
    const inZone = <T>(zone: string, work: (ctx: ServiceContext) => Promise<T>) =>
      ctx.database.withTenant(t.tenantId, async (tx) => {
        await tx.execute(sql.raw(`set local time zone '${zone}'`));
        return work({ tx, tenantId: t.tenantId } as ServiceContext);
      });
    const dbDay = (zone: string) => inZone(zone, async ({ tx }) => (await rows<{ today: string }>(tx, sql`select current_date::text as today`))[0].today);
    const zone = (await dbDay('Etc/GMT+12')) !== localDay() ? 'Etc/GMT+12' : 'Etc/GMT-14';
    const today = await dbDay(zone);
    expect(today).not.toBe(localDay());

    // Due today by the database, warning 0 days ahead: it warns, with no day left.
    const instock = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w2, payDate: today, payWarnDays: 0, lines: [{ materialId: ids.plain, number: 1, unitPrice: 3 }] });
    const found = await inZone(zone, (c) => earlyWarning(c, { limit: 200 }));
    expect(found.bills.find((b) => b.billId === instock)).toMatchObject({ kind: 'pay', date: today, daysLeft: 0 });
    // The home dashboard's warnings read the same day.
    const section = await inZone(zone, async (c) => billDateDashboard.warnings!({ ctx: c, may: () => true, dates: await dashboardDates(c) }, 200));
    expect(section.items.some((w) => w.kind === 'payDate' && w.detail === today)).toBe(true);
    await verifyEmpty();
  });
});

describe('refund types', () => {
  it('moves stock only for ReturnsRefunds, counts only goods sent back as refunded, and never refunds a unit twice', async () => {
    const instock = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 10, unitPrice: 2 }] });
    const sourceLine = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${path('PurchaseInstock')}/${instock}`))).lines[0].id;
    const refund = (refundType: string, number: number) =>
      audited('PurchaseRefund', { supplierId: ids.supplier, warehouseId: ids.w1, refundType, lines: [{ materialId: ids.plain, number, unitPrice: 2, sourceLineId: sourceLine }] });
    const progress = async () => {
      const head = await ok(api.get<{ billStatus: string; progress: Record<string, string>; lines: Array<{ progress: { refund: { done: number; taken: number } } }> }>(`${path('PurchaseInstock')}/${instock}`));
      return { status: head.billStatus, state: head.progress.refund, ...head.lines[0].progress.refund };
    };
    const before = await stockOf(ids.plain);

    await refund('OnlyRefund', 3);
    expect(await stockOf(ids.plain)).toBe(before);
    expect(await progress()).toEqual({ status: 'Audit', state: 'NoRefund', done: 0, taken: 3 });

    await refund('Exchange', 2);
    expect(await stockOf(ids.plain)).toBe(before);
    expect(await progress()).toEqual({ status: 'Partially', state: 'PartialRefund', done: 2, taken: 5 });

    await refund('ReturnsRefunds', 5);
    expect(await stockOf(ids.plain)).toBe(before - 5);
    expect(await progress()).toMatchObject({ done: 7, taken: 10 });
    // All ten units are refunded one way or another: nothing is open for another refund.
    const open = await ok(api.get<unknown[]>(`${path('PurchaseRefund')}/sources?sourceType=PurchaseInstock&pageSize=200`));
    expect(open.some((l) => (l as { sourceLineId: number }).sourceLineId === sourceLine)).toBe(false);
    await refused(save('PurchaseRefund', { supplierId: ids.supplier, warehouseId: ids.w1, refundType: 'OnlyRefund', lines: [{ materialId: ids.plain, number: 1, sourceLineId: sourceLine }] }), 'NumberExceedSourceBill');
    await verifyEmpty();
  });

  it('refuses to submit a pushed-down refund until its refund type is chosen (push down cannot guess it)', async () => {
    const instock = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.plain, number: 4, unitPrice: 2 }] });
    const sourceLine = (await ok(api.get<{ lines: Array<{ id: number }> }>(`${path('PurchaseInstock')}/${instock}`))).lines[0].id;
    const draft = await ok(api.post<{ id: number }>(`${path('PurchaseRefund')}/pushDown`, { sourceType: 'PurchaseInstock', sourceLineIds: [sourceLine] }));
    await refused(api.post(`${path('PurchaseRefund')}/submit`, { id: draft.id }), 'PleaseSelectRefundType');
    expect((await ok(api.get<{ billStatus: string }>(`${path('PurchaseRefund')}/${draft.id}`))).billStatus).toBe('Saved');
    const bill = await ok(api.get<{ billDate: string; lines: Array<{ materialId: number; number: number; unitPrice: number; sourceLineId: number }> }>(`${path('PurchaseRefund')}/${draft.id}`));
    await ok(api.put(path('PurchaseRefund'), { id: draft.id, billDate: bill.billDate, supplierId: ids.supplier, warehouseId: ids.w1, refundType: 'OnlyRefund', lines: bill.lines.map((l) => ({ materialId: l.materialId, number: l.number, unitPrice: l.unitPrice, sourceLineId: l.sourceLineId })) }));
    await ok(api.post(`${path('PurchaseRefund')}/submit`, { id: draft.id }));
  });
});
