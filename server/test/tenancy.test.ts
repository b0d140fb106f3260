import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/db/connection.ts';
import { admin, department } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
let tokenB: string;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  b = await seedTenant(ctx.database, 'B');
  tokenA = await login(ctx.app, a.name, a.password);
  tokenB = await login(ctx.app, b.name, b.password);
});
afterAll(() => ctx.close());

/** Every tenant table of the schema (those carrying tenant_id, plus tenant itself). */
async function tenantTables(): Promise<string[]> {
  const result = await rows<{ table_name: string }>(
    ctx.database,
    sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id' and table_name not in ('session', 'captcha') order by 1`,
  );
  return ['tenant', ...result.map((r) => r.table_name)];
}

describe(`tenant isolation by row-level security (${TEST_DB})`, () => {
  it('runs requests as a role that is neither superuser, BYPASSRLS nor table owner', async () => {
    const [who] = await ctx.database.withTenant(a.tenantId, (tx) =>
      rows<{ usr: string; superuser: boolean; bypass: boolean; owns: number }>(
        tx,
        sql`select current_user as usr, r.rolsuper as superuser, r.rolbypassrls as bypass,
              (select count(*)::int from pg_tables t where t.schemaname = 'public' and t.tableowner = current_user) as owns
            from pg_roles r where r.rolname = current_user`,
      ),
    );
    expect(who).toEqual({ usr: 'p8_app', superuser: false, bypass: false, owns: 0 });
  });

  it('forces RLS with a policy on every tenant table', async () => {
    const tables = await tenantTables();
    const state = await rows<{ relname: string; forced: boolean; enabled: boolean; policies: number }>(
      ctx.database,
      sql`select c.relname, c.relforcerowsecurity as forced, c.relrowsecurity as enabled,
            (select count(*)::int from pg_policies p where p.tablename = c.relname) as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`,
    );
    for (const table of tables) {
      expect(state.find((s) => s.relname === table), table).toMatchObject({ forced: true, enabled: true });
      expect(state.find((s) => s.relname === table)!.policies, table).toBeGreaterThan(0);
    }
  });

  it('returns no foreign rows to a raw select without a tenant filter, on every tenant table', async () => {
    for (const table of await tenantTables()) {
      const column = table === 'tenant' ? 'id' : 'tenant_id';
      const seen = await ctx.database.withTenant(a.tenantId, (tx) =>
        rows<{ tid: string | number }>(tx, sql.raw(`select distinct ${column} as tid from "${table}"`)),
      );
      expect(seen.map((r) => Number(r.tid)).filter((tid) => tid !== a.tenantId), table).toEqual([]);
    }
  });

  it('sees nothing at all when no tenant is set', async () => {
    const seen = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'p8_app', true)`);
      return rows<{ n: number }>(tx, sql`select count(*)::int as n from admin`);
    });
    expect(seen[0].n).toBe(0);
  });

  it("cannot insert, update or delete another tenant's rows", async () => {
    await expect(
      ctx.database.withTenant(a.tenantId, (tx) => tx.insert(department).values({ tenantId: b.tenantId, name: 'smuggled' })),
    ).rejects.toThrow();
    const updated = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.update(admin).set({ realName: 'hijacked' }).where(sql`${admin.tenantId} = ${b.tenantId}`).returning({ id: admin.id }),
    );
    expect(updated).toEqual([]);
    const deleted = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.delete(department).where(sql`${department.tenantId} = ${b.tenantId}`).returning({ id: department.id }),
    );
    expect(deleted).toEqual([]);
    await expect(
      ctx.database.withTenant(a.tenantId, (tx) => tx.update(admin).set({ tenantId: b.tenantId }).where(sql`${admin.id} = ${a.adminId}`)),
    ).rejects.toThrow();
    const bAdmins = await ctx.database.withTenant(b.tenantId, (tx) => rows<{ real_name: string }>(tx, sql`select real_name from admin`));
    expect(bAdmins.map((r) => r.real_name)).not.toContain('hijacked');
  });

  it("never shows tenant A's data to tenant B through any signed-in GET route", async () => {
    const routes = ctx.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .map((line) => line.replace(/^[\s│├└─]+/, '').trim())
      .filter((line) => line.startsWith('/api/admin/') && line.includes('GET'))
      .map((line) => line.split(' ')[0]);
    expect(routes.length).toBeGreaterThan(3);
    for (const url of routes) {
      const res = await call(ctx.app, 'GET', url, { token: tokenB });
      const text = JSON.stringify(res.body);
      expect(text, url).not.toContain(a.tenantName);
      expect(text, url).not.toContain(a.name);
      expect(text, url).not.toContain(a.phone);
    }
    // …while A sees its own data through the same routes.
    const own = await call(ctx.app, 'GET', '/api/admin/admin/tenant', { token: tokenA });
    expect(JSON.stringify(own.body)).toContain(a.tenantName);
  });

  it("cannot act on tenant A's rows through the signed-in write routes", async () => {
    // Personal data, password, common menus and session removal all act on the caller only: B's calls leave A untouched.
    await call(ctx.app, 'PUT', '/api/admin/current/info', { token: tokenB, body: { realName: 'B was here' } });
    await call(ctx.app, 'POST', '/api/admin/auth/removeOther', { token: tokenB });
    const meA = await call<{ realName: string }>(ctx.app, 'GET', '/api/admin/current/detail', { token: tokenA });
    expect(meA.body.status).toBe(0);
    expect(meA.body.data.realName).not.toBe('B was here');
  });
});
