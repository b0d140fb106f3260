import { randomBytes } from 'node:crypto';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/core/auth.ts';
import { rows } from '../src/db/connection.ts';
import { REFERENCE_TABLES, TENANT_TABLES_WITHOUT_RLS } from '../src/db/distribution.ts';
import * as schema from '../src/db/schema/index.ts';
import { loginName, loginPhone, session } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, setAdmin, startTestApp, TEST_DB, uniquePhone, type TestContext } from './harness.ts';

/*
 * Every key a tenant table has leads with tenant_id, so that the schema can be distributed by tenant
 * (docs/operations.md, "Distributing by tenant"): read from the migrated database itself, not from the
 * declarations, so that a hand-written migration is held to it too. Tables without tenant_id are reference
 * tables, each named with its reason in db/distribution.ts.
 */
describe(`keys of a schema distributed by tenant (${TEST_DB})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  const tables = () =>
    rows<{ table_name: string; tenant_table: boolean; has_primary_key: boolean }>(
      ctx.database,
      sql`select c.relname as table_name,
                 exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant_table,
                 exists (select 1 from pg_index x where x.indrelid = c.oid and x.indisprimary) as has_primary_key
            from pg_class c
           where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
           order by 1`,
    );

  it('names every table without tenant_id as a reference table, and only existing tables', async () => {
    const all = await tables();
    const names = all.map((t) => t.table_name);
    const unplaced = all.filter((t) => !t.tenant_table && !(t.table_name in REFERENCE_TABLES)).map((t) => t.table_name);
    expect(unplaced).toEqual([]);
    expect(Object.keys(REFERENCE_TABLES).filter((name) => !names.includes(name))).toEqual([]);
    for (const name of Object.keys(TENANT_TABLES_WITHOUT_RLS)) expect(all.find((t) => t.table_name === name)?.tenant_table).toBe(true);
    // The declarations and the migrations agree on the tables there are.
    const declared = Object.values(schema as Record<string, unknown>)
      .filter((value): value is PgTable => value instanceof PgTable)
      .map((table) => getTableConfig(table).name);
    expect(declared.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('leads every primary key and unique index of a tenant table with tenant_id', async () => {
    const keys = await rows<{ table_name: string; index_name: string; leading: string | null }>(
      ctx.database,
      sql`select c.relname as table_name, i.relname as index_name, a.attname as leading
            from pg_index x
            join pg_class c on c.oid = x.indrelid
            join pg_class i on i.oid = x.indexrelid
            left join pg_attribute a on a.attrelid = c.oid and a.attnum = x.indkey[0]
           where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and (x.indisunique or x.indisprimary)
             and exists (select 1 from pg_attribute t where t.attrelid = c.oid and t.attname = 'tenant_id' and not t.attisdropped)
           order by 1, 2`,
    );
    const tenantKeys = keys.filter((k) => !(k.table_name in REFERENCE_TABLES));
    expect(tenantKeys.length).toBeGreaterThan(80);
    // An expression (lower(name)) as the first column has no attribute: it fails as well.
    expect(tenantKeys.filter((k) => k.leading !== 'tenant_id').map((k) => `${k.table_name}.${k.index_name} (${k.leading ?? 'expression'})`)).toEqual([]);
    const withoutPrimaryKey = (await tables()).filter((t) => t.tenant_table && !(t.table_name in REFERENCE_TABLES) && !t.has_primary_key).map((t) => t.table_name);
    expect(withoutPrimaryKey).toEqual([]);
  });

  it('joins tenant tables by foreign keys only through tenant_id (co-located rows)', async () => {
    const keys = await rows<{ name: string; from_column: string; to_column: string; to_table: string }>(
      ctx.database,
      sql`select k.conname as name, fa.attname as from_column, ta.attname as to_column, tc.relname as to_table
            from pg_constraint k
            join pg_class fc on fc.oid = k.conrelid
            join pg_class tc on tc.oid = k.confrelid
            join pg_attribute fa on fa.attrelid = k.conrelid and fa.attnum = k.conkey[1]
            join pg_attribute ta on ta.attrelid = k.confrelid and ta.attnum = k.confkey[1]
           where k.contype = 'f' and fc.relnamespace = 'public'::regnamespace`,
    );
    const crossing = keys.filter((k) => !(k.to_table in REFERENCE_TABLES) && (k.from_column !== 'tenant_id' || k.to_column !== 'tenant_id'));
    expect(crossing.map((k) => k.name)).toEqual([]);
  });
});

describe(`sessions and sign-in names under tenant-led keys (${TEST_DB})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  const me = (token: string) => call(ctx.app, 'GET', '/api/admin/current/detail', { token });

  it('issues tokens that name their tenant, and refuses one whose tenant was changed', async () => {
    const [a, b] = [await seedTenant(ctx.database, 'A'), await seedTenant(ctx.database, 'B')];
    const token = await login(ctx.app, a.name, a.password);
    expect(token.startsWith(`${a.tenantId}.`)).toBe(true);
    const [row] = await ctx.database.db.select({ tenantId: session.tenantId }).from(session).where(and(eq(session.tenantId, a.tenantId), eq(session.tokenHash, hashToken(token))));
    expect(row).toEqual({ tenantId: a.tenantId });
    expect((await me(token)).body.status).toBe(0);
    const moved = `${b.tenantId}.${token.slice(token.indexOf('.') + 1)}`;
    expect((await me(moved)).body.status).toBe(40100);
    expect((await me(`x${token}`)).body.status).toBe(40100);
  });

  it('still honours a token issued before tokens named their tenant, until it ends', async () => {
    const t = await seedTenant(ctx.database);
    const legacy = randomBytes(32).toString('base64url');
    await ctx.database.db.insert(session).values({ tenantId: t.tenantId, adminId: t.adminId, tokenHash: hashToken(legacy), expiresAt: new Date(Date.now() + 3600_000) });
    expect((await me(legacy)).body).toMatchObject({ status: 0, data: { id: t.adminId } });
    expect((await call(ctx.app, 'POST', '/api/auth/logout', { token: legacy })).body.status).toBe(0);
    expect((await me(legacy)).body.status).toBe(40100);
  });

  it('keeps the directory of names and phones in step with the accounts: rename, phone change, delete', async () => {
    const [a, b] = [await seedTenant(ctx.database, 'A'), await seedTenant(ctx.database, 'B')];
    const staff = await seedStaff(ctx.database, a);
    const entries = async () => ({
      names: await ctx.database.db.select().from(loginName).where(and(eq(loginName.tenantId, a.tenantId), eq(loginName.adminId, staff.adminId))),
      phones: await ctx.database.db.select().from(loginPhone).where(and(eq(loginPhone.tenantId, a.tenantId), eq(loginPhone.adminId, staff.adminId))),
    });
    expect(await entries()).toEqual({ names: [{ name: staff.name.toLowerCase(), tenantId: a.tenantId, adminId: staff.adminId }], phones: [] });

    const phone = uniquePhone();
    const renamed = `Renamed${staff.name}`;
    await setAdmin(ctx.database, a.tenantId, staff.adminId, { name: renamed, phone });
    expect(await entries()).toEqual({
      names: [{ name: renamed.toLowerCase(), tenantId: a.tenantId, adminId: staff.adminId }],
      phones: [{ phone, tenantId: a.tenantId, adminId: staff.adminId }],
    });
    // Signs in by the new name in any case, and by nothing else.
    expect(await login(ctx.app, renamed.toUpperCase(), staff.password)).toMatch(new RegExp(`^${a.tenantId}\\.`));
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: staff.name, password: staff.password } })).body.message).toBe('AdminNotExist');

    // Another tenant's account cannot take them (the directory's keys), and the old name is free again.
    await expect(setAdmin(ctx.database, b.tenantId, b.adminId, { name: renamed.toLowerCase() })).rejects.toThrow();
    await expect(setAdmin(ctx.database, b.tenantId, b.adminId, { phone })).rejects.toThrow();
    await setAdmin(ctx.database, b.tenantId, b.adminId, { name: staff.name });
    expect(await login(ctx.app, staff.name, b.password)).toMatch(new RegExp(`^${b.tenantId}\\.`));

    // Deleting the account frees its name and phone.
    const adminToken = await login(ctx.app, a.name, a.password);
    expect((await call(ctx.app, 'DELETE', '/api/admin/security/admin', { token: adminToken, body: { ids: [staff.adminId] } })).body.status).toBe(0);
    expect(await entries()).toEqual({ names: [], phones: [] });
  });
});
