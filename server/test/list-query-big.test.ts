import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Staff } from '@p8/contract/system';
import { rows } from '../src/db/connection.ts';
import { admin, listVersion } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/core/passwords.ts';
import { call, login, seedTenant, setAdmin, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';

/**
 * What keeps the staff list fast at 100,000 rows (ListSpec.table, migration 0004) must not change what
 * it answers: deep pages in the right order, exact totals after every kind of write, contains-filters
 * through the trigram search that still see only the caller's tenant.
 */
let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;
let tokenA: string;
const URL = '/api/admin/security/admin';
const STAFF = 60;

type Page = { data: Staff[]; total: number };
async function list(query: string, token = tokenA): Promise<Page> {
  const res = await call<Staff[]>(ctx.app, 'GET', `${URL}?${query}`, { token });
  expect(res.body, query).toMatchObject({ status: 0 });
  return { data: res.body.data, total: (res.body.pagination as { total: number }).total };
}

/** Staff named so that sorting by real name differs from id order and has ties (two per name). */
async function seedMany(t: TestTenant, prefix: string) {
  const hash = await hashPassword('Passw0rd!');
  await ctx.database.withTenant(t.tenantId, (tx) =>
    tx.insert(admin).values(
      Array.from({ length: STAFF }, (_, i) => ({
        tenantId: t.tenantId,
        name: `${prefix}${i}`,
        passwordHash: hash,
        realName: `Person ${String((STAFF - i) % (STAFF / 2)).padStart(3, '0')}`,
        phone: `${prefix === 'bigA' ? '139' : '138'}${String(70000000 + i)}`,
        deptId: t.deptId,
      })),
    ),
  );
}

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  b = await seedTenant(ctx.database, 'B');
  await seedMany(a, 'bigA');
  await seedMany(b, 'bigB');
  tokenA = await login(ctx.app, a.name, a.password);
});
afterAll(() => ctx.close());

/** Every staff row of tenant A in the order the list must give: real name, then id, both one way. */
async function expected(direction: 'asc' | 'desc') {
  const all = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: admin.id, realName: admin.realName }).from(admin).where(eq(admin.tenantId, a.tenantId)));
  const sign = direction === 'asc' ? 1 : -1;
  return all.sort((x, y) => sign * (x.realName < y.realName ? -1 : x.realName > y.realName ? 1 : x.id - y.id)).map((r) => r.id);
}

describe(`big lists: staff (${TEST_DB})`, () => {
  it('pages deep into a sorted list in the same order as one full sort, both directions, ties by id', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const want = await expected(direction);
      const got: number[] = [];
      for (let current = 1; got.length < want.length; current++) {
        const page = await list(`current=${current}&pageSize=10&realNameSort=${direction}`);
        expect(page.total).toBe(want.length);
        expect(page.data.length).toBeGreaterThan(0);
        got.push(...page.data.map((s) => s.id));
      }
      expect(got).toEqual(want);
    }
    // Past the end: an empty page with the right total, not an error.
    expect(await list('current=99&pageSize=10&realNameSort=asc')).toEqual({ data: [], total: STAFF + 1 });
  });

  it('answers pages asked out of order, again, and after a write that moves every row, as a full sort would', async () => {
    const pageIds = async (current: number, sort: string) => (await list(`current=${current}&pageSize=7&${sort}`)).data.map((s) => s.id);
    for (const [sort, direction] of [['realNameSort=desc', 'desc'], ['createdAtSort=asc', 'asc']] as const) {
      const order =
        sort === 'createdAtSort=asc'
          ? // In the database's own order: its timestamps have microseconds, a JS Date has not.
            (await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: admin.id }).from(admin).where(eq(admin.tenantId, a.tenantId)).orderBy(admin.createdAt, admin.id))).map((r) => r.id)
          : await expected(direction);
      const slice = (current: number) => order.slice((current - 1) * 7, current * 7);
      for (const current of [5, 2, 5, 6, 3, 9, 4, 5]) expect(await pageIds(current, sort), `${sort} page ${current}`).toEqual(slice(current));
    }
    // A new first row by real name shifts every page: what was remembered of the old order must not be used.
    const before = await pageIds(3, 'realNameSort=asc');
    const created = await call<Staff>(ctx.app, 'POST', URL, { token: tokenA, body: { name: `aaa${Date.now()}`, password: 'Secret123', realName: 'A first', deptId: a.deptId, roleIds: [a.roleId] } });
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ status: 0 });
    const after = await pageIds(3, 'realNameSort=asc');
    expect(after).toEqual((await expected('asc')).slice(14, 21));
    expect(after).not.toEqual(before);
    await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [created.body.data.id] } });
  });

  it('deep pages carry the same fields as the first page (department name, roles)', async () => {
    const [first] = (await list('current=1&pageSize=1&nameSort=asc')).data;
    const [deep] = (await list(`current=${STAFF + 1}&pageSize=1&nameSort=desc`)).data;
    expect(deep).toEqual(first);
    expect(deep.deptName).toBe(a.tenantName);
  });

  it('keeps totals exact across inserts, updates and deletes, for the same query asked again', async () => {
    const before = await list('current=2&pageSize=5');
    const filtered = await list('realName=Person 007');
    expect(filtered.total).toBe(2);

    const created = await call<Staff>(ctx.app, 'POST', URL, { token: tokenA, body: { name: `late${Date.now()}`, password: 'Secret123', realName: 'Person 007', deptId: a.deptId, roleIds: [a.roleId] } });
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ status: 0 });
    expect((await list('current=2&pageSize=5')).total).toBe(before.total + 1);
    expect((await list('realName=Person 007')).total).toBe(3);

    // An update that moves a row out of the filter (a direct write: the triggers, not the route, keep it right).
    await setAdmin(ctx.database, a.tenantId, created.body.data.id, { realName: 'Someone else' });
    expect((await list('realName=Person 007')).total).toBe(2);

    const removed = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [created.body.data.id] } });
    expect(removed.body.status).toBe(0);
    expect((await list('current=2&pageSize=5')).total).toBe(before.total);
  });

  it("gives each tenant its own version, and one tenant's writes leave the other's untouched", async () => {
    const versionOf = (t: TestTenant) =>
      ctx.database.withTenant(t.tenantId, async (tx) => (await tx.select().from(listVersion).where(and(eq(listVersion.tenantId, t.tenantId), eq(listVersion.tableName, 'admin'))))[0]?.version);
    const [va, vb] = [await versionOf(a), await versionOf(b)];
    expect(va).toBeTruthy();
    expect(vb).toBeTruthy();
    await setAdmin(ctx.database, a.tenantId, a.adminId, { remark: 'touched' });
    expect(await versionOf(a)).not.toBe(va);
    expect(await versionOf(b)).toBe(vb);
  });

  it('contains-filters find by any part of name, real name or phone, escape wildcards, and stay in the tenant', async () => {
    expect((await list('name=igA1&pageSize=50')).data.map((s) => s.name).sort()).toEqual(['bigA1', ...Array.from({ length: 10 }, (_, i) => `bigA1${i}`)].sort());
    expect((await list('realName=rson 01')).total).toBe(20);
    expect((await list('phone=397000001')).total).toBe(10); // 1397000001x: tenant A's ten, not B's 1387000001x
    expect((await list('name=bigB')).total).toBe(0);
    expect((await list('name=%')).total).toBe(0); // a literal percent sign, which no name holds
    expect((await list('name=big_')).total).toBe(0); // a literal underscore
    expect((await list('name=BIGA5')).total).toBe(11); // case-insensitive: bigA5, bigA50..59
    // Two-letter searches have no trigram; they must still be answered. The tenant's admin carries a random
    // hex suffix that may itself hold "a5": it is expected exactly when it does, so the answer never varies.
    const twoLetters = await list('name=A5&pageSize=50');
    const adminMatches = a.name.toLowerCase().includes('a5');
    expect(twoLetters.data.map((s) => s.name).sort()).toEqual(['bigA5', ...Array.from({ length: 10 }, (_, i) => `bigA5${i}`), ...(adminMatches ? [a.name] : [])].sort());
    expect(twoLetters.total).toBe(adminMatches ? 12 : 11);
  });

  it('answers a search matching more rows than the trigram path takes (over 1,000) through the plain filter, exactly', async () => {
    const hash = await hashPassword('Passw0rd!');
    await ctx.database.withTenant(b.tenantId, (tx) =>
      tx.execute(sql`insert into admin (tenant_id, name, password_hash, real_name, dept_id)
        select ${b.tenantId}, 'bulk' || g || ${String(Date.now())}, ${hash}, 'Bulk member ' || g, ${b.deptId} from generate_series(1, 1100) g`),
    );
    const tokenB = await login(ctx.app, b.name, b.password);
    const wide = await list('realName=ulk memb&pageSize=50&current=3&realNameSort=asc', tokenB);
    expect(wide.total).toBe(1100);
    const names = Array.from({ length: 1100 }, (_, i) => `Bulk member ${i + 1}`).sort();
    expect(wide.data.map((s) => s.realName)).toEqual(names.slice(100, 150));
    // A selective search in the same tenant still goes by the index, and finds the same as a plain scan would.
    expect((await list('realName=member 1099', tokenB)).data.map((s) => s.realName)).toEqual(['Bulk member 1099']);
    expect((await list('realName=ulk memb', tokenA)).total).toBe(0);
  });

  it('p8_contains answers only for the transaction tenant and only over row-level-secured tables', async () => {
    const ids = await ctx.database.withTenant(b.tenantId, (tx) => rows<{ id: string }>(tx, sql`select p8_contains('admin'::regclass, 'name', '%bigA1%', 100) as id`));
    expect(ids).toEqual([]);
    await expect(ctx.database.withTenant(a.tenantId, (tx) => rows(tx, sql`select p8_contains('session'::regclass, 'token_hash', '%', 100)`))).rejects.toThrow();
    const none = await ctx.database.withSystem((tx) => rows<{ id: string }>(tx, sql`select p8_contains('admin'::regclass, 'name', '%bigA1%', 100) as id`));
    expect(none).toEqual([]); // no tenant set: nothing
  });

  it('answers each tenant its own rows when the same statements run again and again on shared connections (prepared on PostgreSQL)', async () => {
    const tokenB = await login(ctx.app, b.name, b.password);
    const idsOf = async (t: TestTenant) =>
      new Set((await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: admin.id }).from(admin).where(eq(admin.tenantId, t.tenantId)))).map((r) => r.id));
    const ids = { A: await idsOf(a), B: await idsOf(b) };
    const own = async (token: string, tenant: 'A' | 'B', query: string) => {
      const page = await list(query, token);
      expect(page.data.length, `${tenant} ${query}`).toBeGreaterThan(0);
      for (const s of page.data) expect(ids[tenant].has(s.id), `${tenant} ${query}: ${s.name}`).toBe(true);
      return page;
    };
    // Past PostgreSQL's five custom plans a statement may run on its generic plan: still under the caller's tenant.
    const queries = ['pageSize=10', 'current=3&pageSize=10&realNameSort=asc', 'name=big&pageSize=10', `start=2000-01-01&end=2999-12-31&pageSize=10`];
    const first = new Map<string, Page>();
    for (let round = 0; round < 7; round++) {
      for (const [token, tenant] of [[tokenA, 'A'], [tokenB, 'B']] as const) {
        for (const query of queries) {
          const page = await own(token, tenant, query);
          const key = `${tenant} ${query}`;
          if (!first.has(key)) first.set(key, page);
          expect(page, key).toEqual(first.get(key));
        }
      }
    }
  });
});
