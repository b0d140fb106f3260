import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bom, Material, Partner } from '@p8/contract/basic';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedDemoRecords } from '../src/db/seed/demo-records.ts';
import { call, login, startTestApp, TEST_DB, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await seedDemo(ctx.database);
});
afterAll(() => ctx.close());

describe(`demo records (${TEST_DB})`, () => {
  it('gives the first demo tenant a living company through the API, once, and leaves the second one empty', async () => {
    expect(await seedDemoRecords(ctx.app)).toBe(true);
    const token = await login(ctx.app, 'admin', 'admin123');
    const list = async <T>(record: string) => (await call<T[]>(ctx.app, 'GET', `/api/admin/basic/${record}?current=1&pageSize=100`, { token })).body;

    const materials = await list<Material>('material');
    expect(materials.data).toHaveLength(14);
    // Codes came from the numbering service, units and categories from the records seeded before them.
    expect(materials.data.every((m) => /^WL\d{6}$/.test(m.code) && m.mainUnitName && m.categoryName)).toBe(true);
    const customers = await list<Partner>('customer');
    expect(customers.data.map((c) => c.code).sort()).toEqual(['KH000001', 'KH000002', 'KH000003', 'KH000004']);
    expect(customers.data.find((c) => c.shortName === '上海智控')).toMatchObject({ openingReceivable: 5000 });
    expect((await list('supplier')).data).toHaveLength(4);
    expect((await list('stock')).data).toHaveLength(3);
    expect((await list('location')).data).toHaveLength(7);
    expect((await list<Bom>('bom')).data).toHaveLength(2);
    expect((await list('fee')).data).toHaveLength(4);
    expect((await list('paytype')).data).toHaveLength(5);

    // A second start leaves the records alone.
    expect(await seedDemoRecords(ctx.app)).toBe(false);
    expect((await list<Material>('material')).data).toHaveLength(14);

    const other = await login(ctx.app, 'admin2', 'admin123');
    expect((await call<Material[]>(ctx.app, 'GET', '/api/admin/basic/material', { token: other })).body.data).toEqual([]);
  });
});
