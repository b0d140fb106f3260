import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import { billColumns, billTemplateKey } from '../src/bills/excel.ts';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, readXlsx, xlsx, type Caller } from './basic-fixtures.ts';
import { billPayload, createBillRecords, ok, type BillRecords } from './bill-fixtures.ts';

/*
 * Bills as .xlsx over every declared type that imports and exports (PGlite, and PostgreSQL with
 * TEST_DB=postgres): the export of a list query, imported into a copy of the tenant (the same records by
 * code and name), exports again to the same workbook; importing it twice is refused as a whole; new bills
 * grouped by the group column; refusals listed by row with nothing written; the template per type.
 */

let ctx: TestContext;
let source: Caller;
let copy: Caller;
let sourceRecords: BillRecords;
let copyRecords: BillRecords;

beforeAll(async () => {
  ctx = await startTestApp();
  source = await adminCaller(ctx, await seedTenant(ctx.database, 'Excel source'));
  copy = await adminCaller(ctx, await seedTenant(ctx.database, 'Excel copy'));
  sourceRecords = await createBillRecords(source);
  copyRecords = await createBillRecords(copy);
});
afterAll(() => ctx.close());

const EXCEL_TYPES = BILL_TYPES.filter((d) => d.actions.includes('import') && d.actions.includes('export'));

/** The workbook of an export of `query` in `lang`, as rows of plain values (header first). */
async function exported(api: Caller, decl: BillTypeDecl, query: Record<string, unknown>, lang = 'en') {
  const file = await api.download(`${billApiPath(decl)}/export?lang=${lang}`, query);
  expect(file.status).toBe(200);
  expect(String(file.headers['content-type'])).toContain('spreadsheetml');
  return { buffer: file.body, rows: await readXlsx(file.body) };
}

async function imported(api: Caller, decl: BillTypeDecl, file: Buffer): Promise<ImportResult> {
  const res = await api.upload<ImportResult>(`${billApiPath(decl)}/import`, file);
  expect(res.body.status, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

const countOf = async (api: Caller, decl: BillTypeDecl, code: string) => ((await api.get<unknown[]>(`${billApiPath(decl)}?billCode=${code}&pageSize=200`)).body as { pagination?: { total: number } }).pagination?.total;

describe.each(EXCEL_TYPES.map((decl) => [decl.type, decl] as const))('%s as .xlsx', (type, decl) => {
  const prefix = `XL-${type}`;

  it('exports the query one row per line, imports into a copy of the tenant, and the copy exports the same workbook', async () => {
    const one = billPayload(decl, sourceRecords, { billCode: `${prefix}-1`, remark: `first ${type}` });
    const lines = one.lines as Array<Record<string, unknown>>;
    // The second bill repeats its lines but the first (an outsourcing order makes one product: its material again).
    const repeated = lines.length > 1 ? lines.slice(1) : lines;
    const two = billPayload(decl, sourceRecords, { billCode: `${prefix}-2`, lines: [...lines, ...repeated.map((l) => ({ ...l, number: 3, remark: 'again' }))] });
    await ok(source.post(billApiPath(decl), one));
    await ok(source.post(billApiPath(decl), two));
    // A bill the query leaves out.
    await ok(source.post(billApiPath(decl), billPayload(decl, sourceRecords, { billCode: `OTHER-${type}` })));

    const query = { billCode: prefix, billCodeSort: 'asc' };
    const first = await exported(source, decl, query);
    const titles = billColumns(decl, true, undefined).map((c) => c.title.en);
    expect(first.rows[0].every((title) => titles.includes(String(title)))).toBe(true);
    expect(first.rows[0][0]).toBe('Bill code');
    // One row per line: bill 1's lines, then bill 2's, each repeating its header.
    expect(first.rows.slice(1).map((r) => r[0])).toEqual([...lines.map(() => `${prefix}-1`), ...lines.map(() => `${prefix}-2`), ...repeated.map(() => `${prefix}-2`)]);

    const result = await imported(copy, decl, first.buffer);
    const rowCount = lines.length * 2 + repeated.length;
    expect(result).toMatchObject({ total: rowCount, successCount: rowCount, errorCount: 0, errList: [] });
    expect(await countOf(copy, decl, prefix)).toBe(2);
    const again = await exported(copy, decl, query);
    expect(again.rows).toEqual(first.rows);
    // The imported drafts hold the copy's own records.
    const [made] = (await ok(copy.get<Array<{ id: number }>>(`${billApiPath(decl)}?billCode=${prefix}-1`)));
    const detail = await ok(copy.get<Record<string, unknown> & { lines: Array<{ materialId: number }> }>(`${billApiPath(decl)}/${made.id}`));
    expect(detail.lines.every((l) => [copyRecords.material, copyRecords.product, copyRecords.component].includes(l.materialId))).toBe(true);
    expect(detail.remark).toBe(`first ${type}`);

    // The same file again: every bill code exists, so nothing is written and each bill's first row is listed.
    const twice = await imported(copy, decl, first.buffer);
    expect(twice).toMatchObject({ total: rowCount, successCount: 0, errorCount: 2 });
    expect(twice.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [2, 'BillCodeRepeat'],
      [2 + lines.length, 'BillCodeRepeat'],
    ]);
    expect(await countOf(copy, decl, prefix)).toBe(2);
  });

  it('serves its import template, titled in the language asked for, required columns starred', async () => {
    const zh = await ctx.app.inject({ method: 'GET', url: `/api/base/template/${billTemplateKey(decl)}.xlsx?lang=zh` });
    expect(zh.statusCode).toBe(200);
    const [header] = await readXlsx(zh.rawPayload);
    expect(header).toEqual(billColumns(decl, false).map((c) => `${c.required ? '*' : ''}${c.title.zh}`));
    expect(header).toContain('*单据日期');
  });
});

describe('importing bills', () => {
  const decl = billType('PurchaseOrder')!;
  const path = billApiPath(decl);
  const header = ['Bill code', 'Group', 'Bill date', 'Supplier', 'Material', 'Quantity', 'Unit price', 'Line remark'];

  it('groups rows without a code by the group column into new bills numbered on import', async () => {
    const before = (await ok(copy.get<unknown[]>(`${path}/tabs`))) as unknown as Record<string, number>;
    const file = await xlsx(header, [
      ['', 'a', '2026-11-20', 'S1', 'P1', 2, 10, 'a1'],
      ['', 'a', '', '', 'P2', 3, 5, 'a2'],
      ['', 'b', '2026-11-21', 'Supplier one', 'Part', 1, 7, 'b1'],
    ]);
    expect(await imported(copy, decl, file)).toMatchObject({ total: 3, successCount: 3, errorCount: 0 });
    const after = (await ok(copy.get<unknown[]>(`${path}/tabs`))) as unknown as Record<string, number>;
    expect(after.Saved - before.Saved).toBe(2);
    const made = await ok(copy.get<Array<{ id: number; billDate: string; number: number; priceTotal: number }>>(`${path}?start=2026-11-20&end=2026-11-21&billDateSort=asc`));
    expect(made.filter((b) => b.billDate === '2026-11-20').map((b) => [b.number, b.priceTotal])).toContainEqual([5, 35]);
    expect(made.filter((b) => b.billDate === '2026-11-21').map((b) => [b.number, b.priceTotal])).toContainEqual([1, 7]);
  });

  it('refuses the whole file, listing each refused row: unknown records, rows apart, differing headers, a save refusal', async () => {
    const before = (await ok(copy.get<unknown[]>(`${path}/tabs`))) as unknown as Record<string, number>;
    const file = await xlsx(header, [
      ['', 'a', '2026-11-22', 'S1', 'P1', 2, 10, ''],
      ['', 'a', '2026-11-22', 'S1', 'NO-SUCH', 1, 1, ''],
      ['', 'b', '2026-11-22', 'S1', 'P1', 1, 1, ''],
      ['', 'a', '2026-11-22', 'S1', 'P1', 1, 1, ''],
      ['', 'c', '2026-11-22', 'S1', 'P1', 1, 1, ''],
      ['', 'c', '2026-11-23', 'S1', 'P1', 1, 1, ''],
      ['', 'd', '2026-11-22', 'S1', 'P1', 0, 1, ''],
      ['', 'e', '2026-11-22', 'NOBODY', 'P1', 1, 1, ''],
    ]);
    const result = await imported(copy, decl, file);
    expect(result.successCount).toBe(0);
    expect(result.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [3, 'MaterialNotExist'],
      [5, 'BillImportRowsApart'],
      [7, 'BillImportHeaderDiffers'],
      [8, 'NumberMustGreaterThanZero'],
      [9, 'SupplierNotExist'],
    ]);
    expect((await ok(copy.get<unknown[]>(`${path}/tabs`))) as unknown as Record<string, number>).toEqual(before);
  });

  it('refuses a workbook without a required column, and another tenant cannot see what was imported', async () => {
    const res = await copy.upload(`${path}/import`, await xlsx(['Bill code', 'Material', 'Quantity'], [['X', 'P1', 1]]));
    expect(res.body.message).toBe('ImportTemplateError');
    expect((await ok(source.get<Array<{ billCode: string }>>(`${path}?start=2026-11-20&end=2026-11-21`))).length).toBe(0);
  });
});
