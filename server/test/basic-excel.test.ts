import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import type { Material, MaterialDetail } from '@p8/contract/basic';
import { TEMPLATE_KEYS } from '@p8/contract/tenant-config';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, staffCaller, xlsx, type Caller } from './basic-fixtures.ts';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let pcs: number;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Xls');
  api = await adminCaller(ctx, t);
  pcs = await api.create('unit', { name: '个' });
  await api.create('unit', { name: '箱' });
});
afterAll(() => ctx.close());

const url = (record: string) => `/api/admin/basic/${record}`;

describe(`import templates (${TEST_DB})`, () => {
  it('serves a real .xlsx template for every key of the system config, required columns marked', async () => {
    for (const key of [...TEMPLATE_KEYS, 'unit']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/base/template/${key}.xlsx` });
      expect(res.statusCode, key).toBe(200);
      const [header] = await readXlsx(res.rawPayload);
      expect(header.length, key).toBeGreaterThan(1);
      expect(header.some((h) => String(h).startsWith('*')), key).toBe(true);
    }
    const material = await ctx.app.inject({ method: 'GET', url: '/api/base/template/material.xlsx?lang=en' });
    const [header] = await readXlsx(material.rawPayload);
    // The code is optional: an empty one is generated.
    expect(header.slice(0, 3)).toEqual(['Code', '*Name', 'Specification']);
  });
});

describe(`imports (${TEST_DB})`, () => {
  it('imports materials: good rows saved, every bad row listed with its row number and catalogue key', async () => {
    await api.create('brand', { name: 'ACME' });
    const cat = await api.create('category', { name: '五金' });
    await api.create('category', { name: '螺丝', parentId: cat });
    await api.create('material', { code: 'EXIST-1', name: 'Existing', units: [{ unitId: pcs, isMain: true }] });
    const file = await xlsx(
      ['*物料编码', '*物料名称', '规格', '分类(名称或路径 A/B)', '品牌', '*主单位', '条码', '部件类型(标准件/定制件/虚拟件)', '业务属性(销售,采购,生产,委外,耗材,受托)', '批次管理(是/否)', '序列号管理(是/否)', '长(cm)', '采购价'],
      [
        ['IMP-1', '螺丝', 'M3', '五金/螺丝', 'ACME', '个', '6901', '标准件', '销售,采购', '是', '否', 1.5, 0.2], // row 2: good
        ['IMP-2', '螺母', '', '螺丝', '', '箱', '', 'Customized', 'sale', '', '', '', ''], // row 3: good (category by unique name, en labels)
        ['EXIST-1', 'Dup code', '', '', '', '个'], // row 4: CodeRepeat
        ['IMP-4', '螺丝', 'M3', '', '', '个'], // row 5: SpecRepeat (same as row 2)
        ['IMP-5', 'No unit', '', '', '', '吨'], // row 6: UnitNotExist
        ['IMP-6', 'Both', '', '', '', '个', '', '', '', '是', '是'], // row 7: BatchAndSerialNumberConflict
        ['IMP-7', 'Consumable', '', '', '', '个', '', '', '耗材', '是'], // row 8: ConsumablesProhibitBatchSerial
        ['IMP-8', 'Bad brand', '', '', 'Nope', '个'], // row 9: BrandNotExist
        ['IMP-9', 'Bad category', '', '不存在', '', '个'], // row 10: CategoryNotExist
        ['', 'No code', '', '', '', '个'], // row 11: good, the code is generated
        ['IMP-10', 'Barcode dup', '', '', '', '个', '6901'], // row 12: BarCodeRepeat
        ['IMP-11', 'Bad number', '', '', '', '个', '', '', '', '', '', 'abc'], // row 13: ImportCellNotNumber
      ],
    );
    const res = await api.upload<ImportResult>(`${url('material')}/import`, file, 'materials.xlsx');
    expect(res.body.status).toBe(0);
    const result = res.body.data;
    expect({ total: result.total, successCount: result.successCount, errorCount: result.errorCount }).toEqual({ total: 12, successCount: 3, errorCount: 9 });
    // A refusal that concerns one cell names its column (template title) and text.
    expect(result.errList.map((e) => [e.rowNum, e.errorMsg, e.column?.en, e.value])).toEqual([
      [4, 'CodeRepeat', 'Code', 'EXIST-1'],
      [5, 'SpecRepeat', 'Specification', 'M3'],
      [6, 'UnitNotExist', 'Main unit', '吨'],
      [7, 'BatchAndSerialNumberConflict', undefined, undefined],
      [8, 'ConsumablesProhibitBatchSerial', undefined, undefined],
      [9, 'BrandNotExist', 'Brand', 'Nope'],
      [10, 'CategoryNotExist', 'Category (name or path A/B)', '不存在'],
      [12, 'BarCodeRepeat', 'Barcode', '6901'],
      [13, 'ImportCellNotNumber', 'Length (cm)', 'abc'],
    ]);
    expect(result.errList[8].column).toEqual({ zh: '长(cm)', en: 'Length (cm)' });
    expect(result.errList[0].data).toMatchObject({ code: 'EXIST-1' });

    const saved = (await api.get<Material[]>(`${url('material')}?code=IMP-&codeSort=asc`)).body.data;
    expect(saved.map((m) => m.code)).toEqual(['IMP-1', 'IMP-2']);
    const first = (await api.get<MaterialDetail>(`${url('material')}/${saved[0].id}`)).body.data;
    expect(first).toMatchObject({ categoryName: '螺丝', brandName: 'ACME', mainUnitName: '个', tags: ['sale', 'purchase'], batchNumber: true, length: 1.5, purchasePrice: 0.2 });
    expect(first.units[0]).toMatchObject({ barcode: '6901', isMain: true });
    expect(saved[1]).toMatchObject({ partKind: 'customized', mainUnitName: '箱', tags: ['sale'] });
    const generated = (await api.get<Material[]>(`${url('material')}?name=No%20code`)).body.data;
    expect(generated.map((m) => m.code)).toEqual([expect.stringMatching(/^WL\d{6}$/)]);
  });

  it('redoes a material chunk row by row when the database refuses it (a concurrent duplicate), keeping the good rows', async () => {
    // Another user saving code RACE-2 between the import's checks and its insert looks like this to the import.
    await ctx.database.withSystem(async (tx) => {
      await tx.execute(sql`create function race_guard() returns trigger language plpgsql as $$
        begin
          if new.code = 'RACE-2' then raise exception 'duplicate' using errcode = 'unique_violation', constraint = 'material_code_uq'; end if;
          return new;
        end $$`);
      await tx.execute(sql`create trigger race_guard before insert on material for each row execute function race_guard()`);
    });
    try {
      const file = await xlsx(['*物料编码', '*物料名称', '*主单位'], [['RACE-1', 'Race one', '个'], ['RACE-2', 'Race two', '个'], ['RACE-3', 'Race three', '个']]);
      const res = await api.upload<ImportResult>(`${url('material')}/import`, file);
      expect(res.body.data).toMatchObject({ total: 3, successCount: 2, errorCount: 1, errList: [{ rowNum: 3, errorMsg: 'CodeRepeat' }] });
      const saved = (await api.get<Material[]>(`${url('material')}?code=RACE-&codeSort=asc`)).body.data.map((m) => [m.code, m.mainUnitName]);
      expect(saved).toEqual([
        ['RACE-1', '个'],
        ['RACE-3', '个'],
      ]);
    } finally {
      await ctx.database.withSystem(async (tx) => {
        await tx.execute(sql`drop trigger race_guard on material`);
        await tx.execute(sql`drop function race_guard()`);
      });
    }
  });

  it('refuses a file that is not .xlsx, and a sheet missing a required column', async () => {
    expect((await api.upload(`${url('brand')}/import`, Buffer.from('name\nx\n'), 'brands.csv')).body.message).toBe('ImportFileTypeError');
    const noName = await xlsx(['备注'], [['x']]);
    expect((await api.upload(`${url('brand')}/import`, noName)).body.message).toBe('ImportTemplateError');
  });

  it('imports the simple records and categories top-down', async () => {
    const brands = await api.upload<ImportResult>(`${url('brand')}/import`, await xlsx(['*名称', '排序'], [['B-1', 1], ['B-1', 2], ['B-2', 'x']]));
    expect(brands.body.data.errList.map((e) => [e.rowNum, e.errorMsg, e.column?.zh, e.value])).toEqual([
      [3, 'NameRepeat', '名称', 'B-1'],
      [4, 'ImportCellNotNumber', '排序', 'x'],
    ]);
    const fees = await api.upload<ImportResult>(
      `${url('fee')}/import`,
      await xlsx(['*Name', '*Kind (Income/Expense)'], [['Freight', '支出'], ['Rebate', 'Income'], ['Gift', 'Other'], ['Toll', '']]),
    );
    expect(fees.body.data).toMatchObject({
      successCount: 2,
      errList: [
        { rowNum: 4, errorMsg: 'ImportCellNotOption', column: { en: 'Kind (Income/Expense)' }, value: 'Other' },
        // A schema refusal names its field's column; the cell is empty, so no text.
        { rowNum: 5, errorMsg: 'PleaseSelectFeeKind', column: { en: 'Kind (Income/Expense)' } },
      ],
    });
    expect(fees.body.data.errList[1]).not.toHaveProperty('value');
    const attrs = await api.upload<ImportResult>(`${url('attribute')}/import`, await xlsx(['名称', '属性值(逗号分隔)'], [['尺码', 'S,M，L']]));
    expect(attrs.body.data.successCount).toBe(1);
    const sizes = (await api.get<Array<{ values: string[] }>>(`${url('attribute')}?name=尺码`)).body.data[0];
    expect(sizes.values).toEqual(['S', 'M', 'L']);
    expect((await api.upload<ImportResult>(`${url('paytype')}/import`, await xlsx(['名称'], [['现金'], ['银行转账']]))).body.data.successCount).toBe(2);

    const cats = await api.upload<ImportResult>(
      `${url('category')}/import`,
      await xlsx(['分类名称', '上级分类(名称或路径 A/B)'], [['电子', ''], ['元件', '电子'], ['电阻', '电子/元件'], ['贴片', '电子/元件/电阻'], ['孤儿', '没有']]),
    );
    expect(cats.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [5, 'CategoryMaxThreeLevels'],
      [6, 'CategoryNotExist'],
    ]);
  });

  it('imports warehouses, locations, suppliers and customers', async () => {
    const stores = await api.upload<ImportResult>(`${url('stock')}/import`, await xlsx(['仓库编码', '仓库名称', '负责人(账号或姓名)'], [['WI-1', '原料仓', t.name], ['WI-2', '成品仓', 'nobody'], ['WI-1', '重复', '']]));
    expect(stores.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [3, 'AdminNotExist'],
      [4, 'CodeRepeat'],
    ]);
    const locs = await api.upload<ImportResult>(`${url('location')}/import`, await xlsx(['仓库(编码或名称)', '库位名称'], [['WI-1', 'A1'], ['原料仓', 'A2'], ['WI-1', 'A1'], ['WX', 'A3']]));
    expect(locs.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [4, 'NameRepeat'],
      [5, 'WarehouseNotExist'],
    ]);
    const suppliers = await api.upload<ImportResult>(
      `${url('supplier')}/import`,
      await xlsx(['供应商编码', '供应商名称', '联系人', '联系电话'], [['SI-1', '钢厂', '张三', '13800138000'], ['SI-2', '铝厂', '', 'bad-phone']]),
    );
    expect(suppliers.body.data.errList).toEqual([expect.objectContaining({ rowNum: 3, errorMsg: 'PhoneFormatError' })]);
    const supplier = (await api.get<Array<{ id: number; openingPayable: number }>>(`${url('supplier')}?code=SI-1`)).body.data[0];
    // The opening payable is finance's (opening-balance bills): not imported.
    expect(supplier.openingPayable).toBe(0);
    const detail = await api.get<{ contacts: Array<{ name: string }> }>(`${url('supplier')}/${supplier.id}`);
    expect(detail.body.data.contacts.map((c) => c.name)).toEqual(['张三']);
    const customers = await api.upload<ImportResult>(`${url('customer')}/import`, await xlsx(['客户编码', '客户名称'], [['CI-1', '商场']]));
    expect(customers.body.data.successCount).toBe(1);
  });

  it('imports BOM lines, creating a BOM on its first line, and conversion units (template item)', async () => {
    for (const code of ['BP', 'BC1', 'BC2']) await api.create('material', { code, name: `Bom ${code}`, units: [{ unitId: pcs, isMain: true }] });
    const boms = await api.upload<ImportResult>(
      `${url('bom')}/import`,
      await xlsx(
        ['父件物料编码', 'BOM版本', '父件数量', '子件物料编码', '子件用量', '损耗率(%)', '子项类型(标准件/耗材)'],
        [
          ['BP', 'V1', 1, 'BC1', 2, 5],
          ['BP', 'V1', '', 'BC2', 3, '', '耗材'],
          ['BP', 'V1', '', 'BC2', 1, ''], // same component twice
          ['BP', 'V1', '', 'BP', 1, ''], // itself
          ['BP', 'V1', '', 'BC1', 0, ''], // quantity 0
          ['NOPE', 'V1', '', 'BC1', 1, ''],
        ],
      ),
    );
    expect(boms.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [4, 'ItemMaterialRepeat'],
      [5, 'BomCannotContainSelf'],
      [6, 'NumberMustGreaterThanZero'],
      [7, 'MaterialNotExist'],
    ]);
    const list = (await api.get<Array<{ id: number; lineCount: number; isDefault: boolean }>>(`${url('bom')}?materialCode=BP`)).body.data;
    expect(list).toEqual([expect.objectContaining({ lineCount: 2, isDefault: true })]);
    // A consumable line (子项类型 耗材) keeps its type.
    const imported = (await api.get<{ lines: Array<{ itemType: string }> }>(`${url('bom')}/${list[0].id}`)).body.data;
    expect(imported.lines.map((l) => l.itemType)).toEqual(['Standard', 'Consumable']);

    const items = await api.upload<ImportResult>(
      `${url('material')}/unit/import`,
      await xlsx(['物料编码', '单位', '换算率(相对主单位)', '条码'], [['BC1', '箱', 24, 'BC1-BOX'], ['BC1', '箱', 12, ''], ['BC1', '吨', 1, ''], ['ZZZ', '箱', 1, '']]),
    );
    expect(items.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([
      [3, 'UnitRepeat'],
      [4, 'UnitNotExist'],
      [5, 'MaterialNotExist'],
    ]);
    const bc1 = (await api.get<Material[]>(`${url('material')}?code=BC1`)).body.data[0];
    const units = (await api.get<MaterialDetail>(`${url('material')}/${bc1.id}`)).body.data.units;
    expect(units.map((u) => [u.unitName, u.ratio, u.barcode])).toEqual([
      ['个', 1, ''],
      ['箱', 24, 'BC1-BOX'],
    ]);
  });

  it('imports defaults as one transaction would: they count for later rows (first BOM, cycles) and replace the existing ones at the end', async () => {
    const ids: Record<string, number> = {};
    for (const code of ['DP', 'DC1', 'DC2', 'DQ']) ids[code] = await api.create('material', { code, name: `Default ${code}`, units: [{ unitId: pcs, isMain: true }] });
    await api.create('bom', { materialId: ids.DP, version: 'OLD', lines: [{ materialId: ids.DC1, quantity: 1 }] });
    const res = await api.upload<ImportResult>(
      `${url('bom')}/import`,
      await xlsx(
        ['父件物料编码', 'BOM版本', '默认(是/否)', '子件物料编码', '子件用量'],
        [
          ['DP', 'V2', '是', 'DC1', 1], // replaces OLD as DP's default
          ['DC1', 'V1', '', 'DQ', 1], // DC1's first BOM: its default
          ['DQ', 'V1', '', 'DP', 1], // DQ → DP → (V2) DC1 → (V1) DQ: a cycle through the defaults just imported
          ['DC2', 'V1', '否', 'DQ', 1],
          ['DC2', 'V2', '', 'DQ', 1], // no default yet: this one
          ['DC1', 'V2', '', 'DQ', 1], // V1 is the default already
        ],
      ),
    );
    expect(res.body.data.errList.map((e) => [e.rowNum, e.errorMsg])).toEqual([[4, 'BomCycleDetected']]);
    const defaults = async (code: string) =>
      Object.fromEntries((await api.get<Array<{ version: string; isDefault: boolean }>>(`${url('bom')}?materialCode=${code}`)).body.data.map((b) => [b.version, b.isDefault]));
    expect(await defaults('DP')).toEqual({ OLD: false, V2: true });
    expect(await defaults('DC1')).toEqual({ V1: true, V2: false });
    expect(await defaults('DC2')).toEqual({ V1: false, V2: true });
    expect(await defaults('DQ')).toEqual({});
  });

  it('needs the import button code', async () => {
    const staff = await staffCaller(ctx, t, ['basic_brand_add']);
    const res = await staff.upload(`${url('brand')}/import`, await xlsx(['名称'], [['Sneaky']]));
    expect(res.body.status).toBe(40300);
    expect((await api.get<unknown[]>(`${url('brand')}?name=Sneaky`)).body.data).toEqual([]);
  });
});

describe(`exports (${TEST_DB})`, () => {
  it('exports the current query as a valid .xlsx, titled in the language asked for', async () => {
    for (const code of ['EXP-1', 'EXP-2', 'EXP-3']) await api.create('material', { code, name: `Export ${code}`, tags: ['sale'], units: [{ unitId: pcs, isMain: true }] });
    const res = await api.download(`${url('material')}/export?lang=en`, { code: 'EXP-', codeSort: 'desc', current: 1, pageSize: 1 });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    const rows = await readXlsx(res.body);
    expect(rows[0].slice(0, 2)).toEqual(['Code', 'Name']);
    // Paging is dropped: the whole query is exported.
    expect(rows.slice(1).map((r) => r[0])).toEqual(['EXP-3', 'EXP-2', 'EXP-1']);
    const tags = rows[0].indexOf('Business tags');
    expect(rows[1][tags]).toBe('Sale');

    const zh = await api.download(`${url('material')}/export?code=EXP-1`);
    const zhRows = await readXlsx(zh.body);
    expect(zhRows[0][0]).toBe('物料编码');
    expect(zhRows[1][zhRows[0].indexOf('业务属性')]).toBe('销售');
  });

  it('exports every record type, and re-imports what it exported', async () => {
    for (const record of ['brand', 'category', 'supplier', 'customer', 'stock', 'location', 'attribute', 'fee', 'paytype', 'bom', 'unit']) {
      const res = await api.download(`${url(record)}/export`);
      expect(res.status, record).toBe(200);
      const rows = await readXlsx(res.body);
      expect(rows.length, record).toBeGreaterThan(1);
    }
    // An exported brand sheet is an import file: the names already exist.
    const exported = await api.download(`${url('brand')}/export`, { name: 'ACME' });
    const again = await api.upload<ImportResult>(`${url('brand')}/import`, exported.body);
    expect(again.body.data.errList.map((e) => e.errorMsg)).toEqual(['NameRepeat']);
  });

  it('needs the export button code', async () => {
    const staff = await staffCaller(ctx, t, []);
    const res = await staff.download(`${url('material')}/export`);
    expect(res.status).toBe(403);
  });
});
