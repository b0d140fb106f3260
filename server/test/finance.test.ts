import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import { billApiPath, lineKindOf } from '@p8/contract/bills/registry';
import type { FinanceDifference } from '@p8/contract/finance';
import type { DashboardStatistics } from '@p8/contract/home';
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/connection.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { allowDirectBills } from './bill-fixtures.ts';
import { balanced } from '../src/modules/finance/ledger.ts';
import { settledStatus } from '../src/modules/finance/settlement.ts';

/*
 * Finance through the API, on PGlite and on PostgreSQL (TEST_DB=postgres): audited bills open receivables
 * and payables and post the ledger; payment and receipt bills (the engine's, with settlement lines pushed
 * down from the bills they settle) settle them exactly, never beyond what is open;
 * a settled bill cannot be withdrawn; advances and deductions keep balances non-negative; withdrawing
 * reverses. Every test ends with POST /api/admin/finance/verify empty.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const ids = { piece: 0, m1: 0, supplier: 0, customer: 0, w1: 0, cash: 0, bank: 0 };
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

/** An audited sale out-stock of `n` boards at 10 (amount 10 n) for the customer. */
const sale = (n: number, date = DAY, taxRate = 0) => audited('SaleOutstock', { billDate: date, customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: n, unitPrice: 10, taxRate }] });
const purchase = (n: number, taxRate = 0) => audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: n, unitPrice: 5, taxRate }] });

type Reply = { body: { status: number; message: string; data: unknown } };

/**
 * A payment or receipt bill saved, submitted and audited (posted): the first refusal on the way, or the
 * success of the audit. `lines` settle bills: [{ sourceBillId, amount }].
 */
async function moneyBill(type: 'Payment' | 'Receipt', body: Record<string, unknown>): Promise<Reply & { id?: number }> {
  const url = path(type);
  const created = (await api.post<{ id: number }>(url, { billDate: DAY, lines: [], ...body })) as Reply;
  if (created.body.status !== 0) return created;
  const id = (created.body.data as { id: number }).id;
  for (const step of ['submit', 'audit']) {
    const res = (await api.post(`${url}/${step}`, { id })) as Reply;
    if (res.body.status !== 0) return { ...res, id };
  }
  return { ...created, id };
}
const receipt = (body: Record<string, unknown>) => moneyBill('Receipt', { customerId: ids.customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, ...body });
const payment = (body: Record<string, unknown>) => moneyBill('Payment', { supplierId: ids.supplier, payType: 'OrdinaryPay', fundAccountId: ids.cash, ...body });
const settle = (billId: number, amount: string | number) => ({ lines: [{ sourceBillId: billId, amount }] });

async function posted(reply: Promise<Reply & { id?: number }>): Promise<number> {
  const res = await reply;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.id!;
}

async function verifyEmpty() {
  expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
}

async function settlement(type: string, id: number): Promise<string> {
  return (await ok(api.get<{ progress: Record<string, string> }>(`${path(type)}/${id}`))).progress.settlement;
}

async function fund(id: number): Promise<string> {
  return (await ok(api.get<{ balance: string }>(`/api/admin/finance/account/${id}`))).balance;
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Finance');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
  await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: true, openTaxRate: true });
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.m1 = await api.create('material', { code: 'M1', name: 'Board', units: [{ unitId: ids.piece, isMain: true }] });
  ids.supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  ids.customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  ids.w1 = await api.create('stock', { code: 'W1', name: 'Main' });
  ids.cash = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Cash', kind: 'cash', openingBalance: '1000.00', openingDate: '2026-01-01' }))).id;
  ids.bank = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Bank', kind: 'bank', openingBalance: 0, openingDate: '2026-01-01' }))).id;
});
afterAll(() => ctx.close());

describe('the ledger', () => {
  it.each([
    ['balanced', [{ debit: 5n }, { credit: 5n }], true],
    ['debit ≠ credit', [{ debit: 5n }, { credit: 4n }], false],
    ['nothing posted', [{ debit: 0n }, { credit: 0n }], false],
    ['a negative side', [{ debit: -5n }, { credit: -5n }], false],
  ])('balanced(): %s', (_name, lines, expected) => {
    expect(balanced(lines)).toBe(expected);
  });

  it.each([
    [100n, 0n, 'UnSettlement'],
    [100n, 40n, 'PartialSettlement'],
    [100n, 100n, 'AllSettlement'],
    [-30n, -10n, 'PartialSettlement'],
    [0n, 0n, 'AllSettlement'],
  ])('settledStatus(%s, %s) = %s', (amount, settled, expected) => {
    expect(settledStatus(amount, settled)).toBe(expected);
  });

  it('posts the opening balance and the trial balance agrees', async () => {
    expect(await fund(ids.cash)).toBe('1000.000000');
    const trial = await ok(api.get<{ debitTotal: string; creditTotal: string; accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
    expect(trial.debitTotal).toBe(trial.creditTotal);
    expect(trial.accounts.find((a) => a.code === '3001')!.balance).not.toBe('0.000000');
    await refused(api.post('/api/admin/finance/account', { name: 'Cash', kind: 'cash', openingDate: DAY }), 'FundAccountNameRepeat');
    // A negative opening balance is refused as such (it was "insufficient account balance").
    await refused(api.post('/api/admin/finance/account', { name: 'Overdrawn', kind: 'cash', openingBalance: '-5', openingDate: DAY }), 'AmountMustNotBeNegative');
    await verifyEmpty();
  });

  it('a period of the trial balance opens with what each account held before it and closes with what it holds at its end', async () => {
    type Trial = { debitTotal: string; creditTotal: string; accounts: Array<{ code: string; opening: string; debit: string; credit: string; balance: string }> };
    const trial = async (query: string) => ok(api.get<Trial>(`/api/admin/finance/trialBalance?${query}`));
    const cashOf = (t: Trial) => t.accounts.find((a) => a.code === '1001')!;
    const till = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Till', kind: 'cash', openingBalance: '500.00', openingDate: '2025-03-01' }))).id;
    const safe = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Safe', kind: 'bank', openingDate: '2025-03-01' }))).id;
    // April pays out of cash more than it takes in.
    await ok(api.post('/api/admin/finance/transfer', { docDate: '2025-04-10', fromAccountId: till, toAccountId: safe, amount: '200.00' }));
    const april = await trial('start=2025-04-01&end=2025-04-30');
    expect(april.debitTotal).toBe(april.creditTotal);
    const closedMarch = await trial('end=2025-03-31');
    const closedApril = await trial('end=2025-04-30');
    expect(cashOf(april)).toMatchObject({ opening: cashOf(closedMarch).balance, debit: '0.000000', credit: '200.000000', balance: cashOf(closedApril).balance });
    expect(toMicro(cashOf(april).balance)).toBeGreaterThanOrEqual(0n);
    for (const a of april.accounts) {
      const closed = closedApril.accounts.find((c) => c.code === a.code)!;
      expect([a.code, a.balance]).toEqual([a.code, closed.balance]);
      expect([a.code, a.opening]).toEqual([a.code, closedMarch.accounts.find((c) => c.code === a.code)!.balance]);
    }
    await verifyEmpty();
  });

  it('transfers between fund accounts, never below zero, and withdraws by reversal', async () => {
    const { id } = await ok(api.post<{ id: number }>('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.cash, toAccountId: ids.bank, amount: '250.50' }));
    expect([await fund(ids.cash), await fund(ids.bank)]).toEqual(['749.500000', '250.500000']);
    await refused(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.bank, toAccountId: ids.cash, amount: 1000 }), 'AccountBalanceInsufficient');
    await refused(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.bank, toAccountId: ids.bank, amount: 1 }), 'TransferSameAccount');
    await ok(api.post(`/api/admin/finance/transfer/${id}/abandon`));
    await refused(api.post(`/api/admin/finance/transfer/${id}/abandon`), 'MoneyDocAbandoned');
    expect([await fund(ids.cash), await fund(ids.bank)]).toEqual(['1000.000000', '0.000000']);
    await verifyEmpty();
  });
});

describe('the transfer list', () => {
  type Row = { docCode: string; amount: string; docDate: string; status: string; fromAccountName: string; toAccountName: string };
  const list = async (query: string) => {
    const res = await api.get<Row[]>(`/api/admin/finance/transfer?${query}`);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
    return res.body as unknown as { data: Row[]; pagination: { total: number } };
  };

  it('sorts by amount, code or date either way, filters by status, and exports what it shows', async () => {
    for (const [amount, day] of [['3.00', '2026-11-20'], ['1.00', '2026-11-22'], ['2.00', '2026-11-21']]) {
      await ok(api.post('/api/admin/finance/transfer', { docDate: day, fromAccountId: ids.cash, toAccountId: ids.bank, amount, remark: 'sorted' }));
    }
    const amounts = (rows: Row[]) => rows.map((r) => toMicro(r.amount));
    const ascending = amounts((await list('current=1&pageSize=200&remark=sorted&amountSort=asc')).data);
    expect(ascending).toEqual([...ascending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(ascending.length).toBe(3);
    expect(amounts((await list('current=1&pageSize=200&remark=sorted&amountSort=desc')).data)).toEqual([...ascending].reverse());
    const byDate = (await list('current=1&pageSize=200&remark=sorted&docDateSort=asc')).data.map((r) => r.docDate);
    expect(byDate).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    const byCode = (await list('current=1&pageSize=200&docCodeSort=desc')).data.map((r) => r.docCode);
    expect(byCode).toEqual([...byCode].sort().reverse());
    const first = (await list('current=1&pageSize=200&remark=sorted')).data;
    expect(first[0]).toMatchObject({ fromAccountName: 'Cash', toAccountName: 'Bank', status: 'Posted' });
    expect((await list('status=Abandoned&remark=sorted')).pagination.total).toBe(0);
    expect((await api.get('/api/admin/finance/transfer?remarkSort=asc')).body.status).not.toBe(0);
    // The export: the list's query (filter and sort), in the caller's language.
    const file = await api.download('/api/admin/finance/transfer/export?lang=en', { remark: 'sorted', amountSort: 'desc' });
    expect(file.status).toBe(200);
    const sheet = await readXlsx(file.body);
    expect(sheet[0]).toContain('From account');
    expect(sheet.slice(1).map((r) => toMicro(String(r[4])))).toEqual([...ascending].reverse());
    await verifyEmpty();
  });
});

describe('receipts settle sale out-stocks', () => {
  it('UnSettlement → PartialSettlement → AllSettlement, never beyond the open amount, and abandon audit refused while settled', async () => {
    const bill = await sale(10); // 100
    expect(await settlement('SaleOutstock', bill)).toBe('UnSettlement');
    const open = await ok(api.get<Array<{ billId: number; unsettled: string }>>(`/api/admin/finance/receivable/openBills?partnerId=${ids.customer}`));
    expect(open.find((o) => o.billId === bill)!.unsettled).toBe('100.000000');
    // The push-down picker offers the bill with what is open, and a push down makes a draft settling all of it.
    const offered = await ok(api.get<Array<{ sourceBillId: number; openAmount: string }>>(`${path('Receipt')}/sources?sourceType=SaleOutstock&partnerId=${ids.customer}`));
    expect(offered.find((o) => o.sourceBillId === bill)!.openAmount).toBe('100.000000');
    const pushed = await ok(api.post<{ id: number }>(`${path('Receipt')}/pushDown`, { sourceType: 'SaleOutstock', sourceLineIds: [bill] }));
    const draft = await ok(api.get<{ customerId: number; lines: Array<{ sourceBillId: number; amount: string; openAmount: string }> }>(`${path('Receipt')}/${pushed.id}`));
    expect(draft.customerId).toBe(ids.customer);
    expect(draft.lines).toEqual([expect.objectContaining({ sourceBillId: bill, amount: '100.000000', openAmount: '100.000000' })]);
    await ok(api.del(path('Receipt'), { ids: [pushed.id] }));

    const listed = async () => (await ok(api.get<Array<{ id: number; settledAmount: string | null; unsettledAmount: string | null }>>(`${path('SaleOutstock')}?current=1&pageSize=200`))).find((r) => r.id === bill)!;
    expect(await listed()).toMatchObject({ settledAmount: '0.000000', unsettledAmount: '100.000000' });
    const first = await posted(receipt(settle(bill, '40.10')));
    expect(await settlement('SaleOutstock', bill)).toBe('PartialSettlement');
    // The list shows what is settled and open of the bill, as finance's open amount has it.
    expect(await listed()).toMatchObject({ settledAmount: '40.100000', unsettledAmount: '59.900000' });
    const openBill = (await ok(api.get<Array<{ billId: number; settled: string; unsettled: string }>>(`/api/admin/finance/receivable/openBills?partnerId=${ids.customer}`))).find((o) => o.billId === bill)!;
    expect([openBill.settled, openBill.unsettled]).toEqual(['40.100000', '59.900000']);
    expect((await receipt(settle(bill, '59.91'))).body.message).toBe('ReceiptAmountExceedUnreceived');
    await refused(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: bill }), 'BillReceivedProhibitAbandonAudit');
    await posted(receipt(settle(bill, '59.90')));
    expect(await settlement('SaleOutstock', bill)).toBe('AllSettlement');
    expect((await receipt(settle(bill, 1))).body.message).toBe('BillAllSettled');
    // Withdrawing a receipt's audit opens its part again.
    await ok(api.post(`${path('Receipt')}/abandonAudit`, { id: first }));
    expect(await settlement('SaleOutstock', bill)).toBe('PartialSettlement');
    // A draft takes what is open too: the out-stock cannot be withdrawn while a receipt names it.
    await refused(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: bill }), 'BillReceivedProhibitAbandonAudit');
    await verifyEmpty();
  });

  it('the list names the fund account; the export shows the settled bill by code, its amount, what was open and the amount', async () => {
    const bill = await sale(7); // 70
    const first = await posted(receipt({ ...settle(bill, '20.50'), remark: 'export-check' }));
    const second = await posted(receipt({ ...settle(bill, '30.25'), remark: 'export-check' }));
    const listed = await ok(api.get<Array<{ id: number; fundAccountName: string | null }>>(`${path('Receipt')}?current=1&pageSize=10&remark=export-check`));
    expect(listed.map((r) => r.fundAccountName)).toEqual(['Bank', 'Bank']);
    expect(listed.map((r) => r.id).sort()).toEqual([first, second].sort());
    const { billCode } = await ok(api.get<{ billCode: string }>(`${path('SaleOutstock')}/${bill}`));
    const file = await api.download(`${path('Receipt')}/export?lang=en`, { remark: 'export-check', billCodeSort: 'asc' });
    expect(file.status).toBe(200);
    const [head, ...body] = await readXlsx(file.body);
    const cell = (row: unknown[], title: string) => row[head.indexOf(title)];
    // Each receipt: the bank by name, the out-stock by code, its 70, what is open of it but for this receipt (as its
    // form shows: 70 − 30.25, 70 − 20.50), the amount.
    expect(body.map((r) => [cell(r, 'Fund account'), cell(r, 'Source bill'), cell(r, 'Bill amount'), cell(r, 'Open amount'), cell(r, 'Amount')])).toEqual([
      ['Bank', billCode, 70, 39.75, 20.5],
      ['Bank', billCode, 70, 49.5, 30.25],
    ]);
    await verifyEmpty();
  });

  it('an unsettled bill is withdrawn: the receivable is reversed and it can be audited again', async () => {
    const bill = await sale(3);
    const before = await ok(api.get<Array<{ partnerId: number; balance: string }>>(`/api/admin/finance/receivable?partnerId=${ids.customer}`));
    await ok(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: bill }));
    const after = await ok(api.get<Array<{ partnerId: number; balance: string }>>(`/api/admin/finance/receivable?partnerId=${ids.customer}`));
    expect(toMicro(before[0].balance) - toMicro(after[0].balance)).toBe(toMicro(30));
    expect((await receipt(settle(bill, 1))).body.message).toBe('SettleBillNotOpen');
    await verifyEmpty();
  });

  it('refuses bills of another partner, a missing fund account, a wrong sign, a missing bill', async () => {
    const bill = await purchase(2);
    expect((await receipt(settle(bill, 1))).body.message).toBe('SettleBillNotOpen');
    expect((await payment({ ...settle(bill, 1), fundAccountId: null })).body.message).toBe('PleaseSelectAccount');
    expect((await payment({ payType: 'SettlementPay', prepaidAmount: 5, ...settle(bill, -1) })).body.message).toBe('SettleAmountSignMismatch');
    expect((await payment({ ...settle(bill, 1), supplierId: ids.customer })).body.message).toBe('SupplierNotExist');
    expect((await payment({ lines: [] })).body.message).toBe('AllocationRequired');
    // A missing type is named as the field the form shows (付款类型 / 收款类型), not "bill type".
    expect((await payment({ ...settle(bill, 1), payType: undefined })).body.message).toBe('PleaseSelectPaymentType');
    expect((await receipt({ lines: [], receiptType: undefined, advanceAmount: 1 })).body.message).toBe('PleaseSelectReceiptType');
    expect((await payment({ lines: [{ sourceBillId: bill, amount: 1 }, { sourceBillId: bill, amount: 1 }] })).body.message).toBe('SettleBillRepeat');
    expect((await payment({ ...settle(bill, 1), prepaidAmount: 5 })).body.message).toBe('AllocationNotAllowed');
    await verifyEmpty();
  });
});

describe('payments, advances and deductions', () => {
  it('prepaid is raised by an advance, consumed by a deduction, never below zero', async () => {
    const bill = await purchase(4); // 20
    await posted(payment({ payType: 'AdvancePay', prepaidAmount: 15 }));
    expect((await payment({ payType: 'DeductionAmount', fundAccountId: null, ...settle(bill, 16) })).body.message).toBe('PrepaidAmountExceedBalance');
    // The refused deduction stays a draft (its audit was refused): withdrawn by deleting it.
    const drafts = await ok(api.get<Array<{ id: number }>>(`${path('Payment')}?billStatus=Submitted`));
    for (const d of drafts) await ok(api.post(`${path('Payment')}/refuse`, { id: d.id, reason: 'test' }));
    if (drafts.length) await ok(api.del(path('Payment'), { ids: drafts.map((d) => d.id) }));
    await posted(payment({ payType: 'DeductionAmount', fundAccountId: null, ...settle(bill, 15) }));
    expect(await settlement('PurchaseInstock', bill)).toBe('PartialSettlement');
    const [row] = await ok(api.get<Array<{ prepaid: string }>>(`/api/admin/finance/payable?partnerId=${ids.supplier}`));
    expect(row.prepaid).toBe('0.000000');
    // A settlement payment beyond the bill puts the rest on prepaid.
    await posted(payment({ payType: 'SettlementPay', ...settle(bill, 5), prepaidAmount: 3 }));
    expect(await settlement('PurchaseInstock', bill)).toBe('AllSettlement');
    const [after] = await ok(api.get<Array<{ prepaid: string }>>(`/api/admin/finance/payable?partnerId=${ids.supplier}`));
    expect(after.prepaid).toBe('3.000000');
    await refused(api.post(`${path('PurchaseInstock')}/abandonAudit`, { id: bill }), 'BillPaidProhibitAbandonAudit');
    await verifyEmpty();
  });

  it('fees and incomes post against a fund account, by fee types of their kind; withdrawing reverses', async () => {
    const freight = await api.create('fee', { name: 'Freight', kind: 'expense' });
    const interest = await api.create('fee', { name: 'Interest', kind: 'income' });
    const wallet = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Wallet', kind: 'ewallet', openingBalance: 100, openingDate: DAY }))).id;
    const before = toMicro(await fund(wallet));
    const fee = await ok(api.post<{ id: number }>(path('Fee'), { billDate: DAY, fundAccountId: wallet, supplierId: ids.supplier, lines: [{ feeTypeId: freight, amount: '12.345' }] }));
    await refused(api.post(path('Fee'), { billDate: DAY, fundAccountId: wallet, lines: [{ feeTypeId: interest, amount: 1 }] }), 'FeeTypeNotExist');
    await ok(api.post(`${path('Fee')}/submit`, { id: fee.id }));
    await ok(api.post(`${path('Fee')}/audit`, { id: fee.id }));
    const income = await ok(api.post<{ id: number }>(path('Income'), { billDate: DAY, fundAccountId: wallet, lines: [{ feeTypeId: interest, amount: 2 }] }));
    await ok(api.post(`${path('Income')}/submit`, { id: income.id }));
    await ok(api.post(`${path('Income')}/audit`, { id: income.id }));
    // Rounded by amountRetainsSmallDigit (2): 12.345 → 12.35.
    expect(toMicro(await fund(wallet))).toBe(before - toMicro('12.35') + toMicro(2));
    // The export names the fund account and the fee type, and shows the line's amount.
    const [head, ...body] = await readXlsx((await api.download(`${path('Fee')}/export?lang=en`, { billCode: (await ok(api.get<{ billCode: string }>(`${path('Fee')}/${fee.id}`))).billCode })).body);
    expect(body.map((r) => ['Fund account', 'Fee type', 'Amount'].map((title) => r[head.indexOf(title)]))).toEqual([['Wallet', 'Freight', 12.35]]);
    await ok(api.post(`${path('Fee')}/abandonAudit`, { id: fee.id }));
    expect(toMicro(await fund(wallet))).toBe(before + toMicro(2));
    await verifyEmpty();
  });

  // Registry-driven: every bill type whose lines are fee lines; a new one fails here until its fee kind is named.
  const FEE_KIND: Record<string, 'expense' | 'income'> = { Fee: 'expense', Income: 'income' };
  it('covers every bill type with fee lines', () => {
    expect(BILL_TYPES.filter((d) => lineKindOf(d) === 'fee').map((d) => d.type).sort()).toEqual(Object.keys(FEE_KIND).sort());
  });
  it.each(Object.keys(FEE_KIND))('a fee type on a %s line (a draft too) is in use and cannot be deleted', async (type) => {
    const used = await api.create('fee', { name: `Used by ${type}`, kind: FEE_KIND[type] });
    const unused = await api.create('fee', { name: `Unused beside ${type}`, kind: FEE_KIND[type] });
    const draft = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, fundAccountId: ids.cash, lines: [{ feeTypeId: used, amount: 3 }] }));
    expect((await api.del('/api/admin/basic/fee', { ids: [unused, used] })).body.message).toBe('FeeTypeInUseProhibitDelete');
    await ok(api.del('/api/admin/basic/fee', { ids: [unused] }));
    // Once no line names it, it goes.
    await ok(api.del(path(type), { ids: [draft.id] }));
    await ok(api.del('/api/admin/basic/fee', { ids: [used] }));
  });

  it('ages open bills and keeps a running ledger', async () => {
    const old = await sale(1, '2026-07-01');
    // Enough lines for several pages: three more sales, one of them half received.
    const received = await sale(3, '2026-08-01');
    await sale(2, '2026-09-01');
    await sale(4);
    await posted(receipt(settle(received, 15)));
    const aging = await ok(api.get<Array<Record<string, string>>>(`/api/admin/finance/receivable?partnerId=${ids.customer}&asOf=2026-11-24`));
    expect(toMicro(aging[0].d90)).toBeGreaterThanOrEqual(toMicro(10));
    expect(toMicro(aging[0].d0_30) + toMicro(aging[0].d31_60) + toMicro(aging[0].d61_90) + toMicro(aging[0].d90)).toBe(toMicro(aging[0].open));
    type Line = { id: number; billId: number | null; balance: string };
    const ledgerPage = async (current: number, pageSize: number) => {
      const res = await api.get<Line[]>(`/api/admin/finance/receivable/ledger?partnerId=${ids.customer}&current=${current}&pageSize=${pageSize}`);
      expect(res.body).toMatchObject({ status: 0 });
      return res.body as unknown as { data: Line[]; pagination: { total: number } };
    };
    const whole = await ledgerPage(1, 200);
    expect(whole.data.length).toBe(whole.pagination.total);
    expect(whole.data.length).toBeGreaterThan(4);
    expect(whole.data.some((l) => l.billId === old)).toBe(true);
    expect(whole.data.at(-1)!.balance).toBe(aging[0].balance);
    // Paged by 3: the same lines in the same order, each page's running balance carried from the lines before it.
    const paged: Line[] = [];
    for (let current = 1; paged.length < whole.pagination.total; current += 1) {
      const page = await ledgerPage(current, 3);
      expect(page.pagination.total).toBe(whole.pagination.total);
      expect(page.data.length).toBeGreaterThan(0);
      paged.push(...page.data);
    }
    expect(paged).toEqual(whole.data);
    expect((await ledgerPage(1000, 3)).data).toEqual([]);
    expect((await api.get(`/api/admin/finance/receivable/ledger?partnerId=${ids.customer}&pageSize=201`)).body.status).not.toBe(0);
    // The export: every line (within the export cap), with the same last balance.
    const file = await api.download('/api/admin/finance/receivable/ledger/export?lang=en', { partnerId: ids.customer });
    const sheet = await readXlsx(file.body as Buffer);
    expect(sheet.length - 1).toBe(whole.pagination.total);
    expect(sheet.at(-1)!.at(-1)).toBe(whole.data.at(-1)!.balance);
  });
});

describe('property: random bills, payments, receipts, deductions and withdrawals keep the books', () => {
  /** One side of the books: sales settled by receipts (advance: advance receipts), purchases by payments (advance: prepaid). */
  const SIDES = {
    sale: { bill: 'SaleOutstock', make: (n: number, taxRate: number) => sale(n, DAY, taxRate), doc: 'Receipt', typeKey: 'receiptType', partnerKey: 'customerId', extraKey: 'advanceAmount', ordinary: 'OrdinaryReceipt', advance: 'AdvanceReceipt', fromBalance: 'SettlementReceipt', partner: () => ids.customer, report: 'receivable', refused: ['BillReceivedProhibitAbandonAudit'], balanceRefused: 'AdvanceAmountExceedBalance' },
    purchase: { bill: 'PurchaseInstock', make: (n: number, taxRate: number) => purchase(n, taxRate), doc: 'Payment', typeKey: 'payType', partnerKey: 'supplierId', extraKey: 'prepaidAmount', ordinary: 'OrdinaryPay', advance: 'AdvancePay', fromBalance: 'DeductionAmount', partner: () => ids.supplier, report: 'payable', refused: ['BillPaidProhibitAbandonAudit'], balanceRefused: 'PrepaidAmountExceedBalance' },
  } as const;
  type Side = keyof typeof SIDES;
  type Step =
    | { op: 'bill'; side: Side; n: number; taxRate: number }
    | { op: 'settle' | 'deduct'; side: Side; pick: number; part: number }
    | { op: 'abandonDoc'; side: Side; pick: number }
    | { op: 'abandonBill'; side: Side; pick: number }
    | { op: 'advance'; side: Side; n: number };

  it('balances = Σ ledger, settled within the amount, debit = credit', async () => {
    // Enough money that payments never meet an empty account (that refusal has its own test).
    const fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Property', kind: 'bank', openingBalance: 1_000_000, openingDate: DAY }))).id;
    const side = fc.constantFrom<Side>('sale', 'purchase');
    const step: fc.Arbitrary<Step> = fc.oneof(
      // With or without tax: output VAT on sales, input VAT on purchases (an odd rate leaves cents to round).
      fc.record({ op: fc.constant('bill' as const), side, n: fc.integer({ min: 1, max: 9 }), taxRate: fc.constantFrom(0, 6, 13, 7.5) }),
      fc.record({ op: fc.constantFrom('settle' as const, 'deduct' as const), side, pick: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ op: fc.constant('abandonDoc' as const), side, pick: fc.nat() }),
      fc.record({ op: fc.constant('abandonBill' as const), side, pick: fc.nat() }),
      fc.record({ op: fc.constant('advance' as const), side, n: fc.integer({ min: 1, max: 50 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
        const bills: Record<Side, number[]> = { sale: [], purchase: [] };
        const docs: Record<Side, number[]> = { sale: [], purchase: [] };
        for (const s of steps) {
          const d = SIDES[s.side];
          const url = path(d.doc);
          const base = { [d.partnerKey]: d.partner() };
          /** A payment or receipt posted; a refused one is deleted (or refused, then deleted) so that it holds nothing. */
          const money = async (body: Record<string, unknown>, refusal?: string) => {
            const res = await moneyBill(d.doc, { ...base, ...body });
            if (res.body.status === 0) return res.id!;
            expect(res.body.message).toBe(refusal);
            if (res.id) {
              await ok(api.post(`${url}/refuse`, { id: res.id, reason: 'refused' }));
              await ok(api.del(url, { ids: [res.id] }));
            }
            return undefined;
          };
          if (s.op === 'bill') bills[s.side].push(await d.make(s.n, s.taxRate));
          else if (s.op === 'advance') docs[s.side].push((await money({ [d.typeKey]: d.advance, fundAccountId: fund, [d.extraKey]: s.n }))!);
          else if ((s.op === 'settle' || s.op === 'deduct') && bills[s.side].length) {
            const bill = bills[s.side][s.pick % bills[s.side].length];
            const open = (await ok(api.get<Array<{ billId: number; unsettled: string }>>(`/api/admin/finance/${d.report}/openBills?partnerId=${d.partner()}`))).find((o) => o.billId === bill);
            const amount = open ? (toMicro(open.unsettled) * BigInt(s.part)) / 100n : 0n;
            if (amount <= 0n) continue;
            const lines = [{ sourceBillId: bill, amount: microText(amount) }];
            if (s.op === 'settle') docs[s.side].push((await money({ [d.typeKey]: d.ordinary, fundAccountId: fund, lines }))!);
            else {
              // From the advance / prepaid balance: posted when it suffices, refused (and nothing changed) when not.
              const id = await money({ [d.typeKey]: d.fromBalance, lines }, d.balanceRefused);
              if (id) docs[s.side].push(id);
            }
          } else if (s.op === 'abandonDoc' && docs[s.side].length) {
            const [id] = docs[s.side].splice(s.pick % docs[s.side].length, 1);
            // A consumed advance cannot be withdrawn (the balance would go below zero).
            const res = await api.post(`${url}/abandonAudit`, { id });
            if (res.body.status !== 0) {
              expect(res.body.message).toBe(d.balanceRefused);
              docs[s.side].push(id);
            } else {
              // Withdrawn, it is a draft again that still holds what it settled (drafts reserve, as push down
              // does) and names its bills: deleted, as the model's open amounts leave it out (CI found:
              // settle, withdraw it, settle the rest → refused as beyond what is open).
              await ok(api.del(url, { ids: [id] }));
            }
          } else if (s.op === 'abandonBill' && bills[s.side].length) {
            const bill = bills[s.side][s.pick % bills[s.side].length];
            const res = await api.post(`${path(d.bill)}/abandonAudit`, { id: bill });
            if (res.body.status === 0) bills[s.side].splice(bills[s.side].indexOf(bill), 1);
            else expect(d.refused).toContain(res.body.message);
          }
        }
        await verifyEmpty();
        const trial = await ok(api.get<{ debitTotal: string; creditTotal: string }>('/api/admin/finance/trialBalance'));
        expect(trial.debitTotal).toBe(trial.creditTotal);
      }),
      { numRuns: TEST_DB === 'postgres' ? 10 : 6 },
    );
    // The trial balance reads the per-day account totals: they hold what the lines hold, account by account.
    const trial = await ok(api.get<{ accounts: Array<{ code: string; debit: string; credit: string }> }>('/api/admin/finance/trialBalance'));
    const lines = await rows<{ account_code: string; debit: string; credit: string }>(
      ctx.database,
      sql`select account_code, sum(debit)::text as debit, sum(credit)::text as credit from fin_posting_line where tenant_id = ${t.tenantId} group by account_code`,
    );
    for (const a of trial.accounts) {
      const line = lines.find((l) => l.account_code === a.code);
      expect([a.code, toMicro(a.debit), toMicro(a.credit)]).toEqual([a.code, toMicro(line?.debit ?? '0'), toMicro(line?.credit ?? '0')]);
    }
  }, 300_000);
});

describe.runIf(TEST_DB === 'postgres')('concurrency on PostgreSQL', () => {
  it('30 payments settling the whole open amount of one bill: exactly one succeeds', async () => {
    const bill = await purchase(6); // 30
    await ok(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.cash, toAccountId: ids.bank, amount: 100 }));
    const replies = await Promise.all(Array.from({ length: 30 }, () => payment({ fundAccountId: ids.bank, ...settle(bill, 30) })));
    expect(replies.filter((r) => r.body.status === 0)).toHaveLength(1);
    expect(new Set(replies.filter((r) => r.body.status !== 0).map((r) => r.body.message))).toEqual(new Set(['BillAllSettled']));
    expect(await settlement('PurchaseInstock', bill)).toBe('AllSettlement');
    await verifyEmpty();
  }, 120_000);
});

describe('the home dashboard', () => {
  it('shows the funds, receivables and this month\'s money in, and a receipt date inside its warning days', async () => {
    // A tenant of its own, so that the figures are this test's alone; dated today, whatever day the test runs.
    const home = await seedTenant(ctx.database, 'FinHome');
    const h = await adminCaller(ctx, home);
    await allowDirectBills(h);
    await setTenantConfig(ctx, home.tenantId, { openNegativeInventory: true });
    const [{ today }] = await rows<{ today: string }>(ctx.database, sql`select current_date::text as today`);
    const unit = await h.create('unit', { name: 'pc' });
    const material = await h.create('material', { code: 'HM1', name: 'Board', units: [{ unitId: unit, isMain: true }] });
    const customer = await h.create('customer', { code: 'HC1', name: 'Home customer' });
    const warehouse = await h.create('stock', { code: 'HW1', name: 'Main' });
    const cash = (await ok(h.post<{ id: number }>('/api/admin/finance/account', { name: 'Cash', kind: 'cash', openingBalance: '250.50', openingDate: today }))).id;
    const { id: bill } = await ok(
      h.post<{ id: number }>(path('SaleOutstock'), { billDate: today, customerId: customer, warehouseId: warehouse, receiptDate: today, receiptWarnDays: 3, lines: [{ materialId: material, number: 10, unitPrice: 10 }] }),
    );
    await ok(h.post(`${path('SaleOutstock')}/submit`, { id: bill }));
    await ok(h.post(`${path('SaleOutstock')}/audit`, { id: bill }));
    const { id: received } = await ok(h.post<{ id: number }>(path('Receipt'), { billDate: today, customerId: customer, receiptType: 'OrdinaryReceipt', fundAccountId: cash, lines: [{ sourceBillId: bill, amount: '40' }] }));
    await ok(h.post(`${path('Receipt')}/submit`, { id: received }));
    await ok(h.post(`${path('Receipt')}/audit`, { id: received }));

    const s = await ok(h.get<DashboardStatistics>('/api/admin/home/statistics'));
    const funds = Object.fromEntries((s.sections.find((x) => x.key === 'fund')?.figures ?? []).map((f) => [f.key, f.value]));
    expect(funds).toMatchObject({ funds: 290.5, receivable: 60, payable: 0, moneyIn: 40, moneyOut: 0 });
    // Still open and due today: the out-stock's receipt date is in the early warning, linked to its screen.
    expect(s.warnings.items).toContainEqual(expect.objectContaining({ kind: 'receiptDate', detail: today, link: '/sale/outstock' }));
    expect((await ok(h.post<FinanceDifference[]>('/api/admin/finance/verify'))).length).toBe(0);
  });
});

describe('clearing business data', () => {
  it('takes the ledger, settlements, transfers and fund accounts with the bills; verify stays empty', async () => {
    await ok(api.put('/api/admin/admin/tenant/clearData', { type: 'business' }));
    expect(await ok(api.get<unknown[]>('/api/admin/finance/account'))).toEqual([]);
    expect(await ok(api.get<unknown[]>('/api/admin/finance/receivable'))).toEqual([]);
    const trial = await ok(api.get<{ debitTotal: string }>('/api/admin/finance/trialBalance'));
    expect(trial.debitTotal).toBe('0.000000');
    await verifyEmpty();
  });
});
