import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { FinanceDifference } from '@p8/contract/finance';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { allowDirectBills, ok } from './bill-fixtures.ts';

/*
 * A stock bill type declared here, and nowhere else, posts its stock value to the account its declaration
 * names, through the real app (PGlite; PostgreSQL with TEST_DB=postgres): production's pick out-stock (Dr 5001
 * work in progress / Cr 1405) and completion in-stock (Dr 1405 / Cr 5001). The registry is the contract's with
 * the two appended; finance is not touched, which is the point.
 */

vi.mock('@p8/contract/bills/supply-chain', async (importOriginal) => {
  const original = await importOriginal<typeof import('@p8/contract/bills/supply-chain')>();
  const wip = { stock: { counter: 'workInProgress' } } as const;
  const PickOutstock: BillTypeDecl = { ...original.OtherOutstock, type: 'TestPickOutstock', label: { zh: '生产领料', en: 'Pick out-stock' }, route: 'testPickOutstock', codePrefix: 'TSLL', postings: wip };
  const CompletionInstock: BillTypeDecl = { ...original.OtherInstock, type: 'TestCompletionInstock', label: { zh: '完工入库', en: 'Completion in-stock' }, route: 'testCompletionInstock', codePrefix: 'TSWG', postings: wip };
  return { ...original, SUPPLY_CHAIN_BILLS: [...original.SUPPLY_CHAIN_BILLS, PickOutstock, CompletionInstock] };
});

let ctx: TestContext;
let api: Caller;
const DAY = '2026-11-24';
const path = (type: string) => billApiPath(billType(type)!);

async function audited(type: string, body: Record<string, unknown>): Promise<number> {
  const { id } = await ok(api.post<{ id: number }>(path(type), { billDate: DAY, ...body }));
  await ok(api.post(`${path(type)}/submit`, { id }));
  await ok(api.post(`${path(type)}/audit`, { id }));
  return id;
}

/** The trial balance's balance per account (natural side positive); its totals agree. */
async function balances() {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }>; debitTotal: string; creditTotal: string }>('/api/admin/finance/trialBalance'));
  expect(trial.debitTotal).toBe(trial.creditTotal);
  return Object.fromEntries(trial.accounts.map((a) => [a.code, Number(a.balance)]));
}

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'Postings');
  api = await adminCaller(ctx, t);
  await allowDirectBills(api);
});
afterAll(() => ctx.close());

describe('a stock bill type declared outside finance', () => {
  it('posts its stock value to its declared account: materials picked into work in progress, products completed out of it', async () => {
    expect(billType('TestPickOutstock')?.postings.stock).toEqual({ counter: 'workInProgress' });
    const piece = await api.create('unit', { name: 'pc' });
    const board = await api.create('material', { code: 'B1', name: 'Board', units: [{ unitId: piece, isMain: true }] });
    const product = await api.create('material', { code: 'P1', name: 'Product', units: [{ unitId: piece, isMain: true }] });
    const w = await api.create('stock', { code: 'W1', name: 'Main' });
    // 10 boards at 6 (opening stock, against 1901).
    await audited('OtherInstock', { warehouseId: w, lines: [{ materialId: board, number: 10, unitPrice: 6 }] });
    expect(await balances()).toMatchObject({ '1405': 60, '1901': -60, '5001': 0 });
    // 4 boards picked for production: Dr 5001 / Cr 1405 at their average cost.
    await audited('TestPickOutstock', { warehouseId: w, lines: [{ materialId: board, number: 4 }] });
    expect(await balances()).toMatchObject({ '1405': 36, '5001': 24, '1901': -60 });
    // The product completed at what went into it: Dr 1405 / Cr 5001.
    const done = await audited('TestCompletionInstock', { warehouseId: w, lines: [{ materialId: product, number: 1, unitPrice: 24 }] });
    expect(await balances()).toMatchObject({ '1405': 60, '5001': 0 });
    // Withdrawn, the completion's posting is reversed: the value is back in progress.
    await ok(api.post(`${path('TestCompletionInstock')}/abandonAudit`, { id: done }));
    expect(await balances()).toMatchObject({ '1405': 36, '5001': 24 });
    expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
  });
});
