import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import type { Material, MaterialDetail } from '@p8/contract/basic';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';

/* Legacy .xls files through the real import routes: the importers see the same rows as from .xlsx. */

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'xls', name));
const url = (record: string) => `/api/admin/basic/${record}`;

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'XlsImp');
  api = await adminCaller(ctx, t);
});
afterAll(() => ctx.close());

describe(`importing .xls files (${TEST_DB})`, () => {
  it('imports materials from an Excel 97-2003 file of the template: good rows saved, bad rows listed by row number', async () => {
    const pcs = await api.create('unit', { name: '个' });
    await api.create('unit', { name: '箱' });
    await api.create('brand', { name: 'ACME' });
    const fasteners = await api.create('category', { name: '紧固件' });
    await api.create('category', { name: '螺栓', parentId: fasteners });
    expect(pcs).toBeGreaterThan(0);

    const res = await api.upload<ImportResult>(`${url('material')}/import`, fixture('materials.xls'), '物料导入.xls');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
    const result = res.body.data;
    expect({ total: result.total, successCount: result.successCount, errorCount: result.errorCount }).toEqual({ total: 6, successCount: 2, errorCount: 4 });
    expect(result.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [4, 'UnitNotExist'],
      [5, 'CodeRepeat'],
      [6, expect.any(String)], // only a remark: which required field is named first is the importer's business
      [7, 'BatchAndSerialNumberConflict'],
    ]);

    const saved = (await api.get<Material[]>(`${url('material')}?code=XLS-&codeSort=asc`)).body.data;
    expect(saved.map((m) => m.code)).toEqual(['XLS-1', 'XLS-2']);
    const first = (await api.get<MaterialDetail>(`${url('material')}/${saved[0].id}`)).body.data;
    expect(first).toMatchObject({
      name: '六角螺栓',
      specification: 'M8×30',
      categoryName: '螺栓',
      brandName: 'ACME',
      mainUnitName: '个',
      partKind: 'standard',
      tags: ['sale', 'purchase'],
      length: 12.5,
      weight: 0.02,
      batchNumber: true,
      serialNumber: false,
      purchasePrice: 0.35,
      remark: '来自 xls',
    });
    expect(first.units[0]).toMatchObject({ barcode: '6901234567892', isMain: true });
    expect(saved[1]).toMatchObject({ name: '平垫圈', partKind: 'customized', mainUnitName: '箱', tags: ['purchase'] });
  });

  it('answers a catalogued 400 for .xls files it cannot read, and reads none of them as data', async () => {
    const refused = async (name: string, filename = name) => (await api.upload(`${url('brand')}/import`, fixture(name), filename)).body;
    expect(await refused('truncated.xls')).toMatchObject({ status: 40001, message: 'ImportXlsDamaged' });
    expect(await refused('encrypted.xls')).toMatchObject({ status: 40001, message: 'ImportFileEncrypted' });
    expect(await refused('biff5-book.xls')).toMatchObject({ status: 40001, message: 'ImportXlsUnsupportedVersion' });
    expect(await refused('not-a-workbook.xls')).toMatchObject({ status: 40001, message: 'ImportFileTypeError', additional: 'xls' });
    expect(await refused('cells.xls', 'renamed.xlsx')).toMatchObject({ status: 40001, message: 'ImportFileTypeError', additional: 'xlsx' });
    // cells.xls has no 名称 column: read fine, then refused as the wrong template.
    expect(await refused('cells.xls')).toMatchObject({ status: 40001, message: 'ImportTemplateError' });
  });
});
