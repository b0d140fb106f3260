import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bom, BomDetail, BomRequirement, BomTreeNode } from '@p8/contract/basic';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, countTenantQueries, readXlsx, xlsx, type Caller } from './basic-fixtures.ts';
import { billPath } from './bill-fixtures.ts';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let pcs: number;
let box: number;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Bom');
  api = await adminCaller(ctx, t);
  pcs = await api.create('unit', { name: 'pcs' });
  box = await api.create('unit', { name: 'box' });
});
afterAll(() => ctx.close());

const url = '/api/admin/basic/bom';
let n = 0;
async function material(name: string, units: unknown[] = [{ unitId: pcs, isMain: true }]) {
  n += 1;
  return api.create('material', { code: `B${n}-${name}`, name, units });
}

describe(`BOM rules (${TEST_DB})`, () => {
  it('keeps versions unique per material (MaterialBomVersionRepeat)', async () => {
    const bike = await material('Bike');
    const wheel = await material('Wheel');
    const v1 = await api.create('bom', { materialId: bike, version: 'V1', lines: [{ materialId: wheel, quantity: 2 }] });
    expect((await api.post(url, { materialId: bike, version: 'V1', lines: [{ materialId: wheel, quantity: 3 }] })).body).toMatchObject({
      status: 40001,
      message: 'MaterialBomVersionRepeat',
    });
    const v2 = await api.create('bom', { materialId: bike, version: 'V2', lines: [{ materialId: wheel, quantity: 3 }] });
    expect((await api.put(url, { id: v2, version: 'V1' })).body.message).toBe('MaterialBomVersionRepeat');
    // The same version name is free for another material.
    const car = await material('Car');
    await api.create('bom', { materialId: car, version: 'V1', lines: [{ materialId: wheel, quantity: 4 }] });
    // The first BOM of a material is its default; choosing another moves the flag.
    expect((await api.get<Bom>(`${url}/${v1}`)).body.data.isDefault).toBe(true);
    expect((await api.get<Bom>(`${url}/${v2}`)).body.data.isDefault).toBe(false);
    await api.put(url, { id: v2, isDefault: true });
    expect((await api.get<Bom>(`${url}/${v1}`)).body.data.isDefault).toBe(false);
    expect((await api.get<Bom>(`${url}/${v2}`)).body.data.isDefault).toBe(true);
  });

  it('validates lines: at least one, quantity > 0, loss rate 0–100 %, each material once, a unit of the material', async () => {
    const p = await material('Table');
    const leg = await material('Leg');
    const base = { materialId: p, version: 'L1' };
    expect((await api.post(url, { ...base, lines: [] })).body.message).toBe('BomItemsEmpty');
    expect((await api.post(url, { ...base, lines: [{ materialId: leg, quantity: 0 }] })).body.message).toBe('NumberMustGreaterThanZero');
    expect((await api.post(url, { ...base, lines: [{ materialId: leg, quantity: 1, lossRate: 101 }] })).body.status).toBe(40001);
    expect((await api.post(url, { ...base, lines: [{ materialId: leg, quantity: 1, lossRate: -1 }] })).body.status).toBe(40001);
    expect((await api.post(url, { ...base, lines: [{ materialId: leg, quantity: 1 }, { materialId: leg, quantity: 2 }] })).body.message).toBe('ItemMaterialRepeat');
    expect((await api.post(url, { ...base, lines: [{ materialId: leg, quantity: 1, unitId: box }] })).body.message).toBe('UnitNotExist');
    expect((await api.post(url, { ...base, lines: [{ materialId: 999999, quantity: 1 }] })).body.message).toBe('MaterialNotExist');
    expect((await api.post(url, { ...base, version: '', lines: [{ materialId: leg, quantity: 1 }] })).body.message).toBe('PleaseInputBomVersion');
    const ok = await api.post<BomDetail>(url, { ...base, lines: [{ materialId: leg, quantity: 4, lossRate: 2.5, unitId: pcs }] });
    expect(ok.body.data.lines).toEqual([expect.objectContaining({ materialCode: expect.stringContaining('Leg'), quantity: 4, lossRate: 2.5, unitName: 'pcs' })]);
  });

  it('refuses a BOM that contains its own material, directly or through sub-assemblies', async () => {
    const a = await material('Assembly A');
    const b = await material('Assembly B');
    const c = await material('Part C');
    expect((await api.post(url, { materialId: a, version: 'S', lines: [{ materialId: a, quantity: 1 }] })).body.message).toBe('BomCannotContainSelf');
    await api.create('bom', { materialId: a, version: 'V1', lines: [{ materialId: b, quantity: 1 }] });
    await api.create('bom', { materialId: b, version: 'V1', lines: [{ materialId: c, quantity: 1 }] });
    // C → A would close the loop A → B → C → A.
    const loop = await api.post(url, { materialId: c, version: 'V1', lines: [{ materialId: a, quantity: 1 }] });
    expect(loop.body).toMatchObject({ status: 40001, message: 'BomCycleDetected' });
    const bomOfB = (await api.get<Bom[]>(`${url}?materialId=${b}`)).body.data[0];
    expect((await api.put(url, { id: bomOfB.id, lines: [{ materialId: a, quantity: 1 }] })).body.message).toBe('BomCycleDetected');
  });

  it('names the routing its product is made by: an enabled routing of the tenant, listed by name, exported and imported by code, held from deletion', async () => {
    const process = await api.create('process', { code: 'R-P1', name: 'Cut' });
    const routing = await api.create('routing', { code: 'R-1', name: 'Cutting line', steps: [{ processId: process }] });
    const p = await material('Frame');
    const tube = await material('Tube');
    const base = { materialId: p, version: 'R1', lines: [{ materialId: tube, quantity: 2 }] };
    expect((await api.post(url, { ...base, routingId: 999_999_999 })).body.message).toBe('RoutingNotExist');
    const id = await api.create('bom', { ...base, routingId: routing });
    expect((await api.get<BomDetail>(`${url}/${id}`)).body.data).toMatchObject({ routingId: routing, routingName: 'Cutting line' });
    expect((await api.get<Bom[]>(`${url}?keyword=Frame`)).body.data[0]).toMatchObject({ routingId: routing, routingName: 'Cutting line' });
    // Held while a BOM names it; a disabled one cannot be chosen.
    expect((await api.del('/api/admin/basic/routing', { ids: [routing] })).body.message).toBe('RoutingInUseProhibitDelete');
    await api.put('/api/admin/basic/routing/enable', { ids: [routing], enabled: false });
    expect((await api.post(url, { ...base, version: 'R2', routingId: routing })).body.message).toBe('RoutingNotExist');
    await api.put('/api/admin/basic/routing/enable', { ids: [routing], enabled: true });
    // Exported by its code, imported by it (here into a new version of the same product).
    const [header, ...rows] = await readXlsx((await api.download(`${url}/export?keyword=Frame`)).body);
    const at = header.findIndex((h) => String(h).startsWith('工艺路线'));
    expect(rows[0][at]).toBe('R-1');
    const versionAt = header.findIndex((h) => String(h) === 'BOM版本');
    const imported = await api.upload(`${url}/import`, await xlsx(header.map(String), [rows[0].map((cell, i) => (i === versionAt ? 'R3' : cell))]));
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ successCount: 1, errorCount: 0 });
    expect((await api.get<Bom[]>(`${url}?keyword=Frame&version=R3`)).body.data[0]).toMatchObject({ routingName: 'Cutting line' });
    // Cleared by an update naming none.
    expect((await api.put(url, { id, routingId: null })).body.status).toBe(0);
    expect((await api.get<BomDetail>(`${url}/${id}`)).body.data.routingId).toBeNull();
  });

  it('lists BOMs with their material, filters by material code, and deletes with the lines', async () => {
    const p = await material('Lamp');
    const bulb = await material('Bulb');
    const id = await api.create('bom', { materialId: p, version: 'V9', lines: [{ materialId: bulb, quantity: 1 }] });
    const list = await api.get<Bom[]>(`${url}?keyword=Lamp`);
    expect(list.body.data).toEqual([expect.objectContaining({ id, materialName: 'Lamp', version: 'V9', lineCount: 1 })]);
    await api.put(`${url}/enable`, { ids: [id], enabled: false });
    expect((await api.get<Bom[]>(`${url}?keyword=Lamp&enabled=true`)).body.data).toEqual([]);
    expect((await api.del(url, { ids: [id] })).body.status).toBe(0);
    expect((await api.get(`${url}/${id}`)).body.message).toBe('BomNotExist');
  });
});

describe(`multi-level BOM (${TEST_DB})`, () => {
  it('builds the tree through default BOMs and explodes leaf requirements with losses and unit ratios', async () => {
    // Chair = 4 Leg (5 % loss) + 1 Seat; Seat (made 2 at a time) = 1 Board + 8 Screw; Leg = 0.5 box of Rod (1 box = 4).
    const chair = await material('Chair');
    const seat = await material('Seat');
    const leg = await material('Leg2');
    const board = await material('Board');
    const screw = await material('Screw');
    const rod = await material('Rod', [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 4 }]);
    await api.create('bom', { materialId: seat, version: 'V1', quantity: 2, lines: [{ materialId: board, quantity: 1 }, { materialId: screw, quantity: 8 }] });
    await api.create('bom', { materialId: leg, version: 'V1', lines: [{ materialId: rod, quantity: 0.5, unitId: box }] });
    const chairBom = await api.create('bom', {
      materialId: chair,
      version: 'V1',
      lines: [
        { materialId: leg, quantity: 4, lossRate: 5 },
        { materialId: seat, quantity: 1 },
      ],
    });

    const tree = (await api.get<BomTreeNode>(`${url}/${chairBom}/tree`)).body.data;
    expect(tree).toMatchObject({ materialName: 'Chair', level: 0 });
    expect(tree.children.map((c) => [c.materialName, c.quantity, c.level, c.children.length])).toEqual([
      ['Leg2', 4, 1, 1],
      ['Seat', 1, 1, 2],
    ]);
    const seatNode = tree.children[1];
    expect(seatNode.bomVersion).toBe('V1');
    // Per one seat: the seat BOM makes two.
    expect(seatNode.children.map((c) => [c.materialName, c.quantity, c.level])).toEqual([
      ['Board', 0.5, 2],
      ['Screw', 4, 2],
    ]);
    expect(tree.children[0].children[0]).toMatchObject({ materialName: 'Rod', quantity: 0.5, unitName: 'box' });

    const need = (await api.get<BomRequirement[]>(`${url}/${chairBom}/explode?quantity=10`)).body.data;
    const byName = Object.fromEntries(need.map((r) => [r.materialName, r.quantity]));
    // Legs: 10 × 4 × 1.05 = 42; rods: 42 × 0.5 box × 4 pcs = 84. Seats: 10; boards 10 / 2 = 5; screws 10 / 2 × 8 = 40.
    expect(byName).toEqual({ Rod: 84, Board: 5, Screw: 40 });
    expect(need.find((r) => r.materialName === 'Rod')!.unitName).toBe('pcs');
    expect((await api.get(`${url}/${chairBom}/explode?quantity=0`)).body.message).toBe('NumberMustGreaterThanZero');
  });

  it('sums one leaf reached along two paths, and stops at a sub-assembly whose BOM is disabled', async () => {
    const kit = await material('Kit');
    const sub = await material('Sub');
    const nail = await material('Nail');
    const subBom = await api.create('bom', { materialId: sub, version: 'V1', lines: [{ materialId: nail, quantity: 3 }] });
    const kitBom = await api.create('bom', {
      materialId: kit,
      version: 'V1',
      lines: [
        { materialId: sub, quantity: 2 },
        { materialId: nail, quantity: 1, lossRate: 10 },
      ],
    });
    const need = (await api.get<BomRequirement[]>(`${url}/${kitBom}/explode?quantity=1`)).body.data;
    expect(need.map((r) => [r.materialName, r.quantity])).toEqual([['Nail', 7.1]]);
    await api.put(`${url}/enable`, { ids: [subBom], enabled: false });
    const flat = (await api.get<BomRequirement[]>(`${url}/${kitBom}/explode?quantity=1`)).body.data;
    expect(Object.fromEntries(flat.map((r) => [r.materialName, r.quantity]))).toEqual({ Sub: 2, Nail: 1.1 });
  });

  it('costs the exploded requirement with the tenant BOM statistics: the average in stock, else the purchase price', async () => {
    const lamp = await material('Desk lamp');
    const bulb = await material('LED bulb');
    const cord = await material('Power cord');
    const shade = await material('Lamp shade');
    await api.put(`/api/admin/basic/material`, { id: cord, purchasePrice: 1.5 });
    const lampBom = await api.create('bom', { materialId: lamp, version: 'V1', lines: [{ materialId: bulb, quantity: 2 }, { materialId: cord, quantity: 1 }, { materialId: shade, quantity: 1 }] });
    const warehouse = await api.create('stock', { code: 'LW', name: 'Lamp store' });
    // Bulbs in stock: 10 at 3.00 and 10 at 4.00 → 3.50 on average.
    const stocked = (await api.post<{ id: number }>(billPath('OtherInstock'), { billDate: '2026-11-20', warehouseId: warehouse, lines: [{ materialId: bulb, number: 10, unitPrice: 3 }, { materialId: bulb, number: 10, unitPrice: 4 }] })).body.data.id;
    for (const step of ['submit', 'audit']) expect((await api.post(`${billPath('OtherInstock')}/${step}`, { id: stocked })).body.status).toBe(0);
    const explode = async () => (await api.get<BomRequirement[]>(`${url}/${lampBom}/explode?quantity=4`)).body.data.map((r) => [r.materialName, r.quantity, r.unitCost, r.cost]);
    // Without the switch, no costs.
    expect(await explode()).toEqual([
      ['LED bulb', 8, null, null],
      ['Power cord', 4, null, null],
      ['Lamp shade', 4, null, null],
    ]);
    expect((await api.put('/api/admin/admin/tenant', { openBomStatistics: true })).body.status).toBe(0);
    // The shade has neither stock nor a purchase price: no cost.
    expect(await explode()).toEqual([
      ['LED bulb', 8, 3.5, 28],
      ['Power cord', 4, 1.5, 6],
      ['Lamp shade', 4, null, null],
    ]);
    await api.put('/api/admin/admin/tenant', { openBomStatistics: false });
  });

  it("keeps each material's low-level code as BOMs are saved, made default, disabled, enabled and deleted", async () => {
    const [top, sub, part, screw, wire, spare] = await Promise.all(['LLC Top', 'LLC Sub', 'LLC Part', 'LLC Screw', 'LLC Wire', 'LLC Spare'].map((name) => material(name)));
    const codes = async () => {
      const rows = (await api.get<Array<{ id: number; lowLevelCode: number }>>(`/api/admin/basic/material?keyword=LLC&pageSize=50`)).body.data;
      const byId = new Map(rows.map((r) => [r.id, r.lowLevelCode]));
      return [top, sub, part, screw, wire, spare].map((id) => byId.get(id));
    };
    // Top = Sub + Screw: both on level 1.
    const topBom = await api.create('bom', { materialId: top, version: 'V1', lines: [{ materialId: sub, quantity: 1 }, { materialId: screw, quantity: 2 }] });
    expect(await codes()).toEqual([0, 1, 0, 1, 0, 0]);
    // Sub = Part + Screw: the screw's deepest level is now 2 (under the sub), a part's too.
    const subBom = await api.create('bom', { materialId: sub, version: 'V1', lines: [{ materialId: part, quantity: 1 }, { materialId: screw, quantity: 4 }] });
    expect(await codes()).toEqual([0, 1, 2, 2, 0, 0]);
    // A deeper BOM: Part = Wire, level 3.
    await api.create('bom', { materialId: part, version: 'V1', lines: [{ materialId: wire, quantity: 2 }] });
    expect(await codes()).toEqual([0, 1, 2, 2, 3, 0]);
    // Shown with the BOM (its material's code) and in the structure (each node's).
    expect((await api.get<Bom>(`${url}/${subBom}`)).body.data.lowLevelCode).toBe(1);
    const tree = (await api.get<BomTreeNode>(`${url}/${topBom}/tree`)).body.data;
    expect([tree.lowLevelCode, ...tree.children.map((c) => c.lowLevelCode), tree.children[0].children[0].children[0].lowLevelCode]).toEqual([0, 1, 2, 3]);
    // A version that is not the default changes nothing; made the default, its lines are the structure.
    const subV2 = await api.create('bom', { materialId: sub, version: 'V2', lines: [{ materialId: spare, quantity: 1 }] });
    expect(await codes()).toEqual([0, 1, 2, 2, 3, 0]);
    await api.put(url, { id: subV2, isDefault: true });
    expect(await codes()).toEqual([0, 1, 0, 1, 1, 2]);
    await api.put(url, { id: subBom, isDefault: true });
    expect(await codes()).toEqual([0, 1, 2, 2, 3, 0]);
    // Disabled, the sub's BOM is no structure: its part drops to the top, the wire below it to 1.
    await api.put(`${url}/enable`, { ids: [subBom], enabled: false });
    expect(await codes()).toEqual([0, 1, 0, 1, 1, 0]);
    await api.put(`${url}/enable`, { ids: [subBom], enabled: true });
    expect(await codes()).toEqual([0, 1, 2, 2, 3, 0]);
    // Lines edited: the screw leaves the sub.
    await api.put(url, { id: subBom, lines: [{ materialId: part, quantity: 1 }] });
    expect(await codes()).toEqual([0, 1, 2, 1, 3, 0]);
    // The top's BOM deleted: everything moves up a level.
    expect((await api.del(url, { ids: [topBom] })).body.status).toBe(0);
    expect(await codes()).toEqual([0, 0, 1, 0, 2, 0]);
    // A cycle is still refused, codes untouched.
    expect((await api.post(url, { materialId: wire, version: 'V1', lines: [{ materialId: sub, quantity: 1 }] })).body.message).toBe('BomCycleDetected');
    expect(await codes()).toEqual([0, 0, 1, 0, 2, 0]);
  });

  it("answers BomNotExist for another tenant's BOM", async () => {
    const other = await seedTenant(ctx.database, 'BomOther');
    const otherApi = await adminCaller(ctx, other);
    const unitId = await otherApi.create('unit', { name: 'pcs' });
    const p = await otherApi.create('material', { code: 'OP', name: 'Other parent', units: [{ unitId, isMain: true }] });
    const c = await otherApi.create('material', { code: 'OC', name: 'Other child', units: [{ unitId, isMain: true }] });
    const foreign = await otherApi.create('bom', { materialId: p, version: 'V1', lines: [{ materialId: c, quantity: 1 }] });
    expect((await api.get(`${url}/${foreign}`)).body.message).toBe('BomNotExist');
    expect((await api.get(`${url}/${foreign}/tree`)).body.message).toBe('BomNotExist');
    expect((await api.get(`${url}/${foreign}/explode`)).body.message).toBe('BomNotExist');
    expect((await api.del(url, { ids: [foreign] })).body.message).toBe('BomNotExist');
  });
});

describe(`BOM export (${TEST_DB})`, () => {
  it('exports one row per line, BOMs in list order and lines in their order, in a constant number of queries', async () => {
    const lamp = await material('ExpBom Lamp', [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 10 }]);
    const desk = await material('ExpBom Desk');
    const bulb = await material('Bulb3', [{ unitId: pcs, isMain: true }, { unitId: box, ratio: 10 }]);
    const cord = await material('Cord3');
    const lampV1 = { materialId: lamp, version: 'V1', quantity: 2, lines: [{ materialId: bulb, quantity: 1.5, lossRate: 2, unitId: box, remark: 'glass' }, { materialId: cord, quantity: 3, itemType: 'Consumable' }] };
    await api.create('bom', lampV1);
    await api.create('bom', { materialId: lamp, version: 'V2', lines: [{ materialId: cord, quantity: 1 }] });
    const deskV1 = await api.create('bom', { materialId: desk, version: 'V1', lines: [{ materialId: lamp, quantity: 1 }, { materialId: bulb, quantity: 4 }] });
    await api.put(`${url}/enable`, { ids: [deskV1], enabled: false });

    const exportRows = async (query: Record<string, string>) => readXlsx((await api.download(`${url}/export?lang=en`, { keyword: 'ExpBom', ...query })).body);
    const code = (id: number, name: string) => `B${id}-${name}`;
    const [lampCode, deskCode, bulbCode, cordCode] = [code(n - 3, 'ExpBom Lamp'), code(n - 2, 'ExpBom Desk'), code(n - 1, 'Bulb3'), code(n, 'Cord3')];
    const row = (parent: string, version: string, quantity: number, isDefault: string, child: string, childQuantity: number, lossRate: number, unitName: string, enabled: string, remark: string) => [
      parent === lampCode ? lampCode : deskCode,
      parent === lampCode ? 'ExpBom Lamp' : 'ExpBom Desk',
      version,
      quantity,
      isDefault,
      '',
      child,
      child === bulbCode ? 'Bulb3' : child === cordCode ? 'Cord3' : 'ExpBom Lamp',
      childQuantity,
      lossRate,
      parent === lampCode && version === 'V1' && child === cordCode ? 'Consumable' : 'Standard',
      unitName,
      enabled,
      remark,
    ];
    const deskLines = [row(deskCode, 'V1', 1, 'Yes', lampCode, 1, 0, '', 'No', ''), row(deskCode, 'V1', 1, 'Yes', bulbCode, 4, 0, '', 'No', '')];
    const lampV2Lines = [row(lampCode, 'V2', 1, 'No', cordCode, 1, 0, '', 'Yes', '')];
    const lampV1Lines = [row(lampCode, 'V1', 2, 'Yes', bulbCode, 1.5, 2, 'box', 'Yes', 'glass'), row(lampCode, 'V1', 2, 'Yes', cordCode, 3, 0, '', 'Yes', '')];
    const header = ['Parent material code', 'Parent name', 'BOM version', 'Parent quantity', 'Default', 'Routing (code or name)', 'Component material code', 'Component name', 'Component quantity', 'Loss rate (%)', 'Item type (Standard/Consumable)', 'Unit', 'Enabled', 'Remark'];

    // Newest first by default; sorted by version, equal versions stay newest first; lines never interleave.
    expect(await exportRows({})).toEqual([header, ...deskLines, ...lampV2Lines, ...lampV1Lines]);
    expect(await exportRows({ versionSort: 'asc' })).toEqual([header, ...deskLines, ...lampV1Lines, ...lampV2Lines]);

    // More BOMs, same number of queries.
    const before = await countTenantQueries(ctx, () => exportRows({}));
    for (const version of ['V3', 'V4', 'V5']) await api.create('bom', { ...lampV1, version });
    const after = await countTenantQueries(ctx, () => exportRows({}));
    expect((await exportRows({})).length).toBe(1 + 5 + 3 * 2);
    expect(after).toBe(before);
  });
});
