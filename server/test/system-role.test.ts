import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentRole } from '@p8/contract/menu';
import type { Role } from '@p8/contract/system';
import { menu, role, roleMenu } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, unique, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, expectGuarded, staffWith } from './system-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let menuIds: Map<string, number>;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
  menuIds = await menusOf(a);
});
afterAll(() => ctx.close());

const URL = '/api/admin/security/role';

async function menusOf(t: TestTenant) {
  const all = await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: menu.id, name: menu.name }).from(menu).where(eq(menu.tenantId, t.tenantId)));
  return new Map(all.map((m) => [m.name, m.id]));
}

async function addRole(token: string, body: Record<string, unknown> = {}): Promise<Role> {
  const suffix = unique();
  const res = await call<Role>(ctx.app, 'POST', URL, { token, body: { roleKey: `role_${suffix}`, roleName: `Role ${suffix}`, ...body } });
  expect(res.body).toMatchObject({ status: 0 });
  return res.body.data;
}

async function roleRow(tenantId: number, id: number) {
  const [row] = await ctx.database.withTenant(tenantId, (tx) => tx.select().from(role).where(and(eq(role.tenantId, tenantId), eq(role.id, id))));
  return row;
}

async function grants(tenantId: number, roleId: number) {
  const found = await ctx.database.withTenant(tenantId, (tx) =>
    tx.select({ menuId: roleMenu.menuId }).from(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), eq(roleMenu.roleId, roleId))),
  );
  return found.map((g) => g.menuId).sort((x, y) => x - y);
}

describe(`roles (${TEST_DB})`, () => {
  it('creates, reads and lists roles with how many staff hold each', async () => {
    const r = await addRole(tokenA, { roleKey: 'buyer', roleName: 'Buyer', sort: 3, remark: 'purchasing' });
    expect(r).toMatchObject({ roleKey: 'buyer', roleName: 'Buyer', sort: 3, remark: 'purchasing', isSuper: false, isDefault: false, dataScope: 'All', deptIds: [], userCount: 0 });
    const list = await call<Role[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: tokenA });
    const superRole = list.body.data.find((x) => x.id === a.roleId)!;
    expect(superRole).toMatchObject({ isSuper: true, isDefault: true, userCount: 1 });
    expect(list.body.data.map((x) => x.roleKey)).toContain('buyer');
    expect((await call<Role>(ctx.app, 'GET', `${URL}/${r.id}`, { token: tokenA })).body.data).toMatchObject({ id: r.id, roleKey: 'buyer' });
    const filtered = await call<Role[]>(ctx.app, 'GET', `${URL}?roleName=uye`, { token: tokenA });
    expect(filtered.body.data.map((x) => x.roleKey)).toEqual(['buyer']);
    const [entry] = await auditEntries(ctx, a.tenantId, 'role');
    expect(entry).toMatchObject({ action: 'create', entityId: String(r.id) });
  });

  it('keeps role keys unique (RoleKeyRepeat) and asks for key and name', async () => {
    const first = await addRole(tokenA, { roleKey: 'seller' });
    const repeat = await call(ctx.app, 'POST', URL, { token: tokenA, body: { roleKey: 'seller', roleName: 'Other' } });
    expect(repeat.body).toMatchObject({ status: 40001, message: 'RoleKeyRepeat', additional: 'seller' });
    const other = await addRole(tokenA);
    const update = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: other.id, roleKey: 'seller' } });
    expect(update.body.message).toBe('RoleKeyRepeat');
    expect((await roleRow(a.tenantId, other.id)).roleKey).toBe(other.roleKey);
    const renamed = await call<Role>(ctx.app, 'PUT', URL, { token: tokenA, body: { id: first.id, roleName: 'Sales' } });
    expect(renamed.body.data).toMatchObject({ roleKey: 'seller', roleName: 'Sales' });
    expect((await call(ctx.app, 'POST', URL, { token: tokenA, body: { roleKey: '', roleName: 'x' } })).body.message).toBe('PleaseInputRoleKey');
    expect((await call(ctx.app, 'POST', URL, { token: tokenA, body: { roleKey: 'nameless', roleName: '' } })).body.message).toBe('PleaseInputRoleName');
  });

  it("forbids setting the super role's permissions or data scope (SuperRoleProhibitSetPermission)", async () => {
    const perm = await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: a.roleId, menuIds: [menuIds.get('home')] } });
    expect(perm.body).toMatchObject({ status: 40001, message: 'SuperRoleProhibitSetPermission' });
    const scope = await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: a.roleId, dataScope: 'Self' } });
    expect(scope.body.message).toBe('SuperRoleProhibitSetPermission');
    expect(await grants(a.tenantId, a.roleId)).toEqual([]);
    expect((await roleRow(a.tenantId, a.roleId)).dataScope).toBe('All');
    // It holds every menu implicitly.
    const held = await call<number[]>(ctx.app, 'GET', `${URL}/${a.roleId}/permission`, { token: tokenA });
    expect(held.body.data).toEqual([...menuIds.values()].sort((x, y) => x - y));
  });

  it('grants a button together with the screens above it, and the holder sees exactly that', async () => {
    const r = await addRole(tokenA);
    const res = await call<number[]>(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: r.id, menuIds: [menuIds.get('system_role_add'), menuIds.get('home')] } });
    expect(res.body.status).toBe(0);
    const expected = ['system', 'system_role', 'system_role_add', 'home'].map((n) => menuIds.get(n)!).sort((x, y) => x - y);
    expect(await grants(a.tenantId, r.id)).toEqual(expected);
    expect((await call<number[]>(ctx.app, 'GET', `${URL}/${r.id}/permission`, { token: tokenA })).body.data).toEqual(expected);

    const staff = await staffWith(ctx, a);
    const assign = await call(ctx.app, 'PUT', '/api/admin/security/admin', { token: tokenA, body: { id: staff.adminId, roleIds: [r.id] } });
    expect(assign.body.status).toBe(0);
    const current = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token: staff.token });
    expect(current.body.data.buttons).toEqual(['system_role_add']);
    expect(current.body.data.menuList.map((m) => m.name)).toEqual(['home', 'system']);

    // Setting again replaces the grant; an unknown menu changes nothing.
    const unknown = await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: r.id, menuIds: [999999999] } });
    expect(unknown.body).toMatchObject({ status: 40001, message: 'DataNotExist' });
    expect(await grants(a.tenantId, r.id)).toEqual(expected);
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: r.id, menuIds: [menuIds.get('home')] } });
    expect(await grants(a.tenantId, r.id)).toEqual([menuIds.get('home')]);
    const [entry] = await auditEntries(ctx, a.tenantId, 'role');
    expect(entry).toMatchObject({ action: 'permission', entityId: String(r.id) });
    expect((entry.detail as { removed: number[] }).removed).toContain(menuIds.get('system_role_add'));
  });

  it('sets the data scope: Custom needs existing departments, the others keep none', async () => {
    const r = await addRole(tokenA);
    const none = await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: r.id, dataScope: 'Custom', deptIds: [] } });
    expect(none.body).toMatchObject({ status: 40001, message: 'PleaseSelectDept' });
    const unknown = await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: r.id, dataScope: 'Custom', deptIds: [999999999] } });
    expect(unknown.body.message).toBe('DeptNotExist');
    const badScope = await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: r.id, dataScope: 'Everyone' } });
    expect(badScope.body).toMatchObject({ status: 40001, message: 'PleaseSelectDataScope' });
    const custom = await call<Role>(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: r.id, dataScope: 'Custom', deptIds: [a.deptId] } });
    expect(custom.body.data).toMatchObject({ dataScope: 'Custom', deptIds: [a.deptId] });
    const own = await call<Role>(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: r.id, dataScope: 'Dept', deptIds: [a.deptId] } });
    expect(own.body.data).toMatchObject({ dataScope: 'Dept', deptIds: [] });
    const [entry] = await auditEntries(ctx, a.tenantId, 'role');
    expect(entry).toMatchObject({ action: 'scope', detail: { from: { dataScope: 'Custom', deptIds: [a.deptId] }, to: { dataScope: 'Dept', deptIds: [] } } });
  });

  it('copies a role with its data scope and permissions under a new key (RoleKeyRepeat when taken)', async () => {
    const source = await addRole(tokenA, { roleKey: 'clerk', roleName: 'Clerk', remark: 'desk' });
    await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenA, body: { id: source.id, dataScope: 'Custom', deptIds: [a.deptId] } });
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: source.id, menuIds: [menuIds.get('system_staff_add')] } });
    const taken = await call(ctx.app, 'PUT', `${URL}/copy`, { token: tokenA, body: { id: source.id, roleKey: 'clerk', roleName: 'Clerk 2' } });
    expect(taken.body).toMatchObject({ status: 40001, message: 'RoleKeyRepeat' });
    const copy = await call<Role>(ctx.app, 'PUT', `${URL}/copy`, { token: tokenA, body: { id: source.id, roleKey: 'clerk2', roleName: 'Clerk 2' } });
    expect(copy.body.data).toMatchObject({ roleKey: 'clerk2', roleName: 'Clerk 2', dataScope: 'Custom', deptIds: [a.deptId], remark: 'desk', isDefault: false, isSuper: false });
    expect(await grants(a.tenantId, copy.body.data.id)).toEqual(await grants(a.tenantId, source.id));
    const [entry] = await auditEntries(ctx, a.tenantId, 'role');
    expect(entry).toMatchObject({ action: 'copy', entityId: String(copy.body.data.id), detail: { from: source.id } });
  });

  it('copies roles in batch as "<name> (copy)" with unique keys; a copy of the super role is an ordinary role with every menu', async () => {
    const source = await addRole(tokenA, { roleKey: 'packer', roleName: 'Packer' });
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: source.id, menuIds: [menuIds.get('home')] } });
    const first = await call<Role[]>(ctx.app, 'PUT', `${URL}/copy/batch`, { token: tokenA, body: { ids: [source.id, a.roleId] } });
    expect(first.body.data.map((r) => [r.roleKey, r.roleName])).toEqual([
      ['packer_copy', 'Packer (copy)'],
      ['admin_copy', '超级管理员 (copy)'],
    ]);
    const superCopy = first.body.data[1];
    expect(superCopy).toMatchObject({ isSuper: false, isDefault: false });
    expect(await grants(a.tenantId, superCopy.id)).toEqual([...menuIds.values()].sort((x, y) => x - y));
    expect(await grants(a.tenantId, first.body.data[0].id)).toEqual([menuIds.get('home')]);
    const second = await call<Role[]>(ctx.app, 'PUT', `${URL}/copy/batch`, { token: tokenA, body: { ids: [source.id] } });
    expect(second.body.data.map((r) => r.roleKey)).toEqual(['packer_copy2']);
  });

  it('never deletes the default role nor a role still held by staff; deleting drops its grants', async () => {
    const fixed = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [a.roleId] } });
    expect(fixed.body).toMatchObject({ status: 40001, message: 'DefaultRoleProhibitDelete' });
    const staff = await staffWith(ctx, a);
    const held = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [staff.roleId] } });
    expect(held.body).toMatchObject({ status: 40001, message: 'RoleInUseProhibitDelete' });
    expect(await roleRow(a.tenantId, staff.roleId)).toBeTruthy();

    const spare = await addRole(tokenA);
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: spare.id, menuIds: [menuIds.get('home')] } });
    expect((await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [spare.id] } })).body.status).toBe(0);
    expect(await roleRow(a.tenantId, spare.id)).toBeUndefined();
    expect(await grants(a.tenantId, spare.id)).toEqual([]);
    const [entry] = await auditEntries(ctx, a.tenantId, 'role');
    expect(entry).toMatchObject({ action: 'delete', entityId: String(spare.id) });
  });
});

describe(`role permissions (${TEST_DB})`, () => {
  const roleCount = async () => (await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: role.id }).from(role).where(eq(role.tenantId, a.tenantId)))).length;

  it('lets an administrator without the super role give or take away only what they hold (PermissionBeyondOwn)', async () => {
    const editor = await staffWith(ctx, a, { codes: ['system_role_update', 'system_role_copy', 'system_role_copy_batch', 'basic_brand_add'] });
    const id = (name: string) => menuIds.get(name)!;
    const beyond = (res: { httpStatus: number; body: { status: number; message: string } }) => {
      expect(res.httpStatus).toBe(403);
      expect(res.body).toMatchObject({ status: 40300, message: 'PermissionBeyondOwn' });
    };
    // Their own role cannot be given every permission of the tenant.
    const own = await grants(a.tenantId, editor.roleId);
    beyond(await call(ctx.app, 'PUT', `${URL}/permission`, { token: editor.token, body: { id: editor.roleId, menuIds: [...menuIds.values()] } }));
    expect(await grants(a.tenantId, editor.roleId)).toEqual(own);
    const buttons = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token: editor.token });
    expect(buttons.body.data.buttons.sort()).toEqual(['basic_brand_add', 'system_role_copy', 'system_role_copy_batch', 'system_role_update']);

    // Another role: what they hold, yes.
    const r = await addRole(tokenA);
    expect((await call(ctx.app, 'PUT', `${URL}/permission`, { token: editor.token, body: { id: r.id, menuIds: [id('basic_brand_add')] } })).body.status).toBe(0);
    expect(await grants(a.tenantId, r.id)).toContain(id('basic_brand_add'));

    // A role holding more than they do is out of their reach altogether: not even what they hold may go.
    const wide = await addRole(tokenA);
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: wide.id, menuIds: [id('system_setting_update'), id('basic_brand_add')] } });
    const wideGrants = await grants(a.tenantId, wide.id);
    const keep = wideGrants.filter((m) => m !== id('basic_brand_add'));
    const refused = await call(ctx.app, 'PUT', `${URL}/permission`, { token: editor.token, body: { id: wide.id, menuIds: keep } });
    expect(refused.body).toMatchObject({ status: 40300, message: 'RoleBeyondOwn', additional: wide.roleName });
    expect(await grants(a.tenantId, wide.id)).toEqual(wideGrants);

    // Nor through a copy: of the super role, or of a role holding more.
    beyond(await call(ctx.app, 'PUT', `${URL}/copy`, { token: editor.token, body: { id: a.roleId, roleKey: `c${unique()}`, roleName: 'All of it' } }));
    beyond(await call(ctx.app, 'PUT', `${URL}/copy/batch`, { token: editor.token, body: { ids: [wide.id] } }));
    expect((await call(ctx.app, 'PUT', `${URL}/copy`, { token: editor.token, body: { id: r.id, roleKey: `c${unique()}`, roleName: 'Brands' } })).body.status).toBe(0);
  });

  it('needs system_role_add to create', async () => {
    await expectGuarded(ctx, a, { method: 'POST', url: URL, code: 'system_role_add', body: () => ({ roleKey: `g${unique()}`, roleName: 'Guarded' }), snapshot: roleCount });
  });

  it('needs system_role_update to update', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, { method: 'PUT', url: URL, code: 'system_role_update', body: () => ({ id: r.id, roleName: `n${unique()}` }), snapshot: () => roleRow(a.tenantId, r.id) });
  });

  it('needs system_role_update to set permissions', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, {
      method: 'PUT',
      url: `${URL}/permission`,
      code: 'system_role_update',
      // A code the holder has: what they may hand out (PermissionBeyondOwn otherwise).
      body: () => ({ id: r.id, menuIds: [menuIds.get('system_role_update')] }),
      snapshot: () => grants(a.tenantId, r.id),
    });
  });

  it('needs system_role_delete to delete', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, { method: 'DELETE', url: URL, code: 'system_role_delete', body: () => ({ ids: [r.id] }), snapshot: () => roleRow(a.tenantId, r.id) });
  });

  it('needs system_role_update_scope to set the data scope', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/scope`, code: 'system_role_update_scope', body: () => ({ id: r.id, dataScope: 'Self' }), snapshot: () => roleRow(a.tenantId, r.id) });
  });

  it('needs system_role_copy to copy', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/copy`, code: 'system_role_copy', body: () => ({ id: r.id, roleKey: `c${unique()}`, roleName: 'Copy' }), snapshot: roleCount });
  });

  it('needs system_role_copy_batch to copy in batch', async () => {
    const r = await addRole(tokenA);
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/copy/batch`, code: 'system_role_copy_batch', body: () => ({ ids: [r.id] }), snapshot: roleCount });
  });
});

describe(`role tenant isolation (${TEST_DB})`, () => {
  it("cannot read, change, copy, scope, grant or delete another tenant's role, nor grant its menus", async () => {
    const b = await seedTenant(ctx.database, 'B');
    const tokenB = await login(ctx.app, b.name, b.password);
    const r = await addRole(tokenA);
    await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenA, body: { id: r.id, menuIds: [menuIds.get('home')] } });
    const before = { row: await roleRow(a.tenantId, r.id), grants: await grants(a.tenantId, r.id) };

    const refused = [
      await call(ctx.app, 'GET', `${URL}/${r.id}`, { token: tokenB }),
      await call(ctx.app, 'GET', `${URL}/${r.id}/permission`, { token: tokenB }),
      await call(ctx.app, 'PUT', URL, { token: tokenB, body: { id: r.id, roleName: 'Stolen' } }),
      await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenB, body: { id: r.id, dataScope: 'Self' } }),
      await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenB, body: { id: r.id, menuIds: [] } }),
      await call(ctx.app, 'PUT', `${URL}/copy`, { token: tokenB, body: { id: r.id, roleKey: `x${unique()}`, roleName: 'x' } }),
      await call(ctx.app, 'PUT', `${URL}/copy/batch`, { token: tokenB, body: { ids: [r.id] } }),
      await call(ctx.app, 'DELETE', URL, { token: tokenB, body: { ids: [r.id] } }),
    ];
    for (const res of refused) expect(res.body).toMatchObject({ status: 40001, message: 'RoleNotExist' });
    expect({ row: await roleRow(a.tenantId, r.id), grants: await grants(a.tenantId, r.id) }).toEqual(before);

    // B's own role cannot be granted A's menus, nor scoped to A's departments.
    const own = await addRole(tokenB);
    expect((await call(ctx.app, 'PUT', `${URL}/permission`, { token: tokenB, body: { id: own.id, menuIds: [menuIds.get('home')] } })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'PUT', `${URL}/scope`, { token: tokenB, body: { id: own.id, dataScope: 'Custom', deptIds: [a.deptId] } })).body.message).toBe('DeptNotExist');
    // Role keys are unique per tenant only.
    expect((await call(ctx.app, 'POST', URL, { token: tokenB, body: { roleKey: r.roleKey, roleName: 'Same key' } })).body.status).toBe(0);
  });
});
