import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '@p8/contract/upload';
import type { Location, Material, Partner, Warehouse } from '@p8/contract/basic';
import { nextBillCode, nextRecordCodes } from '../src/core/code-generator.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, xlsx, type Caller } from './basic-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let api: Caller;
let apiB: Caller;
let pcs: number;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'CodeA');
  b = await seedTenant(ctx.database, 'CodeB');
  api = await adminCaller(ctx, a);
  apiB = await adminCaller(ctx, b);
  pcs = await api.create('unit', { name: 'pcs' });
});
afterAll(() => ctx.close());

const url = (record: string) => `/api/admin/basic/${record}`;
const codeOf = async <T extends { code: string }>(caller: Caller, record: string, id: number) => (await caller.get<T>(`${url(record)}/${id}`)).body.data.code;

describe(`generated record codes (${TEST_DB})`, () => {
  it('gives a record created without a code the tenant prefix and the next number of its kind, skipping codes typed by hand', async () => {
    const first = await api.create('material', { name: 'Bolt', units: [{ unitId: pcs, isMain: true }] });
    expect(await codeOf<Material>(api, 'material', first)).toBe('WL000001');
    // A hand-typed code the counter will reach: the generator steps over it.
    await api.create('material', { code: 'WL000003', name: 'Typed', units: [{ unitId: pcs, isMain: true }] });
    const second = await api.create('material', { code: '  ', name: 'Nut', units: [{ unitId: pcs, isMain: true }] });
    const third = await api.create('material', { name: 'Washer', units: [{ unitId: pcs, isMain: true }] });
    expect([await codeOf<Material>(api, 'material', second), await codeOf<Material>(api, 'material', third)]).toEqual(['WL000002', 'WL000004']);

    // Every kind counts on its own; suppliers and customers share a table but not a counter.
    const supplier = await api.create('supplier', { name: '华东钢材' });
    const customer = await api.create('customer', { name: '南方机电' });
    const stock = await api.create('stock', { name: '原料仓' });
    const place = await api.create('location', { warehouseId: stock, name: 'A-01' });
    expect(await codeOf<Partner>(api, 'supplier', supplier)).toBe('GYS000001');
    expect(await codeOf<Partner>(api, 'customer', customer)).toBe('KH000001');
    expect(await codeOf<Warehouse>(api, 'stock', stock)).toBe('CK000001');
    expect(await codeOf<Location>(api, 'location', place)).toBe('KW000001');

    // Another tenant has its own counters.
    const otherUnit = await apiB.create('unit', { name: 'pcs' });
    const other = await apiB.create('material', { name: 'Bolt', units: [{ unitId: otherUnit, isMain: true }] });
    expect(await codeOf<Material>(apiB, 'material', other)).toBe('WL000001');
  });

  it('uses the prefix set in the system settings, and refuses a prefix that is no code part', async () => {
    const settings = '/api/admin/system/setting';
    const bad = await api.put(settings, { codePrefixes: { customer: 'K H' } });
    expect(bad.body).toMatchObject({ status: 40001, message: 'CodePrefixFormatError' });
    expect((await api.put(settings, { codePrefixes: { customer: 'CUS-' } })).body.status).toBe(0);
    const customer = await api.create('customer', { name: '北方重工' });
    expect(await codeOf<Partner>(api, 'customer', customer)).toBe('CUS-000002');
    // The other kinds kept their defaults.
    const supplier = await api.create('supplier', { name: '西部电子' });
    expect(await codeOf<Partner>(api, 'supplier', supplier)).toBe('GYS000002');
  });

  it('never hands out one code twice when records are created at the same time', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post<{ id: number; code: string }>(url('stock'), { name: `并发仓 ${i}` })));
    expect(created.map((r) => r.body.status)).toEqual(created.map(() => 0));
    const codes = created.map((r) => r.body.data.code);
    expect(new Set(codes).size).toBe(12);
    expect(codes.every((c) => /^CK\d{6}$/.test(c))).toBe(true);
  });

  it('generates the codes of imported rows left without one, one draw for the file', async () => {
    const file = await xlsx(['物料编码', '*物料名称', '*主单位'], [['', 'Imported 1', 'pcs'], ['WL000006', 'Imported 2', 'pcs'], ['', 'Imported 3', 'pcs']]);
    const res = await api.upload<ImportResult>(`${url('material')}/import`, file);
    expect(res.body.data).toMatchObject({ successCount: 3, errorCount: 0 });
    const rows = (await api.get<Material[]>(`${url('material')}?name=Imported&codeSort=asc`)).body.data;
    // WL000005 and WL000007: the file's own WL000006 is skipped.
    expect(rows.map((m) => [m.name, m.code])).toEqual([
      ['Imported 1', 'WL000005'],
      ['Imported 2', 'WL000006'],
      ['Imported 3', 'WL000007'],
    ]);
  });
});

describe(`bill codes for the bill engine (${TEST_DB})`, () => {
  it('numbers a bill type per day, restarting each day, apart from record counters and other tenants', async () => {
    const draw = (tenantId: number, date: string) => ctx.database.withTenant(tenantId, (tx) => nextBillCode(tx, tenantId, 'purchase_instock', 'CGRK', date));
    expect(await draw(a.tenantId, '2026-11-24')).toBe('CGRK202611240001');
    expect(await draw(a.tenantId, '2026-11-24')).toBe('CGRK202611240002');
    expect(await draw(a.tenantId, '2026-11-25')).toBe('CGRK202611250001');
    expect(await draw(b.tenantId, '2026-11-24')).toBe('CGRK202611240001');
    await expect(draw(a.tenantId, '24.11.2026')).rejects.toThrow();
  });

  it('gives a rolled-back draw its numbers back', async () => {
    const noCodes = async () => new Set<string>();
    await expect(
      ctx.database.withTenant(a.tenantId, async (tx) => {
        await nextRecordCodes(tx, a.tenantId, 'location', 5, noCodes);
        throw new Error('the create failed');
      }),
    ).rejects.toThrow('the create failed');
    const [next] = await ctx.database.withTenant(a.tenantId, (tx) => nextRecordCodes(tx, a.tenantId, 'location', 1, noCodes));
    expect(next).toBe('KW000002');
  });
});
