import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath, billMenuName, headerFields, type BillTypeDecl } from '@p8/contract/bills/registry';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, caller, countTenantQueries, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok, type BillRecords } from './bill-fixtures.ts';
import { staffWith } from './system-fixtures.ts';

/*
 * What a bill list counts or sums — a filtered page's total, its statistics, the status tabs (a clerk's too) — is
 * remembered by the version of the tenant's bills of that type (`bill_version`, moved by every transaction that
 * writes such bills as it commits). Every declared type: asked twice, the second answer runs fewer statements and
 * says the same; a save, an edit, a submit and a delete are in the next answer; a caller limited to their own
 * bills never gets the answer remembered for one who sees them all (the data scope is part of what is remembered).
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let records: BillRecords;
/** A date bound that matches every bill but keeps the list off the counters: it is counted (and remembered). */
const EVERY_DAY = 'start=2000-01-01';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'BillListCache');
  api = await adminCaller(ctx, t);
  records = await createBillRecords(api);
});
afterAll(() => ctx.close());

interface Answers {
  total: number;
  statistics: Record<string, number>;
  tabs: Record<string, number>;
}

/** The counted page's total, its statistics and its tabs as `who` sees them, and the statements they took. */
async function answers(who: Caller, decl: BillTypeDecl): Promise<Answers & { statements: number }> {
  const url = billApiPath(decl);
  let found: Answers | undefined;
  const statements = await countTenantQueries(ctx, async () => {
    const page = await who.get<unknown[]>(`${url}?${EVERY_DAY}&current=1&pageSize=10`);
    expect(page.body, JSON.stringify(page.body)).toMatchObject({ status: 0 });
    found = {
      total: (page.body as unknown as { pagination: { total: number } }).pagination.total,
      statistics: await ok(who.get<Record<string, number>>(`${url}/statistics?${EVERY_DAY}`)),
      tabs: await ok(who.get<Record<string, number>>(`${url}/tabs?${EVERY_DAY}`)),
    };
  });
  return { ...found!, statements };
}

/** The same three as the type's counters (`bill_count`) give them: the list unfiltered, which is not remembered. */
async function fromCounters(decl: BillTypeDecl): Promise<Answers> {
  const url = billApiPath(decl);
  const page = await api.get<unknown[]>(`${url}?current=1&pageSize=10`);
  return {
    total: (page.body as unknown as { pagination: { total: number } }).pagination.total,
    statistics: await ok(api.get<Record<string, number>>(`${url}/statistics`)),
    tabs: await ok(api.get<Record<string, number>>(`${url}/tabs`)),
  };
}

/** The administrator's counted answers, checked against the counters: a remembered answer that missed a write would differ. */
async function exact(decl: BillTypeDecl): Promise<Answers & { statements: number }> {
  const counted = await answers(api, decl);
  const { statements: _statements, ...said } = counted;
  expect(said).toEqual(await fromCounters(decl));
  return counted;
}

describe.each(BILL_TYPES.filter((decl) => !decl.sourceRequired).map((decl) => [decl.type, decl] as const))('bill type %s', (_type, decl) => {
  it('remembers counts, sums and tabs until the next write of the type, per data scope', async () => {
    const url = billApiPath(decl);
    const save = async (number: number) => {
      const payload = billPayload(decl, records);
      const lines = (payload.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number, unitPrice: 1.5 }));
      return (await ok(api.post<{ id: number }>(url, { ...payload, lines }))).id;
    };
    const first = await save(2);
    const second = await save(3);

    const counted = await exact(decl);
    expect(counted.total).toBe(2);
    expect(counted.tabs).toMatchObject({ all: 2, Saved: 2 });
    const again = await answers(api, decl);
    // The count, the sums and the tabs are not run again (3 statements fewer), and say the same.
    expect(again.statements).toBeLessThanOrEqual(counted.statements - 3);
    expect({ ...again, statements: 0 }).toEqual({ ...counted, statements: 0 });

    // Every write of the type is in the next answer.
    const third = await save(5);
    expect(await exact(decl)).toMatchObject({ total: 3, tabs: { all: 3, Saved: 3 } });
    const edited = billPayload(decl, records);
    await ok(api.put(url, { ...edited, id: first, lines: (edited.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number: 7, unitPrice: 2.25 })) }));
    await exact(decl);
    await ok(api.post(`${url}/submit`, { id: second }));
    expect((await exact(decl)).tabs).toMatchObject({ all: 3, Saved: 2, Submitted: 1 });
    await ok(api.del(url, { ids: [third] }));
    expect(await exact(decl)).toMatchObject({ total: 2, tabs: { all: 2, Saved: 1, Submitted: 1 } });

    // A clerk limited to their own bills (they made none) right after the administrator's remembered answers.
    const clerk = await staffWith(ctx, t, { codes: [billMenuName(decl)], dataScope: 'Self' });
    const own = await answers(caller(ctx, clerk.token, clerk.adminId), decl);
    expect(own.total).toBe(0);
    expect(own.tabs.all).toBe(0);
    expect(Object.values(own.statistics).every((v) => v === 0), JSON.stringify(own.statistics)).toBe(true);
    // And the administrator's are still theirs.
    expect((await answers(api, decl)).total).toBe(2);
  });

  it('pages through every sort one row at a time, again from the positions it remembered, as one long page has them', async () => {
    const url = billApiPath(decl);
    for (const number of [4, 1, 4]) {
      const payload = billPayload(decl, records);
      await ok(api.post(url, { ...payload, lines: (payload.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number, unitPrice: 1.5 })) }));
    }
    const ids = async (query: string) => (await ok(api.get<Array<{ id: number }>>(`${url}?${query}`))).map((r) => r.id);
    for (const field of headerFields(decl).filter((f) => f.sortable)) {
      for (const direction of ['asc', 'desc']) {
        const sort = `${field.key}Sort=${direction}`;
        const whole = await ids(`${sort}&current=1&pageSize=50`);
        expect(whole.length).toBeGreaterThanOrEqual(3);
        // Twice: the second pass seeks from the rows the first one served (same version of the bills).
        for (let pass = 0; pass < 2; pass++) {
          const paged: number[] = [];
          for (let current = 1; current <= whole.length; current++) paged.push(...(await ids(`${sort}&current=${current}&pageSize=1`)));
          expect(paged, `${sort}, pass ${pass + 1}`).toEqual(whole);
        }
      }
    }
  });
});
