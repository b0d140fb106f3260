import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { rows } from '../src/db/connection.ts';
import { recordKind } from '@p8/contract/records/catalogue';
import { sampleNamedRecords, sampleRecordBody } from './record-samples.ts';
import { IN_USE_KEY, RecordUsage, type RecordKind } from '../src/core/record-usage.ts';
import { call, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';

/*
 * The "in use" registry (core/record-usage.ts): later modules (bills) register who refers to which record;
 * every basic record's delete asks it. A fake checker stands in for those modules here.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
/** `${kind}:${id}` the fake checker reports as referenced. */
const used = new Set<string>();
/** The app.tenant_id the checker's transaction runs under, per call. */
const seenTenant: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'Usage');
  api = await adminCaller(ctx, t);
  for (const kind of (Object.keys(IN_USE_KEY) as RecordKind[]).filter((k) => !SYSTEM_KINDS.has(k))) {
    ctx.app.recordUsage.register(kind, 'test: bills', async (tx, _tenantId, ids) => {
      const [setting] = await rows<{ tenant: string }>(tx, sql`select current_setting('app.tenant_id') as tenant`);
      seenTenant.push(setting.tenant);
      const id = ids.find((i) => used.has(`${kind}:${i}`));
      return id === undefined ? undefined : { id };
    });
  }
});
afterAll(() => ctx.close());

/** Staff accounts and departments are the system module's (their deletes are tested with the bills that name them: record-refs.test.ts). */
const SYSTEM_KINDS = new Set(['staff', 'department']);

// A declared kind at its area's path (`/api/admin/people/shift`); the hand-written ones under basic.
const base = (kind: RecordKind) => `/api/admin/${recordKind(kind)?.area ?? 'basic'}/${kind}`;
let n = 0;

/** Creates one record of `kind` that nothing in the basic records refers to. */
async function createRecord(kind: RecordKind): Promise<number> {
  n += 1;
  const name = `usage-${kind}-${n}`;
  const material = async (code: string) => api.create('material', { code, name: code, units: [{ unitId: await api.create('unit', { name: `${code}-unit` }), isMain: true }] });
  switch (kind) {
    case 'material':
      return material(name);
    case 'supplier':
    case 'customer':
    case 'stock':
      return api.create(kind, { code: name, name });
    case 'location':
      return api.create('location', { warehouseId: await api.create('stock', { code: name, name }), name });
    case 'fee':
      return api.create('fee', { name, kind: 'expense' });
    case 'bom':
      return api.create('bom', { materialId: await material(`${name}-parent`), version: 'V1', lines: [{ materialId: await material(`${name}-part`), quantity: 1 }] });
    case 'district': {
      const res = await api.post<{ id: number }>(base('district'), { name });
      expect(res.body.status).toBe(0);
      return res.body.data.id;
    }
    default: {
      const declared = recordKind(kind);
      return api.create(kind, declared ? sampleRecordBody(declared, name, await sampleNamedRecords(api.create, declared, name)) : { name });
    }
  }
}

describe(`records in use elsewhere (${TEST_DB})`, () => {
  it.each(Object.entries(IN_USE_KEY).filter(([kind]) => !SYSTEM_KINDS.has(kind)) as Array<[RecordKind, string]>)('%s: refused with %s while a registered checker reports it, deleted once it does not', async (kind, key) => {
    const kept = await createRecord(kind);
    const free = await createRecord(kind);
    used.add(`${kind}:${kept}`);
    seenTenant.length = 0;

    // All or nothing: the free record of the same request is not deleted either.
    const refused = await api.del(base(kind), { ids: [free, kept] });
    expect(refused.body).toMatchObject({ status: 40001, message: key, additional: String(kept) });
    expect((await api.get(`${base(kind)}/${kept}`)).body.status).toBe(0);
    expect((await api.get(`${base(kind)}/${free}`)).body.status).toBe(0);
    // The checker ran inside the request's tenant transaction.
    expect(seenTenant).toContain(String(t.tenantId));

    used.delete(`${kind}:${kept}`);
    expect((await api.del(base(kind), { ids: [free, kept] })).body.status).toBe(0);
    expect((await api.get(`${base(kind)}/${kept}`)).body.status).not.toBe(0);
  });
});

describe('the usage registry', () => {
  const tx = {} as never;

  it('asks every checker of the kind, in registration order, and names the id it reports', async () => {
    const usage = new RecordUsage();
    const asked: string[] = [];
    usage.register('supplier', 'purchase orders', async () => (asked.push('purchase orders'), undefined));
    usage.register('supplier', 'payments', async (_tx, _tenantId, ids) => (asked.push('payments'), { id: ids[1] }));
    usage.register('customer', 'sale orders', async () => ({ id: 1 }));
    await expect(usage.refuseIfInUse(tx, 1, 'supplier', [7, 8])).rejects.toMatchObject({ key: 'SupplierInUseProhibitDelete', additional: '8' });
    expect(asked).toEqual(['purchase orders', 'payments']);
    await expect(usage.refuseIfInUse(tx, 1, 'material', [7])).resolves.toBeUndefined();
  });

  it('replaces a checker registered again under the same source', async () => {
    const usage = new RecordUsage();
    usage.register('bom', 'production orders', async () => ({ id: 3 }));
    usage.register('bom', 'production orders', async () => undefined);
    await expect(usage.refuseIfInUse(tx, 1, 'bom', [3])).resolves.toBeUndefined();
  });

  it('belongs to one app: another app built in the same process has its own, without this one\'s checkers', async () => {
    const other = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    try {
      expect(other.recordUsage).not.toBe(ctx.app.recordUsage);
      const brand = await createRecord('brand');
      used.add(`brand:${brand}`);
      expect((await api.del(base('brand'), { ids: [brand] })).body.message).toBe('BrandInUseProhibitDelete');
      const viaOther = await call(other, 'DELETE', base('brand'), { token: api.token, body: { ids: [brand] } });
      expect(viaOther.body.status).toBe(0);
    } finally {
      await other.close();
    }
  });
});
