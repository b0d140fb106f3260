import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES, billType, progressRollups, type ProgressRollup } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { PROGRESS_STATES } from '@p8/contract/bills/status';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok, verifyEmpty, type BillRecords } from './bill-fixtures.ts';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';

/*
 * Progress that rolls up through intermediate bills, for every chain the registry declares (a sale order →
 * its shipping notice → the out-stocks made from the notice): what went out through the notice shows on the
 * order, its status follows, and withdrawing rolls it back. PGlite and PostgreSQL.
 */

const ROLLUPS: ProgressRollup[] = BILL_TYPES.flatMap((decl) => progressRollups(decl.type));

let ctx: TestContext;
let api: Caller;
let records: BillRecords;

beforeAll(async () => {
  ctx = await startTestApp();
  api = await adminCaller(ctx, await seedTenant(ctx.database, 'Progress'));
  records = await createBillRecords(api);
  const url = billApiPath(billType('OtherInstock')!);
  const { id } = await ok(api.post<{ id: number }>(url, { billDate: '2026-11-24', warehouseId: records.warehouse, lines: [{ materialId: records.material, number: 1000, unitPrice: 2 }] }));
  for (const step of ['submit', 'audit']) await ok(api.post(`${url}/${step}`, { id }));
});
afterAll(() => ctx.close());

type Detail = { billStatus: string; progress: Record<string, string>; lines: Array<{ id: number; progress: Record<string, { done: number; state: string }> }> };

/** A bill of `type` of `number` of the material, taking from `sourceLineId` when given; audited unless `draft`. */
async function bill(type: string, number: number, sourceLineId?: number) {
  const decl = billType(type)!;
  const url = billApiPath(decl);
  const body = billPayload(decl, records);
  const lines = (body.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number, ...(sourceLineId ? { sourceLineId } : {}) }));
  const { id } = await ok(api.post<{ id: number }>(url, { ...body, lines }));
  for (const step of ['submit', 'audit']) await ok(api.post(`${url}/${step}`, { id }));
  const detail = await ok(api.get<Detail>(`${url}/${id}`));
  return { id, lineId: detail.lines[0].id, detail: () => ok(api.get<Detail>(`${url}/${id}`)) };
}

describe('progress through intermediate bills', () => {
  it('has a chain to walk', () => {
    expect(ROLLUPS.length).toBeGreaterThan(0);
  });

  it.each(ROLLUPS.map((r) => [`${r.source} → ${r.via.join(' → ')} → ${r.by} (${r.kind})`, r] as const))('%s', async (_name, rollup) => {
    const [none, partial, all] = PROGRESS_STATES[rollup.kind];
    const primary = billType(rollup.source)!.progress[0] === rollup.kind;
    const source = await bill(rollup.source, 4);
    // The chain of intermediates, each taking the whole of the one before.
    let last = source;
    for (const type of rollup.via) last = await bill(type, 4, last.lineId);
    const expectSource = async (state: string, done: number, status: string) => {
      const detail = await source.detail();
      expect(detail.progress[rollup.kind]).toBe(state);
      expect(detail.lines[0].progress[rollup.kind]).toMatchObject({ state, done });
      if (primary) expect(detail.billStatus).toBe(status);
    };
    await expectSource(none, 0, 'Audit');

    const first = await bill(rollup.by, 1, last.lineId);
    await expectSource(partial, 1, 'Partially');
    const rest = await bill(rollup.by, 3, last.lineId);
    await expectSource(all, 4, 'Complete');

    // Withdrawn, the progress rolls back the same way.
    const byUrl = billApiPath(billType(rollup.by)!);
    await ok(api.post(`${byUrl}/abandonAudit`, { id: rest.id }));
    await expectSource(partial, 1, 'Partially');
    await ok(api.post(`${byUrl}/abandonAudit`, { id: first.id }));
    await expectSource(none, 0, 'Audit');
    await verifyEmpty(api);
  });
});
