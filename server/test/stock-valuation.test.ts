import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { rows } from '../src/db/connection.ts';
import { addDays } from '../src/bills/dates.ts';
import { localDay } from '../src/bills/stock-rules.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, billPath as path, billPayload, createBillRecords, financeVerifyEmpty, ok, refused, verifyEmpty } from './bill-fixtures.ts';

/*
 * Moving-average valuation replayed against what a mature ERP (ERPNext, Odoo) books, with figures computed
 * by hand, on PGlite and on PostgreSQL (TEST_DB=postgres). Each scenario runs in a tenant of its own and
 * ends with stock verify (balance = Σ ledger, value = Σ ledger values) and finance verify empty.
 */

let ctx: TestContext;
const DAY = '2026-11-24';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

interface Scene {
  t: TestTenant;
  api: Caller;
  piece: number;
  supplier: number;
  customer: number;
  w1: number;
  material(code: string, body?: Record<string, unknown>): Promise<number>;
}

let tenants = 0;
async function scene(): Promise<Scene> {
  const t = await seedTenant(ctx.database, `Value${++tenants}`);
  const api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  const piece = await api.create('unit', { name: 'pc' });
  return {
    t,
    api,
    piece,
    supplier: await api.create('supplier', { code: 'S1', name: 'Supplier one' }),
    customer: await api.create('customer', { code: 'C1', name: 'Customer one' }),
    w1: await api.create('stock', { code: 'W1', name: 'Main' }),
    material: (code, body = {}) => api.create('material', { code, name: code, units: [{ unitId: piece, isMain: true }], ...body }),
  };
}

async function audited(api: Caller, type: string, body: Record<string, unknown>): Promise<{ id: number; code: string; lines: number[] }> {
  const { id } = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }));
  await ok(api.post(`${path(type)}/submit`, { id }));
  await ok(api.post(`${path(type)}/audit`, { id }));
  const found = await ok(api.get<{ billCode: string; lines: Array<{ id: number }> }>(`${path(type)}/${id}`));
  return { id, code: found.billCode, lines: found.lines.map((l) => l.id) };
}

/** The moving-average valuation of a material in a warehouse: quantity and value, as exact text. */
async function valuation(s: Scene, materialId: number): Promise<{ quantity: string; amount: string }> {
  const [found] = await rows<{ quantity: string; amount: string }>(
    ctx.database,
    sql`select quantity::text, amount::text from stock_valuation where tenant_id = ${s.t.tenantId} and material_id = ${materialId} and warehouse_id = ${s.w1}`,
  );
  return { quantity: String(Number(found.quantity)), amount: String(Number(found.amount)) };
}

/** A bill's stock ledger entries (quantity, unit cost, amount) in posting order. */
async function entries(s: Scene, billId: number): Promise<Array<[number, number, number]>> {
  const found = await rows<{ quantity: string; unit_cost: string; amount: string }>(
    ctx.database,
    sql`select quantity::text, unit_cost::text, amount::text from stock_ledger where tenant_id = ${s.t.tenantId} and bill_id = ${billId} order by id`,
  );
  return found.map((f) => [Number(f.quantity), Number(f.unit_cost), Number(f.amount)]);
}

/** What the bill's postings (receivable / payable and stock value) put on each account in all, debit positive. */
async function booked(s: Scene, billId: number): Promise<Record<string, number>> {
  const found = await rows<{ account_code: string; net: string }>(
    ctx.database,
    sql`select l.account_code, sum(l.debit - l.credit)::text as net
        from fin_posting p join fin_posting_line l on l.tenant_id = p.tenant_id and l.posting_id = p.id
        where p.tenant_id = ${s.t.tenantId} and p.source_kind in ('bill', 'stock') and p.source_id = ${billId}
        group by l.account_code having sum(l.debit - l.credit) <> 0 order by 1`,
  );
  return Object.fromEntries(found.map((f) => [f.account_code, Number(f.net)]));
}

async function verified(s: Scene) {
  await verifyEmpty(s.api);
  await financeVerifyEmpty(s.api);
}

describe('returns come back at the cost the goods moved at', () => {
  it('a customer return pushed down from a sale out-stock comes in at the cost the sale took out; the price stays revenue', async () => {
    const s = await scene();
    const motor = await s.material('M1');
    // 10 at 200.00 and 10 at 206.54: 20 worth 4,065.40, average 203.27.
    await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: motor, number: 10, unitPrice: 200 }] });
    await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: motor, number: 10, unitPrice: 206.54 }] });
    expect(await valuation(s, motor)).toEqual({ quantity: '20', amount: '4065.4' });
    // 5 sold at 300.00: out at 203.27 each, 1,016.35; 15 worth 3,049.05 left.
    const sale = await audited(s.api, 'SaleOutstock', { customerId: s.customer, warehouseId: s.w1, lines: [{ materialId: motor, number: 5, unitPrice: 300 }] });
    expect(await entries(s, sale.id)).toEqual([[-5, 203.27, -1016.35]]);
    expect(await valuation(s, motor)).toEqual({ quantity: '15', amount: '3049.05' });

    // 2 returned against the sale at its price 300: back at 203.27 (406.54), not 300 — the average stays 203.27.
    const returned = await audited(s.api, 'SaleRefund', {
      customerId: s.customer,
      warehouseId: s.w1,
      refundType: 'ReturnsRefunds',
      lines: [{ materialId: motor, number: 2, unitPrice: 300, sourceLineId: sale.lines[0] }],
    });
    expect(await entries(s, returned.id)).toEqual([[2, 203.27, 406.54]]);
    expect(await valuation(s, motor)).toEqual({ quantity: '17', amount: '3455.59' });
    // The books: revenue and the receivable given back at the price, stock back at cost against cost of sales.
    expect(await booked(s, returned.id)).toEqual({ '1122': -600, '1405': 406.54, '6001': 600, '6401': -406.54 });

    // A return with no sale behind it comes in at the current average, whatever its price.
    const loose = await audited(s.api, 'SaleRefund', { customerId: s.customer, warehouseId: s.w1, refundType: 'ReturnsRefunds', lines: [{ materialId: motor, number: 1, unitPrice: 999 }] });
    expect(await entries(s, loose.id)).toEqual([[1, 203.27, 203.27]]);

    // Every later out-stock is costed at the true average: the 18 left go out at 3,658.86 exactly.
    const rest = await audited(s.api, 'SaleOutstock', { customerId: s.customer, warehouseId: s.w1, lines: [{ materialId: motor, number: 18, unitPrice: 300 }] });
    expect(await entries(s, rest.id)).toEqual([[-18, 203.27, -3658.86]]);
    expect(await valuation(s, motor)).toEqual({ quantity: '0', amount: '0' });

    // Withdrawing the return takes its goods out at the current average, and its books with them.
    await ok(s.api.post(`${path('SaleOutstock')}/abandonAudit`, { id: rest.id }));
    await ok(s.api.post(`${path('SaleRefund')}/abandonAudit`, { id: returned.id }));
    expect(await booked(s, returned.id)).toEqual({});
    await verified(s);
  });

  it('a return to the supplier leaves at what its purchase came in at (ERPNext: the original incoming rate)', async () => {
    const s = await scene();
    const part = await s.material('P1');
    await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: part, number: 10, unitPrice: 1 }] });
    const dear = await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: part, number: 10, unitPrice: 3 }] });
    // 20 worth 40 (average 2); 4 of the dear ones go back at 3 each: 16 worth 28 (average 1.75).
    const refund = await audited(s.api, 'PurchaseRefund', {
      supplierId: s.supplier,
      warehouseId: s.w1,
      refundType: 'ReturnsRefunds',
      lines: [{ materialId: part, number: 4, unitPrice: 3, sourceLineId: dear.lines[0] }],
    });
    expect(await entries(s, refund.id)).toEqual([[-4, 3, -12]]);
    expect(await valuation(s, part)).toEqual({ quantity: '16', amount: '28' });
    // The payable and the stock move by the same 12: nothing is left for cost of sales.
    expect(await booked(s, refund.id)).toEqual({ '1405': -12, '2202': 12 });
    await verified(s);
  });
});

describe('negative stock', () => {
  it('a receipt that brings negative stock back to zero leaves no value on the empty shelf: the difference is a variance to cost of sales', async () => {
    const s = await scene();
    await setTenantConfig(ctx, s.t.tenantId, { openNegativeInventory: true });
    const bolt = await s.material('B1');
    await audited(s.api, 'OtherInstock', { warehouseId: s.w1, lines: [{ materialId: bolt, number: 5, unitPrice: 10 }] });
    await audited(s.api, 'SaleOutstock', { customerId: s.customer, warehouseId: s.w1, lines: [{ materialId: bolt, number: 8, unitPrice: 15 }] });
    expect(await valuation(s, bolt)).toEqual({ quantity: '-3', amount: '-30' });
    // The current-stock report shows the shortfall with its value.
    const short = await ok(s.api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${bolt}`));
    expect(short.map((r) => [Number(r.quantity), Number(r.amount)])).toEqual([[-3, -30]]);

    // 3 come in at 12 (36): the shelf is empty and worth nothing; the 6 the shortfall went out short is a variance.
    const receipt = await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: bolt, number: 3, unitPrice: 12 }] });
    expect(await entries(s, receipt.id)).toEqual([
      [3, 12, 36],
      [0, 0, -6],
    ]);
    expect(await valuation(s, bolt)).toEqual({ quantity: '0', amount: '0' });
    expect(await booked(s, receipt.id)).toEqual({ '2202': -36, '6401': 6, '1405': 30 });
    // The next receipt is not blended with anything left over: 10 at 12 is 10 at 12.
    await audited(s.api, 'PurchaseInstock', { supplierId: s.supplier, warehouseId: s.w1, lines: [{ materialId: bolt, number: 10, unitPrice: 12 }] });
    expect(await valuation(s, bolt)).toEqual({ quantity: '10', amount: '120' });
    await verified(s);
  });

  it('the current-stock report shows a place whose value is not zero even at zero quantity', async () => {
    const s = await scene();
    const nut = await s.material('N1');
    const bill = await audited(s.api, 'OtherInstock', { warehouseId: s.w1, lines: [{ materialId: nut, number: 2, unitPrice: 5 }] });
    await audited(s.api, 'OtherOutstock', { warehouseId: s.w1, lines: [{ materialId: nut, number: 2 }] });
    // Value stranded at zero quantity, as stock posted before this rule could hold: a ledger entry of 7 and no units.
    await ctx.database.withSystem(async (tx) => {
      await tx.execute(sql`insert into stock_ledger (tenant_id, bill_id, bill_line_id, bill_type, bill_code, bill_date, material_id, warehouse_id, quantity, unit_cost, amount)
                           values (${s.t.tenantId}, ${bill.id}, ${bill.lines[0]}, 'OtherInstock', ${bill.code}, ${DAY}, ${nut}, ${s.w1}, 0, 0, 7)`);
      await tx.execute(sql`update stock_valuation set amount = 7 where tenant_id = ${s.t.tenantId} and material_id = ${nut} and warehouse_id = ${s.w1}`);
    });
    const found = await ok(s.api.get<Array<{ quantity: string; amount: string }>>(`/api/admin/stock/current?materialId=${nut}`));
    expect(found.map((r) => [Number(r.quantity), Number(r.amount)])).toEqual([[0, 7]]);
    await verifyEmpty(s.api);
  });

  it('turning negative stock off while a balance is below zero is refused', async () => {
    const s = await scene();
    await ok(s.api.put('/api/admin/admin/tenant', { openNegativeInventory: true }));
    const pin = await s.material('PIN');
    await audited(s.api, 'OtherOutstock', { warehouseId: s.w1, lines: [{ materialId: pin, number: 1 }] });
    await refused(s.api.put('/api/admin/admin/tenant', { openNegativeInventory: false }), 'ExistNegativeInventoryProhibitClose');
    const config = await ok(s.api.get<{ openNegativeInventory: boolean }>('/api/admin/admin/tenant'));
    expect(config.openNegativeInventory).toBe(true);
    // Once nothing is below zero, it may be turned off.
    await audited(s.api, 'OtherInstock', { warehouseId: s.w1, lines: [{ materialId: pin, number: 1, unitPrice: 1 }] });
    await ok(s.api.put('/api/admin/admin/tenant', { openNegativeInventory: false }));
    await verified(s);
  });
});

describe('disassembly', () => {
  it('splits the product\'s value over its components by their cost share, exactly', async () => {
    const s = await scene();
    const board = await s.material('BOARD');
    const resistor = await s.material('R1');
    const capacitor = await s.material('C1');
    await audited(s.api, 'OtherInstock', {
      warehouseId: s.w1,
      lines: [
        { materialId: board, number: 1, unitPrice: 1.8 },
        { materialId: resistor, number: 100, unitPrice: 0.005 },
        { materialId: capacitor, number: 10, unitPrice: 0.35 },
      ],
    });
    // One board of 1.80 into 10 resistors (0.005 each) and 5 capacitors (0.35 each): 0.05 + 1.75, not 0.12 a piece.
    const split = await audited(s.api, 'Assembly', {
      assemblyType: 'Disassembly',
      warehouseId: s.w1,
      lines: [
        { materialId: board, number: 1, direction: 'out' },
        { materialId: resistor, number: 10, direction: 'in' },
        { materialId: capacitor, number: 5, direction: 'in' },
      ],
    });
    expect(await entries(s, split.id)).toEqual([
      [-1, 1.8, -1.8],
      [10, 0.005, 0.05],
      [5, 0.35, 1.75],
    ]);
    expect(await booked(s, split.id)).toEqual({});
    await verified(s);
  });

  it('falls back to the components\' purchase prices when they have no average, then to quantity', async () => {
    const s = await scene();
    const board = await s.material('BOARD');
    const resistor = await s.material('R1', { purchasePrice: 0.01 });
    const capacitor = await s.material('C1', { purchasePrice: 0.3 });
    await audited(s.api, 'OtherInstock', { warehouseId: s.w1, lines: [{ materialId: board, number: 2, unitPrice: 1.6 }] });
    // 10 × 0.01 = 0.10 and 5 × 0.30 = 1.50 of 1.60.
    const split = await audited(s.api, 'Assembly', {
      assemblyType: 'Disassembly',
      warehouseId: s.w1,
      lines: [
        { materialId: board, number: 1, direction: 'out' },
        { materialId: resistor, number: 10, direction: 'in' },
        { materialId: capacitor, number: 5, direction: 'in' },
      ],
    });
    expect((await entries(s, split.id)).map((e) => e[2])).toEqual([-1.6, 0.1, 1.5]);
    // A component with neither: by quantity, 1.60 over 3 units, the remainder on the last.
    const spare = await s.material('SPARE');
    const even = await audited(s.api, 'Assembly', {
      assemblyType: 'Disassembly',
      warehouseId: s.w1,
      lines: [
        { materialId: board, number: 1, direction: 'out' },
        { materialId: spare, number: 2, direction: 'in' },
        { materialId: capacitor, number: 1, direction: 'in' },
      ],
    });
    expect((await entries(s, even.id)).map((e) => e[2])).toEqual([-1.6, 1.066666, 0.533334]);
    await verified(s);
  });
});

describe('bill dates', () => {
  it('refuses a bill dated beyond the tenant\'s days ahead, for every bill type, at save and at audit', async () => {
    const t = await seedTenant(ctx.database, 'Dates');
    const s = { api: await adminCaller(ctx, t) };
    const records = await createBillRecords(s.api);
    const today = localDay();
    // Every declared type: a date in 2099 is refused on save (a transfer dated 2099 among them).
    for (const decl of BILL_TYPES) {
      await refused(s.api.post(billApiPath(decl), billPayload(decl, records, { billDate: '2099-01-01' })), 'BillDateTooFarAhead');
    }
    // The default: 30 days ahead at most.
    const part = records.material;
    const dated = (billDate: string) => s.api.post<{ id: number }>(path('OtherInstock'), { billDate, warehouseId: records.warehouse, lines: [{ materialId: part, number: 1, unitPrice: 1 }] });
    await refused(dated(addDays(today, 31)), 'BillDateTooFarAhead');
    const { id } = await ok(dated(addDays(today, 30)));
    // A tighter setting: the draft saved under the looser one is refused at audit, today's date is accepted.
    await ok(s.api.put('/api/admin/admin/tenant', { billDateMaxDaysAhead: 0 }));
    await ok(s.api.post(`${path('OtherInstock')}/submit`, { id }));
    await refused(s.api.post(`${path('OtherInstock')}/audit`, { id }), 'BillDateTooFarAhead');
    await refused(dated(addDays(today, 1)), 'BillDateTooFarAhead');
    await ok(dated(today));
  });
});
