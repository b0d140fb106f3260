import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import type { FinanceDifference } from '@p8/contract/finance';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { allowDirectBills } from './bill-fixtures.ts';

/*
 * Cross-border commerce (docs/cross-border.md) through the API, on PGlite and on PostgreSQL (TEST_DB=postgres):
 * currencies and daily rates; a bill in a foreign currency takes its partner's currency and its date's rate;
 * the ledger books it in CNY; settling it at another rate posts the exchange difference to 6603, and the books
 * still agree (finance verify empty).
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, m1: 0, usd: 0, eur: 0, customer: 0, cnyCustomer: 0, supplier: 0, w1: 0, bank: 0 };
const DAY = '2026-11-24';
const path = (type: string) => billApiPath(billType(type)!);

async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}
async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string) {
  const res = await promise;
  expect(res.body.message, JSON.stringify(res.body)).toBe(key);
}
async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }));
  await ok(api.post(`${path(type)}/submit`, { id }));
  await ok(api.post(`${path(type)}/audit`, { id }));
  return id;
}
const detail = (type: string, id: number) => ok(api.get<Record<string, unknown> & { progress: Record<string, string> }>(`${path(type)}/${id}`));
const verify = () => ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'));
type Trial = { accounts: Array<{ code: string; debit: string; credit: string; balance: string }> };
const account = async (code: string) => (await ok(api.get<Trial>('/api/admin/finance/trialBalance'))).accounts.find((a) => a.code === code);
const fund = async (id: number) => (await ok(api.get<{ balance: string }>(`/api/admin/finance/account/${id}`))).balance;

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'CrossBorder');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: true, openTaxRate: true });
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.m1 = await api.create('material', { code: 'M1', name: 'Board', englishName: 'Circuit board', hsCode: '8534.00', netWeight: 0.5, grossWeight: 0.6, originCountry: 'CN', units: [{ unitId: ids.piece, isMain: true }] });
  ids.usd = await api.create('currency', { code: 'USD', name: 'US dollar', symbol: '$' });
  ids.eur = await api.create('currency', { code: 'EUR', name: 'Euro', symbol: '€' });
  await api.create('exchangeRate', { currencyId: ids.usd, rateDate: '2026-11-01', rate: 7.1 });
  await api.create('exchangeRate', { currencyId: ids.usd, rateDate: '2026-11-20', rate: 7.2 });
  await api.create('exchangeRate', { currencyId: ids.eur, rateDate: '2026-11-01', rate: 7.8 });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Acme Inc.', country: 'US', currencyId: ids.usd });
  ids.cnyCustomer = await api.create('customer', { code: 'C2', name: 'Local one' });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Globex GmbH', country: 'DE', currencyId: ids.usd });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.bank = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'USD bank', kind: 'bank', openingBalance: '10000', openingDate: '2026-01-01' }))).id;
});
afterAll(() => ctx.close());

describe('currencies and rates', () => {
  it('refuses CNY as a currency, a second rate on one day, and a rate of zero', async () => {
    await refused(api.post('/api/admin/basic/currency', { code: 'CNY', name: 'Renminbi' }), 'CurrencyIsBase');
    await refused(api.post('/api/admin/basic/exchangeRate', { currencyId: ids.usd, rateDate: '2026-11-20', rate: 7.3 }), 'ExchangeRateRepeat');
    await refused(api.post('/api/admin/basic/exchangeRate', { currencyId: ids.usd, rateDate: '2026-11-21', rate: 0 }), 'ExchangeRateOutOfRange');
    await refused(api.post('/api/admin/basic/exchangeRate', { currencyId: 999999, rateDate: '2026-11-21', rate: 7 }), 'CurrencyNotExist');
  });

  it('shows the partner country and currency, and keeps a currency in use from deletion', async () => {
    const customer = await ok(api.get<{ country: string; currencyId: number; currencyCode: string }>(`/api/admin/basic/customer/${ids.customer}`));
    expect(customer).toMatchObject({ country: 'US', currencyId: ids.usd, currencyCode: 'USD' });
    await refused(api.del('/api/admin/basic/currency', { ids: [ids.usd] }), 'CurrencyInUseProhibitDelete');
    const material = await ok(api.get<Record<string, unknown>>(`/api/admin/basic/material/${ids.m1}`));
    expect(material).toMatchObject({ hsCode: '8534.00', englishName: 'Circuit board', originCountry: 'CN' });
    expect(Number(material.netWeight)).toBe(0.5);
  });
});

describe('a sale in USD', () => {
  let outstock = 0;

  it("takes the customer's currency and the latest rate on or before its date; refused without one", async () => {
    await refused(
      api.post(path('SaleOutstock'), { billDate: '2026-10-31', customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 1, unitPrice: 10 }] }),
      'ExchangeRateNotFound',
    );
    outstock = await audited('SaleOutstock', { customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 10, unitPrice: 10 }] });
    const bill = await detail('SaleOutstock', outstock);
    expect(bill).toMatchObject({ currencyId: ids.usd, exchangeRate: 7.2, priceTotal: 100 });
    // Booked in CNY: 100 USD × 7.2.
    expect((await account('1122'))!.balance).toBe('720.000000');
    expect((await account('6001'))!.balance).toBe('720.000000');
    expect(await verify()).toEqual([]);
  });

  it('a CNY bill of a partner without a currency keeps neither field', async () => {
    const id = await audited('SaleOutstock', { customerId: ids.cnyCustomer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 1, unitPrice: 10 }] });
    const bill = await detail('SaleOutstock', id);
    expect(bill.currencyId ?? null).toBeNull();
    expect(bill.exchangeRate ?? null).toBeNull();
  });

  it('a receipt in another currency than the bill is refused', async () => {
    await refused(
      api.post(path('Receipt'), { billDate: DAY, customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, currencyId: ids.eur, lines: [{ sourceBillId: outstock, amount: 10 }] }),
      'SettleCurrencyMismatch',
    );
  });

  it('received at 7.30 then at 7.00: the differences go to 6603, the receivable is cleared, verify stays empty', async () => {
    const before = await fund(ids.bank);
    // A receipt pushed down from the out-stock takes its currency; its rate is its own date's (7.2), here set to 7.3.
    const draft = await ok(api.post<{ id: number }>(`${path('Receipt')}/pushDown`, { sourceType: 'SaleOutstock', sourceLineIds: [outstock] }));
    const pushed = await detail('Receipt', draft.id);
    expect(pushed).toMatchObject({ currencyId: ids.usd, exchangeRate: 7.2 });
    await ok(api.del(path('Receipt'), { ids: [draft.id] }));

    const first = await audited('Receipt', { customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, exchangeRate: 7.3, lines: [{ sourceBillId: outstock, amount: 60 }] });
    expect(await detail('Receipt', first)).toMatchObject({ currencyId: ids.usd, exchangeRate: 7.3 });
    // 60 USD at 7.3 = 438 into the bank; 60 × 7.2 = 432 off the receivable; a gain of 6.
    expect(Number(await fund(ids.bank)) - Number(before)).toBeCloseTo(438, 6);
    expect((await account('1122'))!.balance).toBe(String((720 - 432 + 10).toFixed(6)));
    expect((await account('6603'))!.balance).toBe('-6.000000');
    // The receivable report: in CNY, and per currency beside it.
    type Row = { partnerId: number; open: string; currencies: Array<{ currencyCode: string; open: string; openBase: string }> };
    const row = (await ok(api.get<Row[]>('/api/admin/finance/receivable'))).find((r) => r.partnerId === ids.customer)!;
    expect(row.currencies).toEqual([{ currencyCode: 'USD', open: '40.000000', openBase: '288.000000' }]);
    expect(row.open).toBe('288.000000');
    expect(await verify()).toEqual([]);

    await audited('Receipt', { customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, exchangeRate: 7, lines: [{ sourceBillId: outstock, amount: 40 }] });
    // 40 USD at 7.0 = 280; what was left of the receivable, 288, comes off: a loss of 8.
    expect(Number(await fund(ids.bank)) - Number(before)).toBeCloseTo(718, 6);
    expect((await account('6603'))!.balance).toBe('2.000000');
    expect((await detail('SaleOutstock', outstock)).progress.settlement).toBe('AllSettlement');
    expect(await verify()).toEqual([]);
  });

  it('withdrawing a receipt at another rate takes its difference back', async () => {
    const id = await audited('SaleOutstock', { customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 3, unitPrice: 11.11 }] });
    const before = (await account('6603'))!.balance;
    const r = await audited('Receipt', { customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, exchangeRate: 7.12345, lines: [{ sourceBillId: id, amount: '13.33' }] });
    expect(await verify()).toEqual([]);
    await ok(api.post(`${path('Receipt')}/abandonAudit`, { id: r }));
    expect((await account('6603'))!.balance).toBe(before);
    expect(await verify()).toEqual([]);
  });
});

describe('a purchase in USD', () => {
  it('values the goods in CNY at the rate, the tax too, and the payment at another rate posts the difference', async () => {
    const instock = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 5, unitPrice: 5, taxRate: 13 }] });
    const bill = await detail('PurchaseInstock', instock);
    expect(bill).toMatchObject({ currencyId: ids.usd, exchangeRate: 7.2, taxPriceTotal: 28.25 });
    // 28.25 USD × 7.2 = 203.40 payable; the goods 25 × 7.2 = 180 in stock; 23.40 input VAT.
    expect((await account('2202'))!.balance).toBe('203.400000');
    expect(await verify()).toEqual([]);
    const before = (await account('6603'))!.balance;
    await audited('Payment', { supplierId: ids.supplier, payType: 'OrdinaryPay', fundAccountId: ids.bank, exchangeRate: 7.1, lines: [{ sourceBillId: instock, amount: '28.25' }] });
    // Paid 28.25 × 7.1 = 200.58 (rounded to the fen) for a payable of 203.40: a gain of 2.82.
    expect(Number((await account('6603'))!.balance) - Number(before)).toBeCloseTo(-2.82, 6);
    expect((await account('2202'))!.balance).toBe('0.000000');
    expect(await verify()).toEqual([]);
  });
});
