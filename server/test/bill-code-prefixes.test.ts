import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billCodePrefixes, sharedBillCodePrefix } from '@p8/contract/bills/code-prefixes';
import { billApiPath } from '@p8/contract/bills/registry';
import type { SystemSettings } from '@p8/contract/tenant-config';
import { sql } from 'drizzle-orm';
import { rows } from '../src/db/connection.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, type BillRecords } from './bill-fixtures.ts';

/*
 * Bill-code prefixes per tenant (system settings → billCodePrefixes): every declared type numbers with the
 * tenant's own prefix once set and with its declaration's otherwise; prefixes stay distinct across types; a
 * prefix change never repeats a number (the sequence belongs to the type and day), also under concurrency.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let records: BillRecords;
const DAY = '2026-11-24';
const SETTING = '/api/admin/system/setting';

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'BillPrefixes');
  api = await adminCaller(ctx, t);
  records = await createBillRecords(api);
});
afterAll(() => ctx.close());

async function settings(): Promise<SystemSettings> {
  const res = await api.get<SystemSettings>(SETTING);
  expect(res.body.status).toBe(0);
  return res.body.data;
}

async function create(type: string): Promise<string> {
  const decl = BILL_TYPES.find((d) => d.type === type)!;
  const res = await api.post<{ billCode: string }>(billApiPath(decl), billPayload(decl, records, { billDate: DAY }));
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data.billCode;
}

it('declares distinct default prefixes', () => {
  expect(sharedBillCodePrefix({})).toBeUndefined();
  expect(Object.keys(billCodePrefixes())).toHaveLength(BILL_TYPES.length);
});

// Types whose lines must come from an audited source (invoices) draw their codes through the same engine
// code; making one needs that source, which bills.test.ts walks them through.
describe.each(BILL_TYPES.map((decl, index) => [decl.type, decl, index] as const).filter(([, decl]) => !decl.sourceRequired))('bill type %s', (type, decl, index) => {
  it("numbers with the declaration's prefix, then with the tenant's own, continuing the day's sequence", async () => {
    const first = await create(type);
    expect(first).toMatch(new RegExp(`^${decl.codePrefix}20261124\\d{4}$`));
    const own = `T${index}X`;
    const saved = await api.put<SystemSettings>(SETTING, { billCodePrefixes: { ...(await settings()).billCodePrefixes, [type]: ` ${own} ` } });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ status: 0 });
    expect(saved.body.data.billCodePrefixes[type]).toBe(own);
    const second = await create(type);
    expect(second).toBe(`${own}20261124${String(Number(first.slice(-4)) + 1).padStart(4, '0')}`);
  });
});

describe('the setting', () => {
  it("stores only prefixes that differ from the declarations' and takes a default back", async () => {
    const [a] = BILL_TYPES;
    const res = await api.put<SystemSettings>(SETTING, { billCodePrefixes: { ...billCodePrefixes(), [a.type]: a.codePrefix } });
    expect(res.body.status).toBe(0);
    expect(res.body.data.billCodePrefixes).toEqual(billCodePrefixes());
    const stored = await ctx.database.withTenant(t.tenantId, (tx) => rows<{ value: unknown }>(tx, sql`select value from system_setting where key = 'billCodePrefixes'`));
    expect(stored).toEqual([{ value: {} }]);
    expect(await create(a.type)).toMatch(new RegExp(`^${a.codePrefix}20261124`));
  });

  it.each([
    ['a prefix another type uses', () => ({ [BILL_TYPES[0].type]: BILL_TYPES[1].codePrefix.toLowerCase() }), 'BillCodePrefixRepeat'],
    ['an undeclared bill type', () => ({ NoSuchBill: 'NSB' }), 'BadRequest'],
    ['an empty prefix', () => ({ [BILL_TYPES[0].type]: '' }), 'CodePrefixFormatError'],
    ['a prefix with a space inside', () => ({ [BILL_TYPES[0].type]: 'A B' }), 'CodePrefixFormatError'],
    ['a prefix of 11 characters', () => ({ [BILL_TYPES[0].type]: 'ABCDEFGHIJK' }), 'CodePrefixFormatError'],
    ['a NUL byte', () => ({ [BILL_TYPES[0].type]: 'A\u0000' }), undefined],
  ])('refuses %s', async (_label, prefixes, key) => {
    const res = await api.put(SETTING, { billCodePrefixes: prefixes() });
    expect(res.httpStatus).toBeGreaterThanOrEqual(400);
    expect(res.httpStatus).toBeLessThan(500);
    if (key) expect(res.body.message).toBe(key);
  });

  it('gives 20 concurrent creates after a prefix change 20 distinct codes with the new prefix', async () => {
    const decl = BILL_TYPES.find((d) => d.type === 'SaleQuotation')!;
    expect((await api.put(SETTING, { billCodePrefixes: { SaleQuotation: 'BJ-' } })).body.status).toBe(0);
    const codes = await Promise.all(Array.from({ length: 20 }, () => create(decl.type)));
    expect(new Set(codes).size).toBe(20);
    expect(codes.every((c) => c.startsWith('BJ-20261124'))).toBe(true);
    const numbers = codes.map((c) => Number(c.slice(-4))).sort((x, y) => x - y);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
  });
});
