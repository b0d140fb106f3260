import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { finFundAccount } from '../src/db/schema/index.ts';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { financeVerifyEmpty, ok, refused } from './bill-fixtures.ts';
import { auditEntries, staffWith } from './system-fixtures.ts';

/*
 * Fund accounts on their screen: edited (name, number, remark at any time; kind and opening balance only
 * while nothing but the opening has posted), enabled and disabled (never with money on it). A disabled
 * account stays in the list but leaves the bills' picker, and bills and transfers naming it are refused.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const DAY = '2026-11-24';
const URL = '/api/admin/finance/account';

interface FundRow {
  id: number;
  name: string;
  kind: string;
  accountNumber: string;
  openingBalance: string;
  openingDate: string;
  balance: string;
  enabled: boolean;
  remark: string;
  moved: boolean;
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Fund');
  api = await adminCaller(ctx, t);
});
afterAll(async () => {
  await ctx?.close();
});

const fund = async (id: number) => ok(api.get<FundRow>(`${URL}/${id}`));
const create = async (name: string, openingBalance: string | number, kind = 'bank') => (await ok(api.post<{ id: number }>(URL, { name, kind, openingBalance, openingDate: '2026-01-01' }))).id;

describe(`fund accounts (${TEST_DB})`, () => {
  it('edits name, number and remark, and kind and opening balance while only the opening has posted', async () => {
    const id = await create('Petty', '300');
    await ok(api.put(URL, { id, name: 'Petty cash', kind: 'cash', accountNumber: 'DRAWER-1', openingBalance: '450.5', openingDate: '2026-02-01', remark: 'front desk' }));
    expect(await fund(id)).toMatchObject({ name: 'Petty cash', kind: 'cash', accountNumber: 'DRAWER-1', openingBalance: '450.500000', openingDate: '2026-02-01', balance: '450.500000', remark: 'front desk', moved: false });
    // The ledger followed: the old opening is reversed, the new one sits on the cash account.
    await financeVerifyEmpty(api);
    const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
    expect(trial.accounts.find((r) => r.code === '1001')).toMatchObject({ balance: '450.500000' });

    // Money moves: from now on the kind and the opening stay; the name still changes.
    const other = await create('Vault', '0');
    await ok(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: id, toAccountId: other, amount: '50.5' }));
    expect((await ok(api.get<FundRow[]>(URL))).find((a) => a.id === id)).toMatchObject({ moved: true });
    await refused(api.put(URL, { id, name: 'Petty cash', kind: 'bank', accountNumber: 'DRAWER-1', remark: 'front desk' }), 'FundAccountPostedProhibitChange');
    await refused(api.put(URL, { id, name: 'Petty cash', accountNumber: 'DRAWER-1', openingBalance: '1', remark: 'front desk' }), 'FundAccountPostedProhibitChange');
    await ok(api.put(URL, { id, name: 'Till', kind: 'cash', accountNumber: '', openingBalance: '450.5', openingDate: '2026-02-01', remark: '' }));
    expect(await fund(id)).toMatchObject({ name: 'Till', kind: 'cash', openingBalance: '450.500000', balance: '400.000000', remark: '' });

    // Bad input: catalogued, nothing changed.
    await refused(api.put(URL, { id, name: ' ', accountNumber: '', remark: '' }), 'PleaseInputName');
    await refused(api.put(URL, { id: other, name: 'Till', accountNumber: '', remark: '' }), 'FundAccountNameRepeat');
    await refused(api.put(URL, { id: other, name: 'Vault', openingBalance: '-1', accountNumber: '', remark: '' }), 'AmountMustNotBeNegative');
    expect((await api.put(URL, { id: other, name: 'Vault', kind: 'gold', accountNumber: '', remark: '' })).body.status).not.toBe(0);
    expect(await fund(other)).toMatchObject({ name: 'Vault', kind: 'bank', balance: '50.500000' });
    expect((await auditEntries(ctx, t.tenantId, 'fundAccount')).filter((e) => e.action === 'update' && e.entityId === String(id)).at(-1)?.detail).toMatchObject({
      before: { name: 'Petty' },
      after: { name: 'Petty cash', kind: 'cash' },
    });
    await financeVerifyEmpty(api);
  });

  it('refuses to disable an account with money on it; a disabled one stays listed, is flagged in the picker and refused on bills', async () => {
    const full = await create('Operating', '120');
    const spare = await create('Spare', '0');
    await refused(api.put(`${URL}/enable`, { ids: [spare, full], enabled: false }), 'FundAccountHasBalanceProhibitClose');
    expect((await fund(spare)).enabled).toBe(true); // one transaction: the refusal kept the other one too

    await ok(api.put(`${URL}/enable`, { ids: [spare], enabled: false }));
    const listed = await ok(api.get<FundRow[]>(URL));
    expect(listed.find((a) => a.id === spare)).toMatchObject({ enabled: false });
    // The picker still names it, flagged: a bill saved before it was disabled shows the account's name
    // (the bill form offers only enabled accounts, plus the one the bill already holds).
    const picker = await ok(api.get<Array<{ id: number; name: string; enabled: boolean }>>(`${URL}/picker`));
    expect(picker.find((a) => a.id === full)).toMatchObject({ name: 'Operating', enabled: true });
    expect(picker.find((a) => a.id === spare)).toMatchObject({ name: 'Spare', enabled: false });

    // Bills and transfers naming it are refused when saved; nothing posts to it.
    const customer = await api.create('customer', { code: 'FC1', name: 'Fund customer' });
    await refused(api.post(billApiPath(billType('Receipt')!), { billDate: DAY, customerId: customer, receiptType: 'AdvanceReceipt', fundAccountId: spare, advanceAmount: '10', lines: [] }), 'FundAccountIsDisabled');
    await refused(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: full, toAccountId: spare, amount: '1' }), 'FundAccountIsDisabled');
    // Nor can its opening balance be set while it is disabled (that would post to it).
    await refused(api.put(URL, { id: spare, name: 'Spare', openingBalance: '5', accountNumber: '', remark: '' }), 'FundAccountIsDisabled');
    expect(await fund(spare)).toMatchObject({ enabled: false, balance: '0.000000', openingBalance: '0.000000' });

    // Empty the full one, then it can be disabled; enabling makes the other one offered again.
    await ok(api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: full, toAccountId: (await create('Sweep', '0')), amount: '120' }));
    await ok(api.put(`${URL}/enable`, { ids: [full], enabled: false }));
    await ok(api.put(`${URL}/enable`, { ids: [spare], enabled: true }));
    const after = await ok(api.get<Array<{ id: number; enabled: boolean }>>(`${URL}/picker`));
    expect(after.find((a) => a.id === spare)?.enabled).toBe(true);
    expect(after.find((a) => a.id === full)?.enabled).toBe(false);
    const actions = (await auditEntries(ctx, t.tenantId, 'fundAccount')).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['enable', 'disable']));
    await financeVerifyEmpty(api);
  });

  it('edits and switches behind the screen’s update and enable buttons', async () => {
    const id = await create('Guarded', '0');
    const viewer = await staffWith(ctx, t, { codes: ['finance_account'] });
    const put = (url: string, body: unknown, token: string) => ctx.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload: body as object });
    expect((await put(URL, { id, name: 'Renamed', accountNumber: '', remark: '' }, viewer.token)).json()).toMatchObject({ status: 40300 });
    expect((await put(`${URL}/enable`, { ids: [id], enabled: false }, viewer.token)).json()).toMatchObject({ status: 40300 });
    const editor = await staffWith(ctx, t, { codes: ['finance_account_update', 'finance_account_enable'] });
    expect((await put(URL, { id, name: 'Renamed', accountNumber: '', remark: '' }, editor.token)).json()).toMatchObject({ status: 0 });
    expect((await put(`${URL}/enable`, { ids: [id], enabled: false }, editor.token)).json()).toMatchObject({ status: 0 });
  });
});

describe.runIf(TEST_DB === 'postgres')('disabling against a posting on PostgreSQL', () => {
  it('a transfer that checked the account before it was disabled waits for the lock and is refused', async () => {
    const source = await create('Race source', '10');
    const target = await create('Race target', '0');
    let transfer: Promise<{ body: { status: number; message: string } }> | undefined;
    // What the disable does: lock the account's row, see it empty, switch it off — and before committing,
    // a transfer into it starts (it finds the account enabled, the switch is not committed yet).
    await ctx.database.withTenant(t.tenantId, async (tx) => {
      const where = and(eq(finFundAccount.tenantId, t.tenantId), eq(finFundAccount.id, target));
      const [row] = await tx.select().from(finFundAccount).where(where).for('update');
      expect(row.balance).toBe('0.000000');
      await tx.update(finFundAccount).set({ enabled: false }).where(where);
      transfer = api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: source, toAccountId: target, amount: '4' });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    await refused(transfer!, 'FundAccountIsDisabled');
    expect(await fund(target)).toMatchObject({ enabled: false, balance: '0.000000' });
    expect((await fund(source)).balance).toBe('10.000000');

    // And the other way round: many transfers in, one disable: either it is refused or no transfer got in.
    await ok(api.put(`${URL}/enable`, { ids: [target], enabled: true }));
    const replies = await Promise.all([
      ...Array.from({ length: 4 }, () => api.post('/api/admin/finance/transfer', { docDate: DAY, fromAccountId: source, toAccountId: target, amount: '1' })),
      api.put(`${URL}/enable`, { ids: [target], enabled: false }),
    ]);
    const disabled = replies.at(-1)!.body.status === 0;
    const after = await fund(target);
    expect(after.enabled).toBe(!disabled);
    if (disabled) expect(after.balance).toBe('0.000000');
    else expect(replies.at(-1)!.body.message).toBe('FundAccountHasBalanceProhibitClose');
    await financeVerifyEmpty(api);
  }, 60_000);
});
