import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment } from '@p8/contract/basic';
import { department } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import type { ImportResult } from '@p8/contract/upload';
import { adminCaller, readXlsx, setTenantConfig, staffCaller, xlsx, type Caller } from './basic-fixtures.ts';

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
let salesDept: number;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Range');
  api = await adminCaller(ctx, t);
  const [d] = await ctx.database.withTenant(t.tenantId, (tx) => tx.insert(department).values({ tenantId: t.tenantId, name: 'Sales', parentId: t.deptId }).returning({ id: department.id }));
  salesDept = d.id;
});
afterAll(() => ctx.close());

const url = (record: string) => `/api/admin/basic/${record}`;
const ids = (res: { body: { data: unknown } }) => (res.body.data as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);

describe(`assignment ranges (${TEST_DB})`, () => {
  it('shows everyone every record while the switch is off, and only assigned records while it is on', async () => {
    const a = await api.create('customer', { code: 'R-A', name: 'Range A' });
    const b = await api.create('customer', { code: 'R-B', name: 'Range B' });
    const c = await api.create('customer', { code: 'R-C', name: 'Range C' });
    const seller = await staffCaller(ctx, t, ['basic_customer', 'basic_stock'], salesDept);
    const other = await staffCaller(ctx, t, ['basic_customer'], t.deptId);

    // Off: assignments exist but do not restrict.
    expect((await api.put(url('customer') + '/assign', { ids: [a], deptIds: [salesDept], adminIds: [] })).body.status).toBe(0);
    expect((await api.put(url('customer') + '/assign', { ids: [b], deptIds: [], adminIds: [other.adminId] })).body.status).toBe(0);
    expect(ids(await seller.get(`${url('customer')}?code=R-`))).toEqual([a, b, c]);

    await setTenantConfig(ctx, t.tenantId, { applyRangeCustomer: true });
    // The seller's department has A; the other staff member has B personally; nobody has C.
    expect(ids(await seller.get(`${url('customer')}?code=R-`))).toEqual([a]);
    expect(ids(await seller.get(`${url('customer')}/picker?keyword=Range`))).toEqual([a]);
    expect(ids(await other.get(`${url('customer')}?code=R-`))).toEqual([b]);
    expect((await seller.get(`${url('customer')}/${b}`)).body.message).toBe('CustomerNotExist');
    // The super role sees everything.
    expect(ids(await api.get(`${url('customer')}?code=R-`))).toEqual([a, b, c]);
    // Statistics and exports follow the same range.
    const stats = await seller.get<{ openingReceivable: string }>(`${url('customer')}/statistics?code=R-`);
    expect(stats.body.status).toBe(0);

    // Other record types keep their own switch.
    const w = await api.create('stock', { code: 'R-W', name: 'Range store' });
    expect(ids(await seller.get(`${url('stock')}?code=R-W`))).toEqual([w]);

    await setTenantConfig(ctx, t.tenantId, { applyRangeCustomer: false });
    expect(ids(await seller.get(`${url('customer')}?code=R-`))).toEqual([a, b, c]);
  });

  it('replaces an assignment, shows it on the detail, and validates departments and staff', async () => {
    const m = await api.create('unit', { name: 'pcs-range' });
    const mat = await api.create('material', { code: 'RM-1', name: 'Ranged material', units: [{ unitId: m, isMain: true }] });
    await api.put(url('material') + '/assign', { ids: [mat], deptIds: [salesDept, t.deptId], adminIds: [t.adminId] });
    await api.put(url('material') + '/assign', { ids: [mat], deptIds: [salesDept], adminIds: [] });
    const detail = await api.get<{ assignment: Assignment }>(`${url('material')}/${mat}`);
    expect(detail.body.data.assignment).toEqual({ deptIds: [salesDept], adminIds: [] });
    expect((await api.put(url('material') + '/assign', { ids: [mat], deptIds: [999999], adminIds: [] })).body.message).toBe('DeptNotExist');
    expect((await api.put(url('material') + '/assign', { ids: [mat], deptIds: [], adminIds: [999999] })).body.message).toBe('AdminNotExist');
    expect((await api.put(url('material') + '/assign', { ids: [999999], deptIds: [salesDept], adminIds: [] })).body.message).toBe('MaterialNotExist');
  });

  it('applies to materials, suppliers and warehouses (with their locations), in lists, pickers and exports', async () => {
    const unitId = await api.create('unit', { name: 'pcs-range2' });
    const mine = await api.create('material', { code: 'RX-1', name: 'Mine', units: [{ unitId, isMain: true }] });
    await api.create('material', { code: 'RX-2', name: 'Not mine', units: [{ unitId, isMain: true }] });
    const sup = await api.create('supplier', { code: 'RS-1', name: 'Assigned supplier' });
    await api.create('supplier', { code: 'RS-2', name: 'Other supplier' });
    const w1 = await api.create('stock', { code: 'RW-1', name: 'Assigned store' });
    const w2 = await api.create('stock', { code: 'RW-2', name: 'Other store' });
    const l1 = await api.create('location', { warehouseId: w1, name: 'L1' });
    await api.create('location', { warehouseId: w2, name: 'L2' });

    const person = await staffCaller(ctx, t, ['basic_material_export', 'basic_supplier', 'basic_stock', 'basic_location'], null);
    await api.put(url('material') + '/assign', { ids: [mine], deptIds: [], adminIds: [person.adminId] });
    await api.put(url('supplier') + '/assign', { ids: [sup], deptIds: [], adminIds: [person.adminId] });
    await api.put(url('stock') + '/assign', { ids: [w1], deptIds: [], adminIds: [person.adminId] });
    await setTenantConfig(ctx, t.tenantId, { applyRangeMaterial: true, applyRangeSupplier: true, applyRangeStock: true });

    expect(ids(await person.get(`${url('material')}?code=RX-`))).toEqual([mine]);
    expect(ids(await person.get(`${url('material')}/picker?keyword=RX-`))).toEqual([mine]);
    expect(ids(await person.get(`${url('supplier')}/picker?keyword=RS-`))).toEqual([sup]);
    expect(ids(await person.get(`${url('stock')}?code=RW-`))).toEqual([w1]);
    expect(ids(await person.get(`${url('stock')}/picker?keyword=RW-`))).toEqual([w1]);
    expect(ids(await person.get(`${url('location')}/picker`))).toEqual([l1]);
    const exported = await readXlsx((await person.download(`${url('material')}/export`, { code: 'RX-' })).body);
    expect(exported.slice(1).map((r) => r[0])).toEqual(['RX-1']);

    await setTenantConfig(ctx, t.tenantId, { applyRangeMaterial: false, applyRangeSupplier: false, applyRangeStock: false });
    expect(ids(await person.get(`${url('material')}?code=RX-`))).toHaveLength(2);
  });
});

describe(`assignment ranges on writes by id (${TEST_DB})`, () => {
  const SWITCH = { material: 'applyRangeMaterial', supplier: 'applyRangeSupplier', customer: 'applyRangeCustomer', stock: 'applyRangeStock', location: 'applyRangeStock' } as const;
  const NOT_EXIST = { material: 'MaterialNotExist', supplier: 'SupplierNotExist', customer: 'CustomerNotExist', stock: 'WarehouseNotExist', location: 'LocationNotExist' } as const;
  let seq = 0;

  /** Two records of the type: X assigned to `adminId` (a location through its warehouse), Y to nobody. */
  async function pair(record: keyof typeof SWITCH, adminId: number): Promise<[number, number]> {
    const made: number[] = [];
    for (const assigned of [true, false]) {
      seq += 1;
      const code = `WR-${record}-${seq}`;
      let id: number;
      let assignable: { record: string; id: number };
      if (record === 'material') {
        id = await api.create('material', { code, name: code, units: [{ unitId: await api.create('unit', { name: code }), isMain: true }] });
        assignable = { record, id };
      } else if (record === 'location') {
        const w = await api.create('stock', { code, name: code });
        id = await api.create('location', { warehouseId: w, name: code });
        assignable = { record: 'stock', id: w };
      } else {
        id = await api.create(record, { code, name: code });
        assignable = { record, id };
      }
      if (assigned) expect((await api.put(`${url(assignable.record)}/assign`, { ids: [assignable.id], deptIds: [], adminIds: [adminId] })).body.status).toBe(0);
      made.push(id);
    }
    return [made[0], made[1]];
  }

  const enabledOf = async (record: string, id: number) => (await api.get<{ enabled: boolean }>(`${url(record)}/${id}`)).body.data.enabled;

  for (const record of Object.keys(SWITCH) as Array<keyof typeof SWITCH>) {
    it(`${record}: with the range on, only records in range can be disabled or deleted; with it off, any`, async () => {
      const person = await staffCaller(ctx, t, [`basic_${record}_delete`, `basic_${record}_enable`], null);
      const [x, y] = await pair(record, person.adminId);
      const notExist = NOT_EXIST[record];
      await setTenantConfig(ctx, t.tenantId, { [SWITCH[record]]: true });
      try {
        expect((await person.put(`${url(record)}/enable`, { ids: [y], enabled: false })).body).toMatchObject({ message: notExist, additional: String(y) });
        // All or nothing: X, which is in range, is not disabled either.
        expect((await person.put(`${url(record)}/enable`, { ids: [x, y], enabled: false })).body.message).toBe(notExist);
        expect((await person.del(url(record), { ids: [x, y] })).body.message).toBe(notExist);
        expect((await person.del(url(record), { ids: [y] })).body.message).toBe(notExist);
        expect(await enabledOf(record, x)).toBe(true);
        expect(await enabledOf(record, y)).toBe(true);

        expect((await person.put(`${url(record)}/enable`, { ids: [x], enabled: false })).body.status).toBe(0);
        expect(await enabledOf(record, x)).toBe(false);
        expect((await person.del(url(record), { ids: [x] })).body.status).toBe(0);
        expect((await api.get(`${url(record)}/${x}`)).body.message).toBe(notExist);
      } finally {
        await setTenantConfig(ctx, t.tenantId, { [SWITCH[record]]: false });
      }
      expect((await person.put(`${url(record)}/enable`, { ids: [y], enabled: false })).body.status).toBe(0);
      expect(await enabledOf(record, y)).toBe(false);
      expect((await person.del(url(record), { ids: [y] })).body.status).toBe(0);
      expect((await api.get(`${url(record)}/${y}`)).body.message).toBe(notExist);
    });
  }

  it("material unit rows: only those of materials in range can be disabled or deleted", async () => {
    const person = await staffCaller(ctx, t, ['basic_material_update'], null);
    const [x, y] = await pair('material', person.adminId);
    const box = await api.create('unit', { name: `WR-box-${seq}` });
    const rowOf = async (materialId: number) => {
      const d = await api.get<{ units: Array<{ id: number; unitId: number; isMain: boolean; ratio: number }> }>(`${url('material')}/${materialId}`);
      const main = d.body.data.units[0];
      await api.put(url('material'), { id: materialId, units: [{ id: main.id, unitId: main.unitId, isMain: true }, { unitId: box, ratio: 10 }] });
      const units = (await api.get<{ units: Array<{ id: number; isMain: boolean; enabled: boolean }> }>(`${url('material')}/${materialId}`)).body.data.units;
      return units.find((u) => !u.isMain)!.id;
    };
    const [rowX, rowY] = [await rowOf(x), await rowOf(y)];
    const unitsOf = async (materialId: number) => (await api.get<{ units: Array<{ id: number; enabled: boolean }> }>(`${url('material')}/${materialId}`)).body.data.units;
    await setTenantConfig(ctx, t.tenantId, { applyRangeMaterial: true });
    try {
      expect((await person.put(`${url('material')}/unit/enable`, { ids: [rowX, rowY], enabled: false })).body).toMatchObject({ message: 'UnitNotExist', additional: String(rowY) });
      expect((await person.del(`${url('material')}/unit`, { ids: [rowY] })).body.message).toBe('UnitNotExist');
      expect((await unitsOf(y)).find((u) => u.id === rowY)?.enabled).toBe(true);
      expect((await unitsOf(x)).find((u) => u.id === rowX)?.enabled).toBe(true);
      expect((await person.del(`${url('material')}/unit`, { ids: [rowX] })).body.status).toBe(0);
      expect((await unitsOf(x)).some((u) => u.id === rowX)).toBe(false);
    } finally {
      await setTenantConfig(ctx, t.tenantId, { applyRangeMaterial: false });
    }
    expect((await person.del(`${url('material')}/unit`, { ids: [rowY] })).body.status).toBe(0);
  });

  it('a record created by someone the range limits is assigned to them (they can see and use what they saved); by the super role, to nobody', async () => {
    const person = await staffCaller(ctx, t, ['basic_supplier_add', 'basic_material_add'], null);
    await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: true, applyRangeMaterial: true });
    try {
      const supplier = await person.post(url('supplier'), { code: `OWN-S-${seq}`, name: `Own supplier ${seq}` });
      expect(supplier.body, JSON.stringify(supplier.body)).toMatchObject({ status: 0, data: { assignment: { deptIds: [], adminIds: [person.adminId] } } });
      const unitId = await api.create('unit', { name: `own-unit-${seq}` });
      const material = await person.post(url('material'), { code: `OWN-M-${seq}`, name: `Own material ${seq}`, units: [{ unitId, isMain: true }] });
      expect(material.body, JSON.stringify(material.body)).toMatchObject({ status: 0 });
      expect((await person.get(`${url('material')}/${(material.body.data as { id: number }).id}`)).body.status).toBe(0);
      // Created by the super role: unassigned, as before.
      const byAdmin = await api.create('supplier', { code: `OWN-A-${seq}`, name: `Admin supplier ${seq}` });
      expect((await api.get<{ assignment: Assignment }>(`${url('supplier')}/${byAdmin}`)).body.data.assignment).toEqual({ deptIds: [], adminIds: [] });
    } finally {
      await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: false, applyRangeMaterial: false });
    }
    // With the range off, a new record is not assigned to anyone.
    const later = await person.post(url('supplier'), { code: `OWN-L-${seq}`, name: `Later supplier ${seq}` });
    expect(later.body).toMatchObject({ status: 0, data: { assignment: { deptIds: [], adminIds: [] } } });
  });

  it("a range-limited user's imports are assigned to them too; earlier records are not", async () => {
    const person = await staffCaller(ctx, t, ['basic_supplier_import', 'basic_stock_import', 'basic_material_import', 'basic_supplier_add'], null);
    const earlier = await person.post<{ id: number }>(url('supplier'), { code: `IMP-E-${seq}`, name: `Earlier ${seq}` });
    const unit = `imp-unit-${seq}`;
    await api.create('unit', { name: unit });
    await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: true, applyRangeStock: true, applyRangeMaterial: true });
    try {
      const suppliers = await person.upload<ImportResult>(`${url('supplier')}/import`, await xlsx(['供应商编码', '供应商名称'], [[`IMP-S1-${seq}`, `Imported one ${seq}`], [`IMP-S2-${seq}`, `Imported two ${seq}`]]));
      expect(suppliers.body, JSON.stringify(suppliers.body)).toMatchObject({ data: { successCount: 2, errorCount: 0 } });
      const stores = await person.upload<ImportResult>(`${url('stock')}/import`, await xlsx(['仓库编码', '仓库名称'], [[`IMP-W-${seq}`, `Imported store ${seq}`]]));
      expect(stores.body, JSON.stringify(stores.body)).toMatchObject({ data: { successCount: 1 } });
      const materials = await person.upload<ImportResult>(`${url('material')}/import`, await xlsx(['*物料编码', '*物料名称', '*主单位'], [[`IMP-M-${seq}`, `Imported material ${seq}`, unit]]));
      expect(materials.body, JSON.stringify(materials.body)).toMatchObject({ data: { successCount: 1 } });

      const codes = async (record: string) => (await person.get<Array<{ code: string }>>(`${url(record)}?pageSize=200`)).body.data.map((r) => r.code).sort();
      expect(await codes('supplier')).toEqual([`IMP-S1-${seq}`, `IMP-S2-${seq}`]); // not the earlier one, created while the range was off
      expect(await codes('stock')).toEqual([`IMP-W-${seq}`]);
      expect(await codes('material')).toEqual([`IMP-M-${seq}`]);
      expect(earlier.body.status).toBe(0);
    } finally {
      await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: false, applyRangeStock: false, applyRangeMaterial: false });
    }
  });

  it('assigning needs the record in range as well', async () => {
    const person = await staffCaller(ctx, t, ['basic_supplier_assign'], null);
    const [x, y] = await pair('supplier', person.adminId);
    await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: true });
    try {
      expect((await person.put(`${url('supplier')}/assign`, { ids: [y], deptIds: [], adminIds: [person.adminId] })).body.message).toBe('SupplierNotExist');
      expect((await api.get<{ assignment: Assignment }>(`${url('supplier')}/${y}`)).body.data.assignment).toEqual({ deptIds: [], adminIds: [] });
      expect((await person.put(`${url('supplier')}/assign`, { ids: [x], deptIds: [salesDept], adminIds: [person.adminId] })).body.status).toBe(0);
    } finally {
      await setTenantConfig(ctx, t.tenantId, { applyRangeSupplier: false });
    }
  });
});
