import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import { billApiPath } from '@p8/contract/bills/registry';
import type { FinanceDifference } from '@p8/contract/finance';
import type { DashboardStatistics } from '@p8/contract/home';
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/connection.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, setTenantConfig, type Caller } from './basic-fixtures.ts';
import { balanced } from '../src/modules/finance/ledger.ts';
import { settledStatus } from '../src/modules/finance/settlement.ts';

/*
 * Finance through the API, on PGlite and on PostgreSQL (TEST_DB=postgres): audited bills open receivables
 * and payables and post the ledger; payments and receipts settle them exactly, never beyond what is open;
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
const sale = (n: number, date = DAY) => audited('SaleOutstock', { billDate: date, customerId: ids.customer, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: n, unitPrice: 10 }] });
const purchase = (n: number) => audited('PurchaseInstock', { supplierId: ids.supplier, warehouseId: ids.w1, lines: [{ materialId: ids.m1, number: n, unitPrice: 5 }] });

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
  await setTenantConfig(ctx, t.tenantId, { openNegativeInventory: true });
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

describe('receipts settle sale out-stocks', () => {
  it('UnSettlement → PartialSettlement → AllSettlement, never beyond the open amount, and abandon audit refused while settled', async () => {
    const bill = await sale(10); // 100
    expect(await settlement('SaleOutstock', bill)).toBe('UnSettlement');
    const open = await ok(api.get<Array<{ billId: number; unsettled: string }>>(`/api/admin/finance/receivable/openBills?partnerId=${ids.customer}`));
    expect(open.find((o) => o.billId === bill)!.unsettled).toBe('100.000000');
    const first = await ok(api.post<{ id: number }>('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: '40.10' }] }));
    expect(await settlement('SaleOutstock', bill)).toBe('PartialSettlement');
    await refused(api.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: '59.91' }] }), 'ReceiptAmountExceedUnreceived');
    await refused(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: bill }), 'BillReceivedProhibitAbandonAudit');
    await ok(api.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: '59.90' }] }));
    expect(await settlement('SaleOutstock', bill)).toBe('AllSettlement');
    await refused(api.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: 1 }] }), 'BillAllSettled');
    // Withdrawing a receipt opens its part again.
    await ok(api.post(`/api/admin/finance/receipt/${first.id}/abandon`));
    expect(await settlement('SaleOutstock', bill)).toBe('PartialSettlement');
    await verifyEmpty();
  });

  it('an unsettled bill is withdrawn: the receivable is reversed and it can be audited again', async () => {
    const bill = await sale(3);
    const before = await ok(api.get<Array<{ partnerId: number; balance: string }>>(`/api/admin/finance/receivable?partnerId=${ids.customer}`));
    await ok(api.post(`${path('SaleOutstock')}/abandonAudit`, { id: bill }));
    const after = await ok(api.get<Array<{ partnerId: number; balance: string }>>(`/api/admin/finance/receivable?partnerId=${ids.customer}`));
    expect(toMicro(before[0].balance) - toMicro(after[0].balance)).toBe(toMicro(30));
    await refused(api.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: 1 }] }), 'SettleBillNotOpen');
    await verifyEmpty();
  });

  it('refuses bills of another partner, a missing fund account and a wrong sign', async () => {
    const bill = await purchase(2);
    await refused(api.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: 1 }] }), 'SettleBillNotOpen');
    await refused(api.post('/api/admin/finance/payment', { payType: 'OrdinaryPay', docDate: DAY, partnerId: ids.supplier, allocations: [{ billId: bill, amount: 1 }] }), 'PleaseSelectAccount');
    await refused(api.post('/api/admin/finance/payment', { payType: 'OrdinaryPay', docDate: DAY, partnerId: ids.supplier, fundAccountId: ids.cash, allocations: [{ billId: bill, amount: -1 }] }), 'SettleAmountSignMismatch');
    await refused(api.post('/api/admin/finance/payment', { payType: 'OrdinaryPay', docDate: DAY, partnerId: ids.customer, fundAccountId: ids.cash, allocations: [{ billId: bill, amount: 1 }] }), 'SupplierNotExist');
    await refused(api.post('/api/admin/finance/payment', { payType: 'OrdinaryPay', docDate: DAY, partnerId: ids.supplier, fundAccountId: ids.cash, allocations: [] }), 'AllocationRequired');
    await verifyEmpty();
  });
});

describe('payments, advances and deductions', () => {
  it('prepaid is raised by an advance, consumed by a deduction, never below zero', async () => {
    const bill = await purchase(4); // 20
    await ok(api.post('/api/admin/finance/payment', { payType: 'AdvancePay', docDate: DAY, partnerId: ids.supplier, fundAccountId: ids.cash, amount: 15 }));
    await refused(api.post('/api/admin/finance/payment', { payType: 'DeductionAmount', docDate: DAY, partnerId: ids.supplier, allocations: [{ billId: bill, amount: 16 }] }), 'PrepaidAmountExceedBalance');
    await ok(api.post('/api/admin/finance/payment', { payType: 'DeductionAmount', docDate: DAY, partnerId: ids.supplier, allocations: [{ billId: bill, amount: 15 }] }));
    expect(await settlement('PurchaseInstock', bill)).toBe('PartialSettlement');
    const [row] = await ok(api.get<Array<{ prepaid: string }>>(`/api/admin/finance/payable?partnerId=${ids.supplier}`));
    expect(row.prepaid).toBe('0.000000');
    // A settlement payment beyond the bill puts the rest on prepaid.
    await ok(api.post('/api/admin/finance/payment', { payType: 'SettlementPay', docDate: DAY, partnerId: ids.supplier, fundAccountId: ids.cash, allocations: [{ billId: bill, amount: 5 }], amount: 8 }));
    expect(await settlement('PurchaseInstock', bill)).toBe('AllSettlement');
    const [after] = await ok(api.get<Array<{ prepaid: string }>>(`/api/admin/finance/payable?partnerId=${ids.supplier}`));
    expect(after.prepaid).toBe('3.000000');
    await refused(api.post(`${path('PurchaseInstock')}/abandonAudit`, { id: bill }), 'BillPaidProhibitAbandonAudit');
    await verifyEmpty();
  });

  it('ages open bills and keeps a running ledger', async () => {
    const old = await sale(1, '2026-07-01');
    const aging = await ok(api.get<Array<Record<string, string>>>(`/api/admin/finance/receivable?partnerId=${ids.customer}&asOf=2026-11-24`));
    expect(toMicro(aging[0].d90)).toBeGreaterThanOrEqual(toMicro(10));
    expect(toMicro(aging[0].d0_30) + toMicro(aging[0].d31_60) + toMicro(aging[0].d61_90) + toMicro(aging[0].d90)).toBe(toMicro(aging[0].open));
    const ledger = await ok(api.get<Array<{ billId: number | null; balance: string }>>(`/api/admin/finance/receivable/ledger?partnerId=${ids.customer}`));
    expect(ledger.some((l) => l.billId === old)).toBe(true);
    expect(ledger.at(-1)!.balance).toBe(aging[0].balance);
  });
});

describe('property: random bills, payments, receipts, deductions and withdrawals keep the books', () => {
  /** One side of the books: sales settled by receipts (advance: advance receipts), purchases by payments (advance: prepaid). */
  const SIDES = {
    sale: { bill: 'SaleOutstock', make: (n: number) => sale(n), url: 'receipt', typeKey: 'receiptType', ordinary: 'OrdinaryReceipt', advance: 'AdvanceReceipt', fromBalance: 'SettlementReceipt', partner: () => ids.customer, report: 'receivable', refused: ['BillReceivedProhibitAbandonAudit'], balanceRefused: 'AdvanceAmountExceedBalance' },
    purchase: { bill: 'PurchaseInstock', make: (n: number) => purchase(n), url: 'payment', typeKey: 'payType', ordinary: 'OrdinaryPay', advance: 'AdvancePay', fromBalance: 'DeductionAmount', partner: () => ids.supplier, report: 'payable', refused: ['BillPaidProhibitAbandonAudit'], balanceRefused: 'PrepaidAmountExceedBalance' },
  } as const;
  type Side = keyof typeof SIDES;
  type Step =
    | { op: 'bill'; side: Side; n: number }
    | { op: 'settle' | 'deduct'; side: Side; pick: number; part: number }
    | { op: 'abandonDoc'; side: Side; pick: number }
    | { op: 'abandonBill'; side: Side; pick: number }
    | { op: 'advance'; side: Side; n: number };

  it('balances = Σ ledger, settled within the amount, debit = credit', async () => {
    // Enough money that payments never meet an empty account (that refusal has its own test).
    const fund = (await ok(api.post<{ id: number }>('/api/admin/finance/account', { name: 'Property', kind: 'bank', openingBalance: 1_000_000, openingDate: DAY }))).id;
    const side = fc.constantFrom<Side>('sale', 'purchase');
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('bill' as const), side, n: fc.integer({ min: 1, max: 9 }) }),
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
          const url = `/api/admin/finance/${d.url}`;
          const base = { docDate: DAY, partnerId: d.partner() };
          if (s.op === 'bill') bills[s.side].push(await d.make(s.n));
          else if (s.op === 'advance') docs[s.side].push((await ok(api.post<{ id: number }>(url, { ...base, [d.typeKey]: d.advance, fundAccountId: fund, amount: s.n }))).id);
          else if ((s.op === 'settle' || s.op === 'deduct') && bills[s.side].length) {
            const bill = bills[s.side][s.pick % bills[s.side].length];
            const open = (await ok(api.get<Array<{ billId: number; unsettled: string }>>(`/api/admin/finance/${d.report}/openBills?partnerId=${d.partner()}`))).find((o) => o.billId === bill);
            const amount = open ? (toMicro(open.unsettled) * BigInt(s.part)) / 100n : 0n;
            if (amount <= 0n) continue;
            const allocations = [{ billId: bill, amount: microText(amount) }];
            if (s.op === 'settle') docs[s.side].push((await ok(api.post<{ id: number }>(url, { ...base, [d.typeKey]: d.ordinary, fundAccountId: fund, allocations }))).id);
            else {
              // From the advance / prepaid balance: posted when it suffices, refused (and nothing changed) when not.
              const res = await api.post<{ id: number }>(url, { ...base, [d.typeKey]: d.fromBalance, allocations });
              if (res.body.status === 0) docs[s.side].push(res.body.data.id);
              else expect(res.body.message).toBe(d.balanceRefused);
            }
          } else if (s.op === 'abandonDoc' && docs[s.side].length) {
            const [id] = docs[s.side].splice(s.pick % docs[s.side].length, 1);
            // A consumed advance cannot be withdrawn (the balance would go below zero).
            const res = await api.post(`${url}/${id}/abandon`);
            if (res.body.status !== 0) expect(res.body.message).toBe(d.balanceRefused);
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
  });
});

describe.runIf(TEST_DB === 'postgres')('concurrency on PostgreSQL', () => {
  it('30 payments settling the whole open amount of one bill: exactly one succeeds', async () => {
    const bill = await purchase(6); // 30
    await ok(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: ids.cash, toAccountId: ids.bank, amount: 100 }));
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => api.post('/api/admin/finance/payment', { payType: 'OrdinaryPay', docDate: DAY, partnerId: ids.supplier, fundAccountId: ids.bank, allocations: [{ billId: bill, amount: 30 }] })),
    );
    expect(replies.filter((r) => r.body.status === 0)).toHaveLength(1);
    expect(new Set(replies.filter((r) => r.body.status !== 0).map((r) => r.body.message))).toEqual(new Set(['BillAllSettled']));
    expect(await settlement('PurchaseInstock', bill)).toBe('AllSettlement');
    await verifyEmpty();
  });
});

describe('the home dashboard', () => {
  it('shows the funds, receivables and this month\'s money in, and a receipt date inside its warning days', async () => {
    // A tenant of its own, so that the figures are this test's alone; dated today, whatever day the test runs.
    const home = await seedTenant(ctx.database, 'FinHome');
    const h = await adminCaller(ctx, home);
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
    await ok(h.post('/api/admin/finance/receipt', { receiptType: 'OrdinaryReceipt', docDate: today, partnerId: customer, fundAccountId: cash, allocations: [{ billId: bill, amount: '40' }] }));

    const s = await ok(h.get<DashboardStatistics>('/api/admin/home/statistics'));
    const funds = Object.fromEntries((s.sections.find((x) => x.key === 'fund')?.figures ?? []).map((f) => [f.key, f.value]));
    expect(funds).toMatchObject({ funds: 290.5, receivable: 60, payable: 0, moneyIn: 40, moneyOut: 0 });
    // Still open and due today: the out-stock's receipt date is in the early warning, linked to its screen.
    expect(s.warnings.items).toContainEqual(expect.objectContaining({ kind: 'receiptDate', detail: today, link: '/sale/outstock' }));
    expect((await ok(h.post<FinanceDifference[]>('/api/admin/finance/verify'))).length).toBe(0);
  });
});

describe('clearing business data', () => {
  it('takes the ledger, settlements, money documents and fund accounts with the bills; verify stays empty', async () => {
    await ok(api.put('/api/admin/admin/tenant/clearData', { type: 'business' }));
    expect(await ok(api.get<unknown[]>('/api/admin/finance/account'))).toEqual([]);
    expect(await ok(api.get<unknown[]>('/api/admin/finance/receivable'))).toEqual([]);
    const trial = await ok(api.get<{ debitTotal: string }>('/api/admin/finance/trialBalance'));
    expect(trial.debitTotal).toBe('0.000000');
    await verifyEmpty();
  });
});
