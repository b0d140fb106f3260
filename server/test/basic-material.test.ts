import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material, MaterialDetail } from '@p8/contract/basic';
import { and, eq } from 'drizzle-orm';
import { stockBalance } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, putStock, setTenantConfig, type Caller } from './basic-fixtures.ts';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let pcs: number;
let box: number;
let kg: number;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Mat');
  api = await adminCaller(ctx, t);
  pcs = await api.create('unit', { name: 'pcs' });
  box = await api.create('unit', { name: 'box' });
  kg = await api.create('unit', { name: 'kg' });
});
afterAll(() => ctx.close());

const url = '/api/admin/basic/material';
let n = 0;
/** A valid material body; override what a test is about. */
function body(overrides: Record<string, unknown> = {}) {
  n += 1;
  return { code: `M${n}`, name: `Material ${n}`, units: [{ unitId: pcs, isMain: true }], ...overrides };
}

describe(`material identity (${TEST_DB})`, () => {
  it('refuses a repeated code (CodeRepeat)', async () => {
    await api.create('material', body({ code: 'DUP-CODE' }));
    expect((await api.post(url, body({ code: 'DUP-CODE' }))).body).toMatchObject({ status: 40001, message: 'CodeRepeat', additional: 'DUP-CODE' });
  });

  it('refuses a repeated name + specification (SpecRepeat), and a repeated name without one (NameRepeat)', async () => {
    await api.create('material', body({ name: 'Bolt', specification: 'M8x20' }));
    await api.create('material', body({ name: 'Bolt', specification: 'M8x30' }));
    expect((await api.post(url, body({ name: 'Bolt', specification: 'M8x20' }))).body.message).toBe('SpecRepeat');
    await api.create('material', body({ name: 'Washer' }));
    expect((await api.post(url, body({ name: 'Washer' }))).body.message).toBe('NameRepeat');
    expect((await api.post(url, body({ name: 'Washer', specification: 'M8' }))).body.status).toBe(0);
  });

  it('checks uniqueness on update too, excluding the material itself', async () => {
    const id = await api.create('material', body({ code: 'UPD-1', name: 'Nut', specification: 'M6' }));
    await api.create('material', body({ code: 'UPD-2', name: 'Nut', specification: 'M8' }));
    expect((await api.put(url, { id, code: 'UPD-1', name: 'Nut', specification: 'M6' })).body.status).toBe(0);
    expect((await api.put(url, { id, code: 'UPD-2' })).body.message).toBe('CodeRepeat');
    expect((await api.put(url, { id, specification: 'M8' })).body.message).toBe('SpecRepeat');
  });

  it('needs a name and a unit (a code left empty is generated: code-generator.test.ts)', async () => {
    expect((await api.post(url, { code: 'x', units: [{ unitId: pcs, isMain: true }] })).body.message).toBe('PleaseInputName');
    expect((await api.post(url, { code: 'x', name: 'x', units: [] })).body.message).toBe('PleaseSelectUnit');
    expect((await api.post(url, { code: 'x', name: 'x', units: [{ unitId: 999999, isMain: true }] })).body.message).toBe('UnitNotExist');
  });
});

describe(`material switches and attributes (${TEST_DB})`, () => {
  it('never enables batch and serial numbers together', async () => {
    expect((await api.post(url, body({ batchNumber: true, serialNumber: true }))).body.message).toBe('BatchAndSerialNumberConflict');
    const id = await api.create('material', body({ batchNumber: true }));
    expect((await api.put(url, { id, serialNumber: true })).body.message).toBe('BatchAndSerialNumberConflict');
    expect((await api.put(url, { id, batchNumber: false, serialNumber: true })).body.status).toBe(0);
  });

  it('lets consumables use neither batch nor serial numbers', async () => {
    expect((await api.post(url, body({ tags: ['consumables'], batchNumber: true }))).body.message).toBe('ConsumablesProhibitBatchSerial');
    expect((await api.post(url, body({ tags: ['consumables', 'purchase'], serialNumber: true }))).body.message).toBe('ConsumablesProhibitBatchSerial');
    const id = await api.create('material', body({ serialNumber: true }));
    expect((await api.put(url, { id, tags: ['consumables'] })).body.message).toBe('ConsumablesProhibitBatchSerial');
  });

  it('refuses switching batch management off while batch stock exists', async () => {
    const id = await api.create('material', body({ batchNumber: true }));
    const w = await api.create('stock', { code: `WB${n}`, name: `Batch store ${n}` });
    await putStock(ctx, t.tenantId, { materialId: id, warehouseId: w, quantity: '3', batchNumber: 'B001' });
    expect((await api.put(url, { id, batchNumber: false })).body.message).toBe('BatchNumberExistInventoryProhibitClose');
  });

  it('refuses switching batch or serial management on while the material holds untracked stock, and allows it without stock', async () => {
    const id = await api.create('material', body());
    const w = await api.create('stock', { code: `WO${n}`, name: `Open store ${n}` });
    await putStock(ctx, t.tenantId, { materialId: id, warehouseId: w, quantity: '2' });
    expect((await api.put(url, { id, batchNumber: true })).body.message).toBe('MaterialExistInventoryProhibitOpenBatchNumber');
    expect((await api.put(url, { id, serialNumber: true, remark: 'not saved' })).body.message).toBe('MaterialExistInventoryProhibitOpenSerialNumber');
    const unchanged = (await api.get<MaterialDetail>(`${url}/${id}`)).body.data;
    expect(unchanged).toMatchObject({ batchNumber: false, serialNumber: false, remark: '' });
    // Other fields still save while the switches stay as they are.
    expect((await api.put(url, { id, batchNumber: false, remark: 'kept off' })).body.status).toBe(0);

    // Stock gone to zero: the switch may go on.
    await ctx.database.withTenant(t.tenantId, (tx) => tx.update(stockBalance).set({ quantity: '0' }).where(and(eq(stockBalance.tenantId, t.tenantId), eq(stockBalance.materialId, id))));
    expect((await api.put(url, { id, serialNumber: true })).body.status).toBe(0);
    const fresh = await api.create('material', body());
    expect((await api.put(url, { id: fresh, batchNumber: true })).body.status).toBe(0);
  });

  it('stores every field of the form: tags, part kind, dimensions in their units, prices, images', async () => {
    const id = await api.create(
      'material',
      body({
        specification: '100x50',
        model: 'X1',
        tags: ['sale', 'purchase', 'production'],
        partKind: 'customized',
        length: 10.5,
        width: 5,
        height: 2,
        diameter: 1.2,
        thickness: 3,
        weight: 0.75,
        volume: 0.0001,
        area: 0.05,
        materialQuality: 'Q235',
        images: ['/api/base/file/1/2026-11/a.png'],
        safetyStock: 100,
        warnDays: 7,
        purchasePrice: 1.5,
        salePrice: 2.25,
        retailPrice: 3,
        remark: 'all fields',
      }),
    );
    const m = (await api.get<MaterialDetail>(`${url}/${id}`)).body.data;
    expect(m).toMatchObject({
      specification: '100x50',
      tags: ['sale', 'purchase', 'production'],
      partKind: 'customized',
      length: 10.5,
      thickness: 3,
      weight: 0.75,
      volume: 0.0001,
      materialQuality: 'Q235',
      images: ['/api/base/file/1/2026-11/a.png'],
      safetyStock: 100,
      warnDays: 7,
      salePrice: 2.25,
      mainUnitName: 'pcs',
      stockQuantity: '0',
    });
    expect((await api.post(url, body({ partKind: 'phantom' }))).body.status).toBe(40001);
    expect((await api.post(url, body({ tags: ['gift'] }))).body.status).toBe(40001);
    expect((await api.post(url, body({ images: ['1', '2', '3', '4', '5', '6'] }))).body.message).toBe('UploadImageCountExceeded');
  });

  it("keeps the tax rate only while the tenant's openTaxRate is on", async () => {
    const off = await api.create('material', body({ taxRate: 13 }));
    expect((await api.get<Material>(`${url}/${off}`)).body.data.taxRate).toBeNull();
    await setTenantConfig(ctx, t.tenantId, { openTaxRate: true });
    const on = await api.create('material', body({ taxRate: 13 }));
    expect((await api.get<Material>(`${url}/${on}`)).body.data.taxRate).toBe(13);
    expect((await api.post(url, body({ taxRate: 130 }))).body.status).toBe(40001);
    await setTenantConfig(ctx, t.tenantId, { openTaxRate: false });
  });

  it('keeps custom attribute values keyed by attribute id, among the allowed values', async () => {
    const colour = await api.create('attribute', { name: 'Colour', values: ['red', 'blue'] });
    const id = await api.create('material', body({ customAttributes: { [colour]: 'red' } }));
    expect((await api.get<Material>(`${url}/${id}`)).body.data.customAttributes).toEqual({ [colour]: 'red' });
    expect((await api.post(url, body({ customAttributes: { [colour]: 'green' } }))).body.message).toBe('AttributeValueNotExist');
    expect((await api.post(url, body({ customAttributes: { 999999: 'x' } }))).body.message).toBe('AttributeNotExist');
    expect((await api.del('/api/admin/basic/attribute', { ids: [colour] })).body.message).toBe('AttributeInUseProhibitDelete');
  });

  it("keeps a value some material holds among its attribute's values", async () => {
    const finish = await api.create('attribute', { name: 'Finish', values: ['matte', 'gloss', 'satin'] });
    await api.create('material', body({ customAttributes: { [finish]: 'gloss' } }));
    await api.create('material', body({ customAttributes: { [finish]: '' } }));
    const attribute = '/api/admin/basic/attribute';
    expect((await api.put(attribute, { id: finish, values: ['matte'] })).body).toMatchObject({ status: 40001, message: 'AttributeValueInUseProhibitDelete', additional: 'gloss' });
    expect((await api.get<{ values: string[] }>(`${attribute}/${finish}`)).body.data.values).toEqual(['matte', 'gloss', 'satin']);
    // Unused values may go; an empty list allows any value.
    expect((await api.put(attribute, { id: finish, values: ['gloss'] })).body.status).toBe(0);
    expect((await api.put(attribute, { id: finish, values: [] })).body.status).toBe(0);
  });

  it('refuses a category or brand that does not exist, and a used brand cannot be deleted', async () => {
    expect((await api.post(url, body({ categoryId: 999999 }))).body.message).toBe('CategoryNotExist');
    expect((await api.post(url, body({ brandId: 999999 }))).body.message).toBe('BrandNotExist');
    const b = await api.create('brand', { name: 'UsedBrand' });
    await api.create('material', body({ brandId: b }));
    expect((await api.del('/api/admin/basic/brand', { ids: [b] })).body.message).toBe('BrandInUseProhibitDelete');
  });
});

describe(`material units (${TEST_DB})`, () => {
  it('needs exactly one main unit, each unit once, barcodes unique', async () => {
    expect((await api.post(url, body({ units: [{ unitId: pcs }, { unitId: box, ratio: 12 }] }))).body.message).toBe('MainUnitMustBeOne');
    expect((await api.post(url, body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, isMain: true }] }))).body.message).toBe('MainUnitMustBeOne');
    expect((await api.post(url, body({ units: [{ unitId: pcs, isMain: true }, { unitId: pcs, ratio: 2 }] }))).body.message).toBe('UnitRepeat');
    expect((await api.post(url, body({ units: [{ unitId: pcs, isMain: true, enabled: false }] }))).body.message).toBe('MainUnitProhibitDisable');
    expect((await api.post(url, body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 0 }] }))).body.message).toBe('NumberMustGreaterThanZero');
    await api.create('material', body({ units: [{ unitId: pcs, isMain: true, barcode: '690000000001' }] }));
    expect((await api.post(url, body({ units: [{ unitId: pcs, isMain: true, barcode: '690000000001' }] }))).body.message).toBe('BarCodeRepeat');
  });

  it('keeps the main unit at ratio 1 with conversion units beside it', async () => {
    const id = await api.create('material', body({ units: [{ unitId: pcs, isMain: true, ratio: 5 }, { unitId: box, ratio: 12, barcode: 'BOX-12' }] }));
    const m = (await api.get<MaterialDetail>(`${url}/${id}`)).body.data;
    expect(m.units.map((u) => [u.unitName, u.ratio, u.isMain, u.barcode])).toEqual([
      ['pcs', 1, true, ''],
      ['box', 12, false, 'BOX-12'],
    ]);
  });

  it('refuses deleting or disabling the main unit, through the unit routes and through an update', async () => {
    const id = await api.create('material', body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 10 }] }));
    const units = (await api.get<MaterialDetail>(`${url}/${id}`)).body.data.units;
    const main = units.find((u) => u.isMain)!;
    const other = units.find((u) => !u.isMain)!;
    expect((await api.del(`${url}/unit`, { ids: [main.id] })).body.message).toBe('MainUnitProhibitDelete');
    expect((await api.put(`${url}/unit/enable`, { ids: [main.id], enabled: false })).body.message).toBe('MainUnitProhibitDisable');
    expect((await api.put(url, { id, units: [{ id: other.id, unitId: box, ratio: 10, isMain: true }] })).body.message).toBe('MainUnitProhibitDelete');
    expect((await api.put(url, { id, units: [{ id: main.id, unitId: pcs, isMain: true, enabled: false }, { id: other.id, unitId: box, ratio: 10 }] })).body.message).toBe(
      'MainUnitProhibitDisable',
    );
    // A conversion unit may go: disabled, then deleted.
    expect((await api.put(`${url}/unit/enable`, { ids: [other.id], enabled: false })).body.status).toBe(0);
    expect((await api.del(`${url}/unit`, { ids: [other.id] })).body.status).toBe(0);
    // And come back through an update, with a new one added.
    const res = await api.put<MaterialDetail>(url, { id, units: [{ id: main.id, unitId: pcs, isMain: true }, { unitId: kg, ratio: 0.5 }] });
    expect(res.body.data.units.map((u) => u.unitName)).toEqual(['pcs', 'kg']);
    // A unit in use by a material cannot be deleted from the unit list.
    expect((await api.del('/api/admin/basic/unit', { ids: [kg] })).body.message).toBe('UnitInUseProhibitDelete');
  });

  it('refuses removing a conversion unit that a BOM line counts in', async () => {
    const part = await api.create('material', body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 6 }] }));
    const parent = await api.create('material', body());
    await api.create('bom', { materialId: parent, version: 'U1', lines: [{ materialId: part, quantity: 1, unitId: box }] });
    const units = (await api.get<MaterialDetail>(`${url}/${part}`)).body.data.units;
    const boxRow = units.find((u) => !u.isMain)!;
    expect((await api.del(`${url}/unit`, { ids: [boxRow.id] })).body.message).toBe('UnitInUseProhibitDelete');
    const main = units.find((u) => u.isMain)!;
    expect((await api.put(url, { id: part, units: [{ id: main.id, unitId: pcs, isMain: true }] })).body.message).toBe('UnitInUseProhibitDelete');
  });
});

describe(`switching the main unit (${TEST_DB})`, () => {
  const unitsOf = async (id: number) => (await api.get<MaterialDetail>(`${url}/${id}`)).body.data.units;

  it('refuses a different main unit while the material holds stock, either way it is asked for, and changes nothing', async () => {
    const id = await api.create('material', body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 12 }] }));
    const w = await api.create('stock', { code: `WMU${n}`, name: `Main unit store ${n}` });
    await putStock(ctx, t.tenantId, { materialId: id, warehouseId: w, quantity: '24' });
    const before = await unitsOf(id);
    const [main, other] = before;
    // Another unit made main…
    const promoted = await api.put(url, { id, units: [{ id: main.id, unitId: pcs, ratio: 0.5 }, { id: other.id, unitId: box, isMain: true }] });
    expect(promoted.body).toMatchObject({ status: 40001, message: 'MaterialExistInventoryProhibitChangeMainUnit' });
    // …or the main unit's row given another unit.
    const replaced = await api.put(url, { id, name: 'Renamed', units: [{ id: main.id, unitId: kg, isMain: true }, { id: other.id, unitId: box, ratio: 12 }] });
    expect(replaced.body.message).toBe('MaterialExistInventoryProhibitChangeMainUnit');
    const after = (await api.get<MaterialDetail>(`${url}/${id}`)).body.data;
    expect(after.units).toEqual(before);
    expect(after.name).not.toBe('Renamed');
    // Conversion units may still change: stock is counted in the main unit.
    const converted = await api.put<MaterialDetail>(url, { id, units: [{ id: main.id, unitId: pcs, isMain: true }, { id: other.id, unitId: box, ratio: 10 }, { unitId: kg, ratio: 2 }] });
    expect(converted.body.data.units.map((u) => [u.unitName, u.ratio, u.isMain])).toEqual([
      ['pcs', 1, true],
      ['box', 10, false],
      ['kg', 2, false],
    ]);
  });

  it('switches the main unit of a material without stock; BOM lines counted in the old main unit keep it', async () => {
    const part = await api.create('material', body({ units: [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 2 }] }));
    const parent = await api.create('material', body());
    const bomId = await api.create('bom', { materialId: parent, version: 'MU1', lines: [{ materialId: part, quantity: 6 }] });
    const [main, other] = await unitsOf(part);
    const res = await api.put<MaterialDetail>(url, { id: part, units: [{ id: main.id, unitId: pcs, ratio: 0.5 }, { id: other.id, unitId: box, ratio: 7, isMain: true }] });
    expect(res.body.status).toBe(0);
    expect(res.body.data.units.map((u) => [u.unitName, u.ratio, u.isMain])).toEqual([
      ['box', 1, true],
      ['pcs', 0.5, false],
    ]);
    expect(res.body.data.mainUnitName).toBe('box');
    // The line meant 6 pcs, not 6 boxes: it now names pcs, which therefore stays on the material.
    const line = (await api.get<{ lines: Array<{ unitName: string | null }> }>(`/api/admin/basic/bom/${bomId}`)).body.data.lines[0];
    expect(line.unitName).toBe('pcs');
    const explode = await api.get<Array<{ quantity: number }>>(`/api/admin/basic/bom/${bomId}/explode?quantity=1`);
    expect(explode.body.data[0].quantity).toBe(3); // boxes
    // pcs can leave neither with its row nor by its row taking another unit.
    for (const units of [[{ id: other.id, unitId: box, isMain: true }], [{ id: other.id, unitId: box, isMain: true }, { id: main.id, unitId: kg, ratio: 3 }]]) {
      expect((await api.put(url, { id: part, units })).body).toMatchObject({ message: 'UnitInUseProhibitDelete', additional: String(pcs) });
    }
  });
});

describe(`material lists and pickers (${TEST_DB})`, () => {
  it('filters by keyword, category subtree, tag, brand and switches; sorts; sums stock', async () => {
    const root = await api.create('category', { name: 'Fasteners' });
    const sub = await api.create('category', { name: 'Screws', parentId: root });
    const b = await api.create('brand', { name: 'ListBrand' });
    const a = await api.create('material', body({ code: 'LST-A', name: 'Screw A', categoryId: sub, brandId: b, tags: ['sale'], salePrice: 5 }));
    const c = await api.create('material', body({ code: 'LST-C', name: 'Screw C', categoryId: root, tags: ['purchase'], salePrice: 1 }));
    const w = await api.create('stock', { code: 'W-LST', name: 'List store' });
    await putStock(ctx, t.tenantId, { materialId: a, warehouseId: w, quantity: '2.5' });
    await putStock(ctx, t.tenantId, { materialId: c, warehouseId: w, quantity: '4' });

    const ids = async (query: string) => (await api.get<Material[]>(`${url}?${query}`)).body.data.map((m) => m.id);
    expect(await ids(`categoryId=${root}&pageSize=200`)).toEqual([c, a]);
    expect(await ids(`categoryId=${sub}`)).toEqual([a]);
    expect(await ids(`tag=sale&code=LST-`)).toEqual([a]);
    expect(await ids(`brandId=${b}`)).toEqual([a]);
    expect(await ids(`keyword=screw&salePriceSort=asc`)).toEqual([c, a]);
    expect(await ids(`keyword=LST&notInId=${a}`)).toEqual([c]);
    const listed = (await api.get<Material[]>(`${url}?code=LST-A`)).body.data[0];
    expect(listed).toMatchObject({ categoryName: 'Screws', brandName: 'ListBrand', mainUnitName: 'pcs', stockQuantity: '2.500000' });
    const stats = await api.get<{ stockQuantity: string }>(`${url}/statistics?code=LST-`);
    expect(Number(stats.body.data.stockQuantity)).toBe(6.5);
  });

  it('offers enabled materials to pickers by code, name, specification or barcode', async () => {
    const on = await api.create('material', body({ code: 'PK-ON', name: 'Pickable', specification: 'spec-pk', units: [{ unitId: pcs, isMain: true, barcode: 'PK-BAR-1' }] }));
    const off = await api.create('material', body({ code: 'PK-OFF', name: 'Pickable off' }));
    await api.put(`${url}/enable`, { ids: [off], enabled: false });
    for (const keyword of ['PK-O', 'Pickable', 'spec-pk', 'PK-BAR']) {
      const res = await api.get<Material[]>(`${url}/picker?keyword=${keyword}`);
      expect(res.body.data.map((m) => m.id), keyword).toEqual([on]);
    }
    const paged = await api.get<Material[]>(`${url}/picker?pageSize=1`);
    expect(paged.body.data).toHaveLength(1);
    expect((paged.body.pagination as { total: number }).total).toBeGreaterThan(1);
  });

  it('refuses deleting a material used by a BOM', async () => {
    const parent = await api.create('material', body());
    const part = await api.create('material', body());
    await api.create('bom', { materialId: parent, version: 'V1', lines: [{ materialId: part, quantity: 1 }] });
    expect((await api.del(url, { ids: [part] })).body.message).toBe('MaterialInUseProhibitDelete');
    expect((await api.del(url, { ids: [parent] })).body.message).toBe('MaterialInUseProhibitDelete');
    const free = await api.create('material', body());
    expect((await api.del(url, { ids: [free] })).body.status).toBe(0);
    expect((await api.get(`${url}/${free}`)).body.message).toBe('MaterialNotExist');
  });
});
