import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Salary, SalaryPayment } from '@p8/contract/bills/salary';
import { billApiPath } from '@p8/contract/bills/registry';
import type { FinanceDifference } from '@p8/contract/finance';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { createOtherBillRecords, ok, refused } from './bill-fixtures.ts';

/*
 * Salaries through the API on PGlite and on PostgreSQL (TEST_DB=postgres): a salary bill's net pay computed
 * exactly and never negative, a staff member once per pay period, the audit's balanced posting
 * (Dr 6602 gross / Cr 2211 net / Cr 2241 withheld), a salary payment that writes the bill off and keeps its
 * audit, the staff member in use, and verify empty after every step.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let fund = 0;
const staff = { a: 0, b: 0 };
const DAY = '2026-11-30';
const SALARY = billApiPath(Salary);
const PAYMENT = billApiPath(SalaryPayment);

async function verifyEmpty() {
  expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
}

async function step(url: string, id: number, ...steps: string[]) {
  for (const s of steps) await ok(api.post(`${url}/${s}`, { id }));
}

interface TrialBalance {
  accounts: Array<{ code: string; debit: string; credit: string; balance: string }>;
  debitTotal: string;
  creditTotal: string;
}
async function accounts(): Promise<Record<string, string>> {
  const tb = await ok(api.get<TrialBalance>('/api/admin/finance/trialBalance'));
  expect(tb.debitTotal).toBe(tb.creditTotal);
  return Object.fromEntries(tb.accounts.filter((a) => ['6602', '2211', '2241'].includes(a.code)).map((a) => [a.code, a.balance]));
}

const fundBalance = async () => (await ok(api.get<Array<{ id: number; balance: string }>>('/api/admin/finance/account'))).find((a) => a.id === fund)!.balance;

/** Two staff lines: A with items to round (800.555 → 800.56 at two digits), B plain. Net 5180.26 + 3600 = 8780.26. */
const lines = () => [
  { staffId: staff.a, basePay: '5000', bonus: '800.555', socialInsurance: '500', incomeTax: '120.3', otherDeduction: '0' },
  { staffId: staff.b, basePay: 4000, socialInsurance: 400 },
];

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Salaries');
  api = await adminCaller(ctx, t);
  fund = (await createOtherBillRecords(api)).fundAccount;
  staff.a = (await staffCaller(ctx, t)).adminId;
  staff.b = (await staffCaller(ctx, t)).adminId;
});
afterAll(() => ctx.close());

describe('salary bills', () => {
  it('computes the net pay exactly and refuses a negative one, a repeated staff member, a bad period', async () => {
    const { id } = await ok(api.post<{ id: number }>(SALARY, { billDate: DAY, salaryPeriod: '2026-10', lines: lines() }));
    const bill = await ok(api.get<{ priceTotal: number; lines: Array<{ amount: string | number; bonus: string }> }>(`${SALARY}/${id}`));
    expect(bill.priceTotal).toBe(8780.26);
    expect(bill.lines.map((l) => Number(l.amount))).toEqual([5180.26, 3600]);
    expect(bill.lines[0].bonus).toBe('800.560000');
    await refused(api.post(SALARY, { billDate: DAY, salaryPeriod: '2026-10', lines: [{ staffId: staff.a, basePay: 100, socialInsurance: 100.01 }] }), 'SalaryNetNegative');
    await refused(api.post(SALARY, { billDate: DAY, salaryPeriod: '2026-10', lines: [{ staffId: staff.a, basePay: 100 }, { staffId: staff.a, basePay: 50 }] }), 'SalaryStaffRepeatInBill');
    await refused(api.post(SALARY, { billDate: DAY, salaryPeriod: '2026-13', lines: [{ staffId: staff.a, basePay: 100 }] }), 'SalaryPeriodInvalid');
    // A missing required field is refused with the field's own message, as the form asks for it, naming it.
    expect((await api.post(SALARY, { billDate: DAY, lines: [{ staffId: staff.a, basePay: 100 }] })).body).toMatchObject({ message: 'PleaseSelectSalaryPeriod', additional: 'salaryPeriod' });
    await refused(api.post(SALARY, { billDate: DAY, salaryPeriod: '2026-10', lines: [{ staffId: staff.a, basePay: -1 }] }), 'SalaryAmountNegative');
    // The list exports its lines with the items, deductions and net pay (titled in the caller's language).
    const file = await api.download(`${SALARY}/export?lang=en`, {});
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    await ok(api.del(SALARY, { ids: [id] }));
  });

  it('audits to a balanced posting, is paid, keeps its audit while written off, and verify stays empty', async () => {
    const before = await accounts();
    const { id } = await ok(api.post<{ id: number }>(SALARY, { billDate: DAY, salaryPeriod: '2026-11', lines: lines() }));
    // A second draft naming A for the same month may be saved while the first is not audited…
    const rival = await ok(api.post<{ id: number }>(SALARY, { billDate: DAY, salaryPeriod: '2026-11', lines: [{ staffId: staff.a, basePay: 10 }] }));
    await step(SALARY, id, 'submit', 'audit');
    // …but not audited once A's November is: and no new bill names A for November.
    await step(SALARY, rival.id, 'submit');
    await refused(api.post(`${SALARY}/audit`, { id: rival.id }), 'SalaryStaffRepeat');
    await refused(api.post(SALARY, { billDate: DAY, salaryPeriod: '2026-11', lines: [{ staffId: staff.a, basePay: 10 }] }), 'SalaryStaffRepeat');
    // Another month is another salary.
    const december = await ok(api.post<{ id: number }>(SALARY, { billDate: DAY, salaryPeriod: '2026-12', lines: [{ staffId: staff.a, basePay: 10 }] }));
    await ok(api.del(SALARY, { ids: [december.id] }));

    const after = await accounts();
    const moved = (code: string) => (Number(after[code]) - Number(before[code])).toFixed(2);
    expect([moved('6602'), moved('2211'), moved('2241')]).toEqual(['9800.56', '8780.26', '1020.30']);
    expect((await ok(api.get<{ progress: Record<string, string> }>(`${SALARY}/${id}`))).progress.settlement).toBe('UnSettlement');
    await verifyEmpty();

    // Paid in part: pushed down (the open amount), lowered to 5000, from the fund account.
    const sources = await ok(api.get<Array<{ sourceBillId: number; openAmount: string }>>(`${PAYMENT}/sources?sourceType=Salary`));
    expect(sources.find((s) => s.sourceBillId === id)?.openAmount).toBe('8780.260000');
    const pushed = await ok(api.post<{ id: number }>(`${PAYMENT}/pushDown`, { sourceType: 'Salary', sourceLineIds: [id] }));
    await refused(api.post(`${PAYMENT}/submit`, { id: pushed.id }), 'PleaseSelectAccount');
    await refused(api.put(PAYMENT, { id: pushed.id, billDate: DAY, fundAccountId: fund, lines: [{ sourceBillId: id, amount: '8780.27' }] }), 'SettlementAmountExceedUnsettled');
    await ok(api.put(PAYMENT, { id: pushed.id, billDate: DAY, fundAccountId: fund, lines: [{ sourceBillId: id, amount: '5000' }] }));
    const fundBefore = await fundBalance();
    await step(PAYMENT, pushed.id, 'submit', 'audit');
    expect(Number(fundBefore) - Number(await fundBalance())).toBe(5000);
    expect((await ok(api.get<{ progress: Record<string, string> }>(`${SALARY}/${id}`))).progress.settlement).toBe('PartialSettlement');
    expect(Number((await accounts())['2211']) - Number(before['2211'])).toBeCloseTo(3780.26, 6);

    // Written off: the salary keeps its audit; its staff member is in use.
    await refused(api.post(`${SALARY}/abandonAudit`, { id }), 'SalaryWrittenOffProhibitAbandonAudit');
    await refused(api.del('/api/admin/security/admin', { ids: [staff.b] }), 'StaffInUseProhibitDelete');
    await verifyEmpty();

    // The rest paid: all settled; the payment withdrawn opens it again, then the salary's audit may go.
    const rest = await ok(api.post<{ id: number }>(PAYMENT, { billDate: DAY, fundAccountId: fund, lines: [{ sourceBillId: id, amount: '3780.26' }] }));
    await step(PAYMENT, rest.id, 'submit', 'audit');
    expect((await ok(api.get<{ progress: Record<string, string> }>(`${SALARY}/${id}`))).progress.settlement).toBe('AllSettlement');
    await refused(api.post(PAYMENT, { billDate: DAY, fundAccountId: fund, lines: [{ sourceBillId: id, amount: '1' }] }), 'BillAllSettled');
    await verifyEmpty();
    for (const payment of [rest.id, pushed.id]) await step(PAYMENT, payment, 'abandonAudit');
    await refused(api.post(`${SALARY}/abandonAudit`, { id }), 'ExistChildrenBillProhibitAbandonAudit');
    await ok(api.del(PAYMENT, { ids: [rest.id, pushed.id] }));
    await step(SALARY, id, 'abandonAudit');
    expect(await accounts()).toEqual(before);
    expect(await fundBalance()).toBe(fundBefore);
    // Withdrawn, A's November is free again: the rival may be audited.
    await step(SALARY, rival.id, 'audit');
    await verifyEmpty();
  });

  it('audits one of two salaries naming one staff member for one month when both are audited at once', async () => {
    const make = async () => (await ok(api.post<{ id: number }>(SALARY, { billDate: DAY, salaryPeriod: '2027-01', lines: [{ staffId: staff.b, basePay: 10 }] }))).id;
    const two = [await make(), await make()];
    for (const id of two) await step(SALARY, id, 'submit');
    const answers = await Promise.all(two.map((id) => api.post(`${SALARY}/audit`, { id })));
    expect(answers.map((a) => a.body.message).sort()).toEqual(['SalaryStaffRepeat', 'Success']);
    await verifyEmpty();
  });
});

it(`runs on ${TEST_DB}`, () => expect(['pglite', 'postgres']).toContain(TEST_DB));
