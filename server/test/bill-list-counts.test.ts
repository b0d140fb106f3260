import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, type BillRecords } from './bill-fixtures.ts';

/*
 * A bill list filtered by nothing but a status tab takes its total and statistics from the sharded
 * `bill_count` rows (migration 0009) instead of counting and summing the bills. Every declared type:
 * after creates, an edit that changes the totals, a submit and a delete, the counters' answers equal the
 * exact ones (a date bound from 2000 matches every bill but forces the counting path).
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let records: BillRecords;
const EVERY_DAY = 'start=2000-01-01';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'BillCounts');
  api = await adminCaller(ctx, t);
  records = await createBillRecords(api);
});
afterAll(() => ctx.close());

async function data<T>(url: string): Promise<T> {
  const res = await api.get<T>(url);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}

async function total(url: string): Promise<number> {
  const res = await api.get<unknown[]>(url);
  expect(res.body, `${url}: ${JSON.stringify(res.body)}`).toMatchObject({ status: 0 });
  return (res.body as unknown as { pagination: { total: number } }).pagination.total;
}

// Types whose lines must come from an audited source (invoices) keep their counts through the same list
// code; making one needs that source, which bills.test.ts walks them through.
describe.each(BILL_TYPES.filter((decl) => !decl.sourceRequired).map((decl) => [decl.type, decl] as const))('bill type %s', (_type, decl) => {
  it('answers unfiltered totals and statistics from the counters, equal to counting', async () => {
    const url = billApiPath(decl);
    const ids: number[] = [];
    for (const number of [2, 3, 5]) {
      const payload = billPayload(decl, records);
      const lines = (payload.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number, unitPrice: 1.5 }));
      const res = await api.post<{ id: number }>(url, { ...payload, lines });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
      ids.push(res.body.data.id);
    }
    // An edit that changes the totals, a submit (status moves), a delete.
    const edited = billPayload(decl, records);
    expect((await api.put(url, { ...edited, id: ids[0], lines: (edited.lines as Array<Record<string, unknown>>).map((l) => ({ ...l, number: 7, unitPrice: 2.25 })) })).body.status).toBe(0);
    expect((await api.post(`${url}/submit`, { id: ids[1] })).body.status).toBe(0);
    expect((await api.del(url, { ids: [ids[2]] })).body.status).toBe(0);

    const tabs = await data<Record<string, number>>(`${url}/tabs`);
    expect(tabs).toMatchObject({ all: 2, Saved: 1, Submitted: 1 });
    for (const tab of ['', 'billStatus=Saved', 'billStatus=Submitted', 'billStatus=Audit']) {
      const query = tab ? `${tab}&` : '';
      expect(await total(`${url}?${query}current=1&pageSize=10`)).toBe(await total(`${url}?${query}${EVERY_DAY}&current=1&pageSize=10`));
      const counted = await data<Record<string, number>>(`${url}/statistics?${tab}`);
      expect(counted).toEqual(await data<Record<string, number>>(`${url}/statistics?${query}${EVERY_DAY}`));
    }
    expect(await total(`${url}?current=1&pageSize=10`)).toBe(2);

    // The tabs count under the list's search (every filter but the status): a bill date after every bill
    // counts none, the open range counts the same as the counters, and a status filter does not narrow them.
    expect(await data<Record<string, number>>(`${url}/tabs?${EVERY_DAY}`)).toEqual(tabs);
    expect(await data<Record<string, number>>(`${url}/tabs?${EVERY_DAY}&billStatus=Saved`)).toEqual(tabs);
    const none = await data<Record<string, number>>(`${url}/tabs?start=2999-01-01`);
    expect(Object.values(none).every((n) => n === 0), JSON.stringify(none)).toBe(true);
    const [saved] = (await api.get<Array<{ billCode: string }>>(`${url}?billStatus=Saved&current=1&pageSize=10`)).body.data;
    expect(await data<Record<string, number>>(`${url}/tabs?billCode=${encodeURIComponent(saved.billCode)}`)).toMatchObject({ all: 1, Saved: 1, Submitted: 0 });
  });
});
