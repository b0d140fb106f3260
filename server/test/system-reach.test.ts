import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, Staff } from '@p8/contract/system';
import { admin, adminRole, menu, role, roleMenu } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, unique, uniquePhone, type TestContext, type TestTenant } from './harness.ts';
import { grantCodes, staffWith } from './system-fixtures.ts';

/*
 * Who may manage whom (core/account-guard.ts): an account or a role is managed only by someone whose own
 * roles reach at least as far — every menu and button it grants, and its data scope.
 */

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
});
afterAll(() => ctx.close());

const STAFF = '/api/admin/security/admin';
const ROLE = '/api/admin/security/role';
const STAFF_CODES = ['system_staff_add', 'system_staff_update', 'system_staff_delete', 'system_staff_reset_password', 'system_staff_enable', 'system_staff_notify'];
const ROLE_CODES = ['system_role_add', 'system_role_update', 'system_role_delete', 'system_role_update_scope', 'system_role_copy', 'system_role_copy_batch'];
const MANAGER_CODES = [...STAFF_CODES, ...ROLE_CODES];
/** A code the weaker manager lacks. */
const EXTRA = 'system_setting_update';

async function staffRow(id: number) {
  const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(admin).where(and(eq(admin.tenantId, a.tenantId), eq(admin.id, id))));
  return row;
}

/** A role (held by nobody) granting `codes` with the given scope. */
async function roleWith(codes: string[], dataScope: 'All' | 'Custom' | 'Dept' | 'Self' = 'All', scopeDeptIds: number[] = []) {
  const suffix = unique();
  const [r] = await ctx.database.withTenant(a.tenantId, (tx) =>
    tx.insert(role).values({ tenantId: a.tenantId, roleKey: `t${suffix}`, roleName: `Target ${suffix}`, dataScope, scopeDeptIds }).returning({ id: role.id, roleName: role.roleName }),
  );
  await grantCodes(ctx, a.tenantId, r.id, codes);
  return r;
}

describe(`account takeover (${TEST_DB})`, () => {
  it('a staff manager cannot reset the password of a colleague whose roles hold codes the manager lacks, nor sign in as them', async () => {
    const manager = await staffWith(ctx, a, { codes: STAFF_CODES });
    const colleague = await staffWith(ctx, a, { codes: [...STAFF_CODES, EXTRA] });
    const before = await staffRow(colleague.adminId);

    const reset = await call(ctx.app, 'PUT', `${STAFF}/reset`, { token: manager.token, body: { id: colleague.adminId, password: 'Takeover1' } });
    expect(reset.httpStatus).toBe(403);
    expect(reset.body).toMatchObject({ status: 40300, message: 'AccountBeyondOwn', additional: colleague.name });

    // Nor point the colleague's phone at their own, to reset the password by SMS.
    const phone = await call(ctx.app, 'PUT', STAFF, { token: manager.token, body: { id: colleague.adminId, phone: uniquePhone() } });
    expect(phone.body).toMatchObject({ status: 40300, message: 'AccountBeyondOwn' });
    expect(await staffRow(colleague.adminId)).toEqual(before);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: colleague.name, password: 'Takeover1' } })).body.message).toBe('PasswordError');
    // The colleague still signs in as before.
    expect(await login(ctx.app, colleague.name, colleague.password)).toBeTruthy();

    // A colleague whose roles hold only what the manager holds is theirs to manage.
    const peer = await staffWith(ctx, a, { codes: ['system_staff_update'] });
    expect((await call(ctx.app, 'PUT', `${STAFF}/reset`, { token: manager.token, body: { id: peer.adminId, password: 'Handover1' } })).body.status).toBe(0);
    expect(await login(ctx.app, peer.name, 'Handover1')).toBeTruthy();
  });

  it('a colleague whose role sees more data than the manager is out of reach too', async () => {
    const manager = await staffWith(ctx, a, { codes: STAFF_CODES, dataScope: 'Dept' });
    const wider = await staffWith(ctx, a, { codes: [], dataScope: 'All' });
    const res = await call(ctx.app, 'PUT', `${STAFF}/enable`, { token: manager.token, body: { ids: [wider.adminId], enabled: false } });
    expect(res.body).toMatchObject({ status: 40300, message: 'AccountBeyondOwn', additional: wider.name });
    expect((await staffRow(wider.adminId)).enabled).toBe(true);
  });
});

describe(`widening one's own reach (${TEST_DB})`, () => {
  it("a role manager cannot set their own role's data scope (to All or anything else)", async () => {
    const manager = await staffWith(ctx, a, { codes: [...ROLE_CODES, ...STAFF_CODES], dataScope: 'Dept' });
    for (const dataScope of ['All', 'Self'] as const) {
      const res = await call(ctx.app, 'PUT', `${ROLE}/scope`, { token: manager.token, body: { id: manager.roleId, dataScope } });
      expect(res.httpStatus).toBe(403);
      expect(res.body).toMatchObject({ status: 40300, message: 'OwnRoleScopeProhibitChange' });
    }
    const [own] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(role).where(and(eq(role.tenantId, a.tenantId), eq(role.id, manager.roleId))));
    expect(own.dataScope).toBe('Dept');
  });

  it('nor widen another role beyond their own scope and take it: a new role starts at own data, All is refused, handing out a wider role is refused', async () => {
    const manager = await staffWith(ctx, a, { codes: [...ROLE_CODES, ...STAFF_CODES], dataScope: 'Dept' });
    const made = await call<Role>(ctx.app, 'POST', ROLE, { token: manager.token, body: { roleKey: `m${unique()}`, roleName: `Made ${unique()}` } });
    expect(made.body.data.dataScope).toBe('Self');
    const widen = await call(ctx.app, 'PUT', `${ROLE}/scope`, { token: manager.token, body: { id: made.body.data.id, dataScope: 'All' } });
    expect(widen.body).toMatchObject({ status: 40300, message: 'DataScopeBeyondOwn', additional: 'All' });
    expect((await call(ctx.app, 'PUT', `${ROLE}/scope`, { token: manager.token, body: { id: made.body.data.id, dataScope: 'Dept' } })).body.status).toBe(0);

    const wide = await roleWith([], 'All');
    const take = await call(ctx.app, 'PUT', STAFF, { token: manager.token, body: { id: manager.adminId, roleIds: [manager.roleId, wide.id] } });
    expect(take.body).toMatchObject({ status: 40300, message: 'RoleBeyondOwn', additional: wide.roleName });
    const held = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ roleId: adminRole.roleId }).from(adminRole).where(and(eq(adminRole.tenantId, a.tenantId), eq(adminRole.adminId, manager.adminId))));
    expect(held.map((h) => h.roleId)).toEqual([manager.roleId]);
    // Nor copy it into one of their own.
    expect((await call(ctx.app, 'PUT', `${ROLE}/copy`, { token: manager.token, body: { id: wide.id, roleKey: `c${unique()}`, roleName: 'Copy' } })).body).toMatchObject({ status: 40300, message: 'RoleBeyondOwn' });
  });

  it("the super role's key and name are fixed, for its holders too; nobody else changes it at all", async () => {
    const before = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(role).where(and(eq(role.tenantId, a.tenantId), eq(role.id, a.roleId))));
    for (const body of [{ id: a.roleId, roleName: 'Renamed' }, { id: a.roleId, roleKey: 'renamed' }]) {
      expect((await call(ctx.app, 'PUT', ROLE, { token: tokenA, body })).body).toMatchObject({ status: 40001, message: 'SuperRoleProhibitChangeKey' });
    }
    // Its sort and remark stay the super administrator's to change.
    expect((await call(ctx.app, 'PUT', ROLE, { token: tokenA, body: { id: a.roleId, roleName: before[0].roleName, remark: 'the owners' } })).body.status).toBe(0);
    const manager = await staffWith(ctx, a, { codes: ROLE_CODES });
    expect((await call(ctx.app, 'PUT', ROLE, { token: manager.token, body: { id: a.roleId, remark: 'mine now' } })).body).toMatchObject({ status: 40300, message: 'RoleBeyondOwn' });
    const [after] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(role).where(and(eq(role.tenantId, a.tenantId), eq(role.id, a.roleId))));
    expect({ roleKey: after.roleKey, roleName: after.roleName, remark: after.remark }).toEqual({ roleKey: before[0].roleKey, roleName: before[0].roleName, remark: 'the owners' });
  });
});

/*
 * The walker: every write route under the staff and role URLs, found from what the app registered (so a
 * route added later is walked the day it appears), is called by a manager weaker than its target — refused
 * with 40300, nothing changed — and by a manager whose roles reach as far — done.
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
};

interface Targets {
  account: number;
  accountRole: number;
  role: number;
  menuId: number;
}

/** A valid body for the route's schema aimed at the targets: ids name them, the rest is filled by type. */
function bodyFor(schema: JsonSchema | undefined, onRole: boolean, t: Targets): unknown {
  if (!schema) return undefined;
  const known: Record<string, () => unknown> = {
    id: () => (onRole ? t.role : t.account),
    ids: () => [onRole ? t.role : t.account],
    roleIds: () => [t.accountRole],
    menuIds: () => [t.menuId],
    deptId: () => a.deptId,
    deptIds: () => [a.deptId],
    name: () => `n${unique()}`,
    roleKey: () => `k${unique()}`,
    roleName: () => `Name ${unique()}`,
    realName: () => 'Walker',
    password: () => 'Walk3r!pass',
    phone: () => uniquePhone(),
  };
  const fill = (s: JsonSchema, key?: string): unknown => {
    if (key && known[key]) return known[key]();
    if (s.anyOf) return fill(s.anyOf.find((x) => x.type !== 'null') ?? s.anyOf[0]);
    if (s.enum) return s.enum[0];
    const type = [s.type].flat()[0];
    if (type === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) if (known[k] || s.required?.includes(k)) out[k] = fill(v, k);
      return out;
    }
    if (type === 'array') return s.items ? [fill(s.items)] : [];
    if (type === 'boolean') return key === 'enabled' ? false : true;
    if (type === 'integer' || type === 'number') return s.minimum ?? 1;
    return `w${unique()}`;
  };
  return fill(schema);
}

// Creating an empty role names no existing account or role; every other write route does.
const NAMES_NO_TARGET = new Set(['POST /api/admin/security/role']);

function managementWrites() {
  return ctx.routes.filter((r) => /^\/api\/admin\/security\/(admin|role)(\/|$)/.test(r.url) && ['POST', 'PUT', 'DELETE'].includes(r.method));
}

function schemaOf(method: string, url: string): JsonSchema | undefined {
  const doc = ctx.app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> };
  const path = url.replace(/:(\w+)/g, '{$1}');
  return doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
}

/** A fresh account holding a fresh role, and a fresh role held by nobody, each granting `codes`. */
async function freshTargets(codes: string[]): Promise<Targets> {
  const holder = await staffWith(ctx, a, { codes });
  const free = await roleWith(codes);
  const [m] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, a.tenantId), eq(menu.name, 'system_staff_update'))));
  return { account: holder.adminId, accountRole: holder.roleId, role: free.id, menuId: m.id };
}

async function snapshot(t: Targets) {
  return ctx.database.withTenant(a.tenantId, async (tx) => ({
    account: await tx.select().from(admin).where(and(eq(admin.tenantId, a.tenantId), eq(admin.id, t.account))),
    accountRoles: await tx.select().from(adminRole).where(and(eq(adminRole.tenantId, a.tenantId), eq(adminRole.adminId, t.account))),
    roles: await tx.select().from(role).where(and(eq(role.tenantId, a.tenantId), inArray(role.id, [t.role, t.accountRole]))),
    grants: (await tx.select({ roleId: roleMenu.roleId, menuId: roleMenu.menuId }).from(roleMenu).where(and(eq(roleMenu.tenantId, a.tenantId), inArray(roleMenu.roleId, [t.role, t.accountRole])))).sort(
      (x, y) => x.roleId - y.roleId || x.menuId - y.menuId,
    ),
    accounts: (await tx.select({ id: admin.id }).from(admin).where(eq(admin.tenantId, a.tenantId))).length,
    roleCount: (await tx.select({ id: role.id }).from(role).where(eq(role.tenantId, a.tenantId))).length,
  }));
}

describe(`every account and role write route (${TEST_DB})`, () => {
  it('finds the write routes by URL and method', () => {
    const found = managementWrites().map((r) => `${r.method} ${r.url}`);
    // The routes known today are among them (the walk below covers whatever else appears).
    expect(found).toEqual(expect.arrayContaining([`PUT ${STAFF}/reset`, `PUT ${STAFF}`, `DELETE ${STAFF}`, `PUT ${STAFF}/enable`, `PUT ${ROLE}/scope`, `PUT ${ROLE}`, `PUT ${ROLE}/permission`, `DELETE ${ROLE}`]));
    expect(found.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses every one to a manager weaker than its target, changing nothing; a manager reaching as far does it', async () => {
    const weak = await staffWith(ctx, a, { codes: MANAGER_CODES });
    const equal = await staffWith(ctx, a, { codes: [...MANAGER_CODES, EXTRA] });
    const walked: string[] = [];
    for (const r of managementWrites()) {
      const label = `${r.method} ${r.url}`;
      if (NAMES_NO_TARGET.has(label)) continue;
      const onRole = r.url.startsWith(ROLE);
      const schema = schemaOf(r.method, r.url);

      const stronger = await freshTargets([...MANAGER_CODES, EXTRA]);
      const before = await snapshot(stronger);
      const refused = await call(ctx.app, r.method as 'PUT', r.url, { token: weak.token, body: bodyFor(schema, onRole, stronger) });
      expect(refused.httpStatus, `${label}: ${JSON.stringify(refused.body)}`).toBe(403);
      expect(['AccountBeyondOwn', 'RoleBeyondOwn', 'PermissionBeyondOwn'], label).toContain(refused.body.message);
      expect(await snapshot(stronger), `${label}: nothing changed`).toEqual(before);

      const reachable = await freshTargets([...MANAGER_CODES, EXTRA]);
      const done = await call(ctx.app, r.method as 'PUT', r.url, { token: equal.token, body: bodyFor(schema, onRole, reachable) });
      expect(done.body, `${label} by a manager reaching as far`).toMatchObject({ status: 0 });
      walked.push(label);
    }
    expect(walked.length).toBeGreaterThanOrEqual(14);
  });
});

describe(`the super administrator (${TEST_DB})`, () => {
  it('still manages everyone', async () => {
    const strong = await staffWith(ctx, a, { codes: [...MANAGER_CODES, EXTRA] });
    expect((await call(ctx.app, 'PUT', `${STAFF}/reset`, { token: tokenA, body: { id: strong.adminId, password: 'Again1234' } })).body.status).toBe(0);
    const list = await call<Staff[]>(ctx.app, 'GET', `${STAFF}?pageSize=200`, { token: tokenA });
    expect(list.body.data.map((s) => s.id)).toContain(strong.adminId);
  });
});
