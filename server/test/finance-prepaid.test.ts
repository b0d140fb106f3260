import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sum, toMicro } from '@p8/contract/bills/decimal';
import type { PartnerLedgerLine, PrepaidBalanceRow } from '@p8/contract/finance';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, auditedBill, billPath, financeVerifyEmpty, ok, refused } from './bill-fixtures.ts';

/*
 * Prepaid (suppliers, 1123) and advance (customers, 2203) balances per partner, on PGlite and on PostgreSQL
 * (TEST_DB=postgres): GET /finance/prepaid lists the kept balances verify checks (paged, sorted, filtered,
 * summed, exported), GET /finance/prepaid/ledger drills down to one partner's running ledger, whose lines
 * sum to the balance — after an advance, a deduction consuming it, a withdrawn advance and opening balances.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, m1: 0, w1: 0, supplier: 0, idle: 0, customer: 0, quiet: 0, bank: 0 };
const DAY = '2026-11-24';
const URL = '/api/admin/finance/prepaid';

type Paged<T> = { status: number; data: T[]; pagination: { current: number; pageSize: number; total: number } };

const audited = (type: string, body: Record<string, unknown>) => auditedBill(api, type, { billDate: DAY, ...body });

async function page<T>(url: string): Promise<Paged<T>> {
  const res = await api.get<T[]>(url);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body as unknown as Paged<T>;
}
const list = (query = '') => page<PrepaidBalanceRow>(`${URL}?pageSize=200${query}`);
const ledger = (partnerId: number, query = '') => page<PartnerLedgerLine>(`${URL}/ledger?partnerId=${partnerId}${query}`);
const row = async (partnerId: number) => (await list()).data.find((r) => r.partnerId === partnerId);

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Prepaid');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: true });
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.m1 = await api.create('material', { code: 'M1', name: 'Board', units: [{ unitId: ids.piece, isMain: true }] });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.idle = await api.create('supplier', { code: 'S2', name: 'Supplier two' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.quiet = await api.create('customer', { code: 'C2', name: 'Customer without advances' });
  ids.bank = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: '10000.00', openingDate: '2026-01-01' }))).id;
});
afterAll(() => ctx.close());

describe('prepaid and advance balances', () => {
  it('follow an advance, a deduction consuming it and a withdrawn advance; the ledger sums to the balance', async () => {
    const purchase = await audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 4, unitPrice: 5 }] }); // 20
    const advance = await audited('Payment', { supplierId: ids.supplier, payType: 'AdvancePay', fundAccountId: ids.bank, prepaidAmount: '50.00' });
    await audited('Payment', { supplierId: ids.supplier, payType: 'DeductionAmount', lines: [{ sourceBillId: purchase, amount: 20 }] });
    const withdrawn = await audited('Payment', { supplierId: ids.supplier, payType: 'AdvancePay', fundAccountId: ids.bank, prepaidAmount: '7.00' });
    await ok(api.post(`${billPath('Payment')}/abandonAudit`, { id: withdrawn }));
    // A customer's advance, part of it taken by a settlement receipt; a customer with only a receivable is not listed.
    const sale = await audited('SaleOutstock', { customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 2, unitPrice: 10 }] }); // 20
    await audited('Receipt', { customerId: ids.customer, receiptType: 'AdvanceReceipt', fundAccountId: ids.bank, advanceAmount: '100.00' });
    await audited('Receipt', { customerId: ids.customer, receiptType: 'SettlementReceipt', lines: [{ sourceBillId: sale, amount: 20 }] });
    await audited('SaleOutstock', { customerId: ids.quiet, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: 1, unitPrice: 10 }] });
    // An opening prepayment, withdrawn: the supplier had a prepaid balance and has none now.
    const opening = await audited('Beginning', { beginningType: 'Prepaid', supplierId: ids.idle, openingAmount: '12.50', billDate: '2026-06-30' });
    await ok(api.post(`${billPath('Beginning')}/abandonAudit`, { id: opening }));

    const all = await list();
    expect(all.data.map((r) => r.partnerCode)).toEqual(['C1', 'S1', 'S2']);
    expect(all.pagination.total).toBe(3);
    expect(await row(ids.supplier)).toMatchObject({ partnerName: 'Supplier one', kind: 'supplier', prepaid: '30.000000', advance: '0.000000' });
    expect(await row(ids.customer)).toMatchObject({ kind: 'customer', prepaid: '0.000000', advance: '80.000000' });
    expect(await row(ids.idle)).toMatchObject({ prepaid: '0.000000' });

    // The supplier's prepaid ledger: the advance in, the deduction out, the withdrawn advance in and out again.
    const lines = (await ledger(ids.supplier)).data;
    expect(lines.map((l) => [l.billType, l.memo, l.reversal, l.increase, l.decrease, l.balance])).toEqual([
      ['Payment', 'AdvancePay', false, '50.000000', '0.000000', '50.000000'],
      ['Payment', 'DeductionAmount', false, '0.000000', '20.000000', '30.000000'],
      ['Payment', 'AdvancePay', false, '7.000000', '0.000000', '37.000000'],
      ['Payment', 'AdvancePay', true, '0.000000', '7.000000', '30.000000'],
    ]);
    expect(lines[0]).toMatchObject({ sourceKind: 'bill', sourceId: advance, date: DAY });
    expect(lines[2].sourceId).toBe(withdrawn);
    // Σ in − Σ out = the balance the list shows, for every partner listed.
    for (const r of all.data) {
      const drilled = (await ledger(r.partnerId)).data;
      const balance = r.kind === 'supplier' ? r.prepaid : r.advance;
      expect(sum(drilled.map((l) => toMicro(l.increase) - toMicro(l.decrease)))).toBe(toMicro(balance));
      expect(drilled.at(-1)!.balance).toBe(balance);
    }
    expect((await ledger(ids.customer)).data.map((l) => l.memo)).toEqual(['AdvanceReceipt', 'SettlementReceipt']);
    // Paged by one: the same lines, each page's balance carried from the lines before it.
    const paged: PartnerLedgerLine[] = [];
    for (let current = 1; current <= lines.length; current += 1) paged.push(...(await ledger(ids.supplier, `&current=${current}&pageSize=1`)).data);
    expect(paged).toEqual(lines);
    // A partner the tenant does not have (or one of another tenant) has no lines.
    expect((await ledger(999999)).data).toEqual([]);
    // The list's balances are those verify checks against the ledger: it finds no difference.
    await financeVerifyEmpty(api);
  });

  it('pages, sorts, filters by kind, keyword and non-zero balances, and sums', async () => {
    expect((await list('&kind=supplier')).data.map((r) => r.partnerCode)).toEqual(['S1', 'S2']);
    expect((await list('&kind=customer')).data.map((r) => r.partnerCode)).toEqual(['C1']);
    expect((await list('&keyword=one')).data.map((r) => r.partnerCode)).toEqual(['C1', 'S1']);
    expect((await list('&keyword=s2')).data.map((r) => r.partnerCode)).toEqual(['S2']);
    expect((await list('&keyword=%25')).data).toEqual([]);
    expect((await list('&nonZero=true')).data.map((r) => r.partnerCode)).toEqual(['C1', 'S1']);
    expect((await list('&nonZero=false')).data.map((r) => r.partnerCode)).toEqual(['S2']);
    expect((await list('&prepaidSort=desc')).data.map((r) => r.partnerCode)).toEqual(['S1', 'C1', 'S2']);
    expect((await list('&partnerNameSort=desc')).data.map((r) => r.partnerCode)).toEqual(['S2', 'S1', 'C1']);
    const second = await page<PrepaidBalanceRow>(`${URL}?pageSize=1&current=2`);
    expect(second.data.map((r) => r.partnerCode)).toEqual(['S1']);
    expect(second.pagination).toEqual({ current: 2, pageSize: 1, total: 3 });
    expect(await ok(api.get(`${URL}/statistics`))).toEqual({ prepaid: '30.000000', advance: '80.000000' });
    expect(await ok(api.get(`${URL}/statistics?kind=supplier`))).toEqual({ prepaid: '30.000000', advance: '0.000000' });
    // Refused as a bad request, not a 500: an unknown sort, a non-boolean filter.
    expect((await api.get(`${URL}?balanceSort=asc`)).body.message).toBe('BadRequest');
    expect((await api.get(`${URL}?nonZero=maybe`)).body.message).toBe('BadRequest');
  });

  it('exports the list and a partner ledger as the screen shows them', async () => {
    const file = await api.download(`${URL}/export?lang=en`, { kind: 'supplier', prepaidSort: 'desc' });
    expect(file.status).toBe(200);
    const sheet = await readXlsx(file.body);
    expect(sheet[0]).toEqual(['Code', 'Partner', 'Type', 'Prepaid balance', 'Advance balance']);
    expect(sheet.slice(1).map((r) => [r[0], r[2], r[3]])).toEqual([
      ['S1', 'Supplier', '30.000000'],
      ['S2', 'Supplier', '0.000000'],
    ]);
    const lines = (await ledger(ids.supplier)).data;
    const drilled = await readXlsx((await api.download(`${URL}/ledger/export?lang=zh`, { partnerId: ids.supplier })).body);
    expect(drilled[0]).toEqual(['日期', '单据编号', '摘要', '增加', '减少', '余额']);
    expect(drilled.length - 1).toBe(lines.length);
    expect(drilled[1][2]).toBe('预付款');
    expect(drilled.at(-1)![2]).toBe('预付款 (冲销)');
    expect(drilled.at(-1)!.at(-1)).toBe(lines.at(-1)!.balance);
  });
});

describe('drawing on a prepaid or advance balance', () => {
  it.each([
    { type: 'Receipt', typeKey: 'receiptType', fromBalance: 'SettlementReceipt', advance: 'AdvanceReceipt', extraKey: 'advanceAmount', partnerKey: 'customerId', record: 'customer', bill: 'SaleOutstock', refusal: 'AdvanceAmountExceedBalance' },
    { type: 'Payment', typeKey: 'payType', fromBalance: 'DeductionAmount', advance: 'AdvancePay', extraKey: 'prepaidAmount', partnerKey: 'supplierId', record: 'supplier', bill: 'PurchaseInstock', refusal: 'PrepaidAmountExceedBalance' },
  ])('$fromBalance beyond the balance is refused when saved and submitted, and holds nothing of the bill', async (d) => {
    const partner = await api.create(d.record, { code: `B-${d.fromBalance}`, name: `Balance ${d.fromBalance}` });
    const base = { billDate: DAY, [d.partnerKey]: partner };
    const goods = (number: number) => audited(d.bill, { ...base, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number, unitPrice: 10 }] });
    const [bill, other] = [await goods(4), await goods(1)]; // 40 and 10
    await audited(d.type, { ...base, [d.typeKey]: d.advance, fundAccountId: ids.bank, [d.extraKey]: '15.00' });
    const url = billPath(d.type);
    const draw = (billId: number, amount: number) => ({ ...base, [d.typeKey]: d.fromBalance, lines: [{ sourceBillId: billId, amount }] });
    // Beyond the 15 held: refused when saved, so no draft holds the bill's open amount.
    await refused(api.post(url, draw(bill, 16)), d.refusal);
    // Within it: saved. Another draws 10 of it first; submitting the first (10 of the 5 left) is refused.
    const { id } = await ok(api.post<{ id: number }>(url, draw(bill, 10)));
    await audited(d.type, draw(other, 10));
    await refused(api.post(`${url}/submit`, { id }), d.refusal);
    // Edited to what is left, it goes through; the whole of the bill was open to it all along.
    await ok(api.put(url, { id, ...draw(bill, 5) }));
    for (const step of ['submit', 'audit']) await ok(api.post(`${url}/${step}`, { id }));
    expect((await row(partner))?.[d.record === 'customer' ? 'advance' : 'prepaid']).toBe('0.000000');
    await financeVerifyEmpty(api);
  });
});
