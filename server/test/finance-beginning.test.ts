import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMicro } from '@p8/contract/bills/decimal';
import type { FinanceDifference } from '@p8/contract/finance';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, billPath, ok, refused } from './bill-fixtures.ts';

/*
 * Opening balances of partners (bill type `Beginning`, /finance/beginning), on PGlite and on PostgreSQL
 * (TEST_DB=postgres): auditing one posts the partner's account against 3001 and, for a receivable or payable,
 * opens an amount that only opening receipts / payments settle (UnSettlement → PartialSettlement →
 * AllSettlement, never beyond it); a settled one keeps its audit. The reports (aging, the partner's ledger,
 * advance and prepaid balances) and the partner record's read-only opening figure follow; verify stays empty.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { supplier: 0, customer: 0, bank: 0 };
const BEGINNING = billPath('Beginning');
const RECEIPT = billPath('Receipt');
const PAYMENT = billPath('Payment');

async function audited(url: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(url, { billDate: '2026-11-24', lines: [], ...body }));
  await ok(api.post(`${url}/submit`, { id }));
  await ok(api.post(`${url}/audit`, { id }));
  return id;
}
const opening = (beginningType: string, partner: Record<string, number>, openingAmount: string, billDate = '2026-06-30') => audited(BEGINNING, { billDate, beginningType, ...partner, openingAmount });
const settlement = async (id: number) => (await ok(api.get<{ progress: Record<string, string> }>(`${BEGINNING}/${id}`))).progress.settlement;
const verifyEmpty = async () => expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
const side = async (report: 'receivable' | 'payable', partnerId: number) => (await ok(api.get<Array<Record<string, string>>>(`/api/admin/finance/${report}?partnerId=${partnerId}&asOf=2026-11-24`)))[0];
const record = async (kind: 'customer' | 'supplier', id: number) => (await ok(api.get<{ openingReceivable: number; openingPayable: number }>(`/api/admin/basic/${kind}/${id}`)));

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Opening');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.bank = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: '50000.00', openingDate: '2026-01-01' }))).id;
});
afterAll(() => ctx.close());

describe('opening balances', () => {
  it('an opening receivable is settled by opening receipts in part, then in full, never beyond; its audit is kept', async () => {
    const bill = await opening('Receivable', { customerId: ids.customer }, '1000.00');
    expect(await settlement(bill)).toBe('UnSettlement');
    expect((await record('customer', ids.customer)).openingReceivable).toBe(1000);
    // Aging as of 2026-11-24: 147 days old, over 90; the partner's ledger starts with it.
    const aging = await side('receivable', ids.customer);
    expect(aging).toMatchObject({ balance: '1000.000000', open: '1000.000000', d90: '1000.000000' });
    const ledger = await ok(api.get<Array<{ billId: number | null; balance: string }>>(`/api/admin/finance/receivable/ledger?partnerId=${ids.customer}`));
    expect(ledger).toEqual([expect.objectContaining({ billId: bill, balance: '1000.000000' })]);
    await verifyEmpty();

    // Pushed down from the opening balance: an opening receipt of what is open.
    const offered = await ok(api.get<Array<{ sourceBillId: number; openAmount: string }>>(`${RECEIPT}/sources?sourceType=Beginning&partnerId=${ids.customer}`));
    expect(offered).toEqual([expect.objectContaining({ sourceBillId: bill, openAmount: '1000.000000' })]);
    const pushed = await ok(api.post<{ id: number }>(`${RECEIPT}/pushDown`, { sourceType: 'Beginning', sourceLineIds: [bill] }));
    const draft = await ok(api.get<{ receiptType: string; customerId: number; lines: Array<{ amount: string }> }>(`${RECEIPT}/${pushed.id}`));
    expect(draft).toMatchObject({ receiptType: 'BeginningPeriodReceipt', customerId: ids.customer, lines: [{ amount: '1000.000000' }] });
    await ok(api.del(RECEIPT, { ids: [pushed.id] }));

    const receipt = (amount: string, receiptType = 'BeginningPeriodReceipt') =>
      api.post<{ id: number }>(RECEIPT, { billDate: '2026-11-24', customerId: ids.customer, receiptType, fundAccountId: ids.bank, lines: [{ sourceBillId: bill, amount }] });
    // Only opening receipts settle an opening balance.
    await refused(receipt('100.00', 'OrdinaryReceipt'), 'OpeningSettlementMismatch');
    const first = await audited(RECEIPT, { customerId: ids.customer, receiptType: 'BeginningPeriodReceipt', fundAccountId: ids.bank, lines: [{ sourceBillId: bill, amount: '400.00' }] });
    expect(await settlement(bill)).toBe('PartialSettlement');
    await refused(receipt('600.01'), 'ReceiptAmountExceedUnreceived');
    await refused(api.post(`${BEGINNING}/abandonAudit`, { id: bill }), 'BillReceivedProhibitAbandonAudit');
    await audited(RECEIPT, { customerId: ids.customer, receiptType: 'BeginningPeriodReceipt', fundAccountId: ids.bank, lines: [{ sourceBillId: bill, amount: '600.00' }] });
    expect(await settlement(bill)).toBe('AllSettlement');
    await refused(receipt('0.01'), 'BillAllSettled');
    await refused(api.post(`${BEGINNING}/abandonAudit`, { id: bill }), 'BillReceivedProhibitAbandonAudit');
    expect(await side('receivable', ids.customer)).toMatchObject({ balance: '0.000000', open: '0.000000' });
    expect((await ok(api.get<{ balance: string }>(`/api/admin/finance/account/${ids.bank}`))).balance).toBe('51000.000000');
    // Withdrawing a receipt opens its part again.
    await ok(api.post(`${RECEIPT}/abandonAudit`, { id: first }));
    expect(await settlement(bill)).toBe('PartialSettlement');
    await verifyEmpty();
  });

  it('an opening payable is paid by an opening payment; an unsettled one is withdrawn and the partner figure follows', async () => {
    const bill = await opening('Payable', { supplierId: ids.supplier }, '300.50');
    expect((await record('supplier', ids.supplier)).openingPayable).toBe(300.5);
    expect(await side('payable', ids.supplier)).toMatchObject({ balance: '300.500000', open: '300.500000' });
    // An ordinary payment cannot settle it, nor an opening payment settle a purchase.
    await refused(api.post(PAYMENT, { billDate: '2026-11-24', supplierId: ids.supplier, payType: 'OrdinaryPay', fundAccountId: ids.bank, lines: [{ sourceBillId: bill, amount: '1' }] }), 'OpeningSettlementMismatch');
    await audited(PAYMENT, { supplierId: ids.supplier, payType: 'BeginningPeriodPayment', fundAccountId: ids.bank, lines: [{ sourceBillId: bill, amount: '300.50' }] });
    expect(await settlement(bill)).toBe('AllSettlement');
    await refused(api.post(`${BEGINNING}/abandonAudit`, { id: bill }), 'BillPaidProhibitAbandonAudit');

    const unpaid = await opening('Payable', { supplierId: ids.supplier }, '99.50');
    expect((await record('supplier', ids.supplier)).openingPayable).toBe(400);
    await ok(api.post(`${BEGINNING}/abandonAudit`, { id: unpaid }));
    expect((await record('supplier', ids.supplier)).openingPayable).toBe(300.5);
    expect(await side('payable', ids.supplier)).toMatchObject({ balance: '0.000000' });
    await verifyEmpty();
  });

  it('opening advances and prepayments join the balances, are consumed like any, and withdraw only while unused', async () => {
    const advance = await opening('Advance', { customerId: ids.customer }, '250.00');
    const prepaid = await opening('Prepaid', { supplierId: ids.supplier }, '80.00');
    expect(toMicro((await side('receivable', ids.customer)).advance)).toBe(toMicro(250));
    expect(toMicro((await side('payable', ids.supplier)).prepaid)).toBe(toMicro(80));
    // The advance settles a sale out-stock (a settlement receipt), the prepayment a purchase (a deduction).
    const unit = await api.create('unit', { name: 'pc' });
    const material = await api.create('material', { code: 'M1', name: 'Board', units: [{ unitId: unit, isMain: true }] });
    const warehouse = await api.create('stock', { code: 'W1', name: 'Main' });
    const line = [{ materialId: material, number: 10, unitPrice: 10, warehouseId: warehouse }];
    const instock = await audited(billPath('PurchaseInstock'), { supplierId: ids.supplier, warehouseId: warehouse, lines: line });
    const outstock = await audited(billPath('SaleOutstock'), { customerId: ids.customer, warehouseId: warehouse, lines: [{ ...line[0], number: 5 }] });
    const used = await audited(RECEIPT, { customerId: ids.customer, receiptType: 'SettlementReceipt', lines: [{ sourceBillId: outstock, amount: '50.00' }] });
    await audited(PAYMENT, { supplierId: ids.supplier, payType: 'DeductionAmount', lines: [{ sourceBillId: instock, amount: '80.00' }] });
    expect(toMicro((await side('receivable', ids.customer)).advance)).toBe(toMicro(200));
    expect(toMicro((await side('payable', ids.supplier)).prepaid)).toBe(0n);
    // Used in part or in full: withdrawing would take the balance below zero.
    await refused(api.post(`${BEGINNING}/abandonAudit`, { id: prepaid }), 'PrepaidAmountExceedBalance');
    await refused(api.post(`${BEGINNING}/abandonAudit`, { id: advance }), 'AdvanceAmountExceedBalance');
    // Once what used it is withdrawn, it is withdrawn too.
    await ok(api.post(`${RECEIPT}/abandonAudit`, { id: used }));
    await ok(api.post(`${BEGINNING}/abandonAudit`, { id: advance }));
    expect(toMicro((await side('receivable', ids.customer)).advance)).toBe(0n);
    await verifyEmpty();
  });

  it('refuses the other side\'s partner, no partner, lines, a zero amount; the partner figure is not typed in', async () => {
    const save = (body: Record<string, unknown>) => api.post(BEGINNING, { billDate: '2026-11-24', beginningType: 'Receivable', openingAmount: '10', lines: [], ...body });
    await refused(save({ customerId: ids.customer, supplierId: ids.supplier }), 'ParamError');
    await refused(save({}), 'PleaseSelectCustomer');
    await refused(save({ customerId: ids.customer, beginningType: undefined }), 'PleaseSelectOpeningType');
    await refused(save({ beginningType: 'Prepaid', customerId: ids.customer }), 'ParamError');
    await refused(save({ customerId: ids.customer, openingAmount: '0' }), 'AmountMustGreaterThanZero');
    await refused(save({ customerId: ids.customer, lines: [{ amount: '10' }] }), 'ParamError');
    // The customer's opening receivable comes from its opening balances only: a value sent is not kept.
    const id = await api.create('customer', { code: 'C2', name: 'Customer two', openingReceivable: 500 });
    expect((await record('customer', id)).openingReceivable).toBe(0);
    await verifyEmpty();
  });

  it('lists by opening type (kept in the bill\'s extra), with the other filters, statistics and export', async () => {
    const list = async (query: string) => (await ok(api.get<Array<{ beginningType: string; billCode: string }>>(`${BEGINNING}?pageSize=200${query}`)));
    const all = await list('');
    expect(new Set(all.map((b) => b.beginningType))).toEqual(new Set(['Receivable', 'Payable', 'Advance', 'Prepaid']));
    for (const type of ['Receivable', 'Payable', 'Advance', 'Prepaid']) {
      const found = await list(`&beginningType=${type}`);
      expect(found.length).toBe(all.filter((b) => b.beginningType === type).length);
      expect(found.every((b) => b.beginningType === type)).toBe(true);
    }
    // With a status tab and a partner, and an unknown type: nothing, never an error.
    const advances = await list(`&beginningType=Advance&customerId=${ids.customer}&billStatus=Audit`);
    expect(advances.every((b) => b.beginningType === 'Advance')).toBe(true);
    expect(await list('&beginningType=Nonsense')).toEqual([]);
    expect((await api.get(`${BEGINNING}/statistics?beginningType=Prepaid`)).body.status).toBe(0);
    // The export takes the list's query: the payables only.
    const sheet = await readXlsx((await api.download(`${BEGINNING}/export?lang=en`, { beginningType: 'Payable' })).body);
    expect(sheet.length - 1).toBe((await list('&beginningType=Payable')).length);
  });
});
