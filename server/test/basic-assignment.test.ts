import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assignment } from '@p8/contract/basic';
import { department } from '../src/db/schema/index.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, readXlsx, setTenantConfig, staffCaller, type Caller } from './basic-fixtures.ts';

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
    const seller = await staffCaller(ctx, t, [], salesDept);
    const other = await staffCaller(ctx, t, [], t.deptId);

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

    const person = await staffCaller(ctx, t, ['basic_material_export'], null);
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
