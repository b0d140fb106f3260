import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dept, Staff } from '@p8/contract/system';
import { admin, adminRole, department, menu } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, unique, uniquePhone, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, expectGuarded, grantCodes, staffWith } from './system-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let roleA: number;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
  roleA = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/role', { token: tokenA, body: { roleKey: 'clerk', roleName: 'Clerk' } })).body.data.id;
});
afterAll(() => ctx.close());

const URL = '/api/admin/security/admin';
const PASSWORD = 'Secret123';

function staffBody(t: { deptId: number }, roleIds: number[], extra: Record<string, unknown> = {}) {
  return { name: `u${unique()}`, password: PASSWORD, realName: 'Zhang San', deptId: t.deptId, roleIds, ...extra };
}

async function addStaff(token: string, body: Record<string, unknown>): Promise<Staff> {
  const res = await call<Staff>(ctx.app, 'POST', URL, { token, body });
  expect(res.body, JSON.stringify(body)).toMatchObject({ status: 0 });
  return res.body.data;
}

async function staffRow(tenantId: number, id: number) {
  const [row] = await ctx.database.withTenant(tenantId, (tx) => tx.select().from(admin).where(and(eq(admin.tenantId, tenantId), eq(admin.id, id))));
  return row;
}

async function addDept(token: string, parentId: number, name: string): Promise<Dept> {
  const res = await call<Dept>(ctx.app, 'POST', '/api/admin/security/dept', { token, body: { parentId, name } });
  expect(res.body.status).toBe(0);
  return res.body.data;
}

describe(`staff accounts (${TEST_DB})`, () => {
  it('creates an account that can sign in, with its roles, and never returns the password hash', async () => {
    const phone = uniquePhone();
    const created = await addStaff(tokenA, staffBody(a, [roleA], { nickName: 'San', sex: 1, phone, email: 'zs@example.com', avatar: '/a.png', remark: 'new' }));
    expect(created).toMatchObject({ realName: 'Zhang San', nickName: 'San', sex: 1, phone, email: 'zs@example.com', avatar: '/a.png', remark: 'new', deptId: a.deptId, deptName: a.tenantName, roleIds: [roleA], enabled: true, isLock: false, isDefault: false, createdBy: a.adminId });
    expect(created.roles).toEqual([{ id: roleA, roleKey: 'clerk', roleName: 'Clerk' }]);
    expect(await login(ctx.app, created.name, PASSWORD)).toBeTruthy();

    const detail = await call<Staff>(ctx.app, 'GET', `${URL}/${created.id}`, { token: tokenA });
    const list = await call<Staff[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: tokenA });
    for (const body of [JSON.stringify(created), JSON.stringify(detail.body), JSON.stringify(list.body)]) {
      expect(body).not.toMatch(/password|argon2/i);
    }
    const [entry] = await auditEntries(ctx, a.tenantId, 'staff');
    expect(entry).toMatchObject({ action: 'create', entityId: String(created.id) });
    expect(JSON.stringify(entry.detail)).not.toContain(PASSWORD);
  });

  it('validates the account with catalogued messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: undefined }, 'PleaseInputAccount'],
      [{ name: '1bad' }, 'AccountFormatError'],
      [{ password: undefined }, 'PleaseInputPassword'],
      [{ password: 'short' }, 'PasswordFormatError'],
      [{ roleIds: [] }, 'PleaseSelectRole'],
      [{ deptId: undefined }, 'PleaseSelectDept'],
      [{ realName: '' }, 'PleaseInputRealName'],
      [{ roleIds: undefined }, 'PleaseSelectRole'],
      [{ phone: '123' }, 'PhoneFormatError'],
      [{ email: 'x@' }, 'EmailFormatError'],
      [{ deptId: 999999999 }, 'DeptNotExist'],
      [{ roleIds: [999999999] }, 'RoleNotExist'],
    ];
    for (const [change, key] of cases) {
      const res = await call(ctx.app, 'POST', URL, { token: tokenA, body: staffBody(a, [roleA], change) });
      expect(res.body, key).toMatchObject({ status: 40001, message: key });
    }
  });

  it('keeps names and phones unique across tenants (AdminExist, PhoneIsRegistered)', async () => {
    const b = await seedTenant(ctx.database, 'B');
    const byName = await call(ctx.app, 'POST', URL, { token: tokenA, body: staffBody(a, [roleA], { name: b.name.toUpperCase() }) });
    expect(byName.body).toMatchObject({ status: 40001, message: 'AdminExist' });
    const byPhone = await call(ctx.app, 'POST', URL, { token: tokenA, body: staffBody(a, [roleA], { phone: b.phone }) });
    expect(byPhone.body).toMatchObject({ status: 40001, message: 'PhoneIsRegistered' });

    const phone = uniquePhone();
    const s = await addStaff(tokenA, staffBody(a, [roleA], { phone }));
    const keep = await call<Staff>(ctx.app, 'PUT', URL, { token: tokenA, body: { id: s.id, name: s.name, phone, realName: 'Li Si' } });
    expect(keep.body.data).toMatchObject({ name: s.name, phone, realName: 'Li Si' });
    const rename = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: s.id, name: a.name } });
    expect(rename.body.message).toBe('AdminExist');
    const rephone = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: s.id, phone: a.phone } });
    expect(rephone.body.message).toBe('PhoneIsRegistered');
    expect(await staffRow(a.tenantId, s.id)).toMatchObject({ name: s.name, phone });
  });

  it('updates department and roles, recording what changed', async () => {
    const dept = await addDept(tokenA, a.deptId, `Team ${unique()}`);
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    const res = await call<Staff>(ctx.app, 'PUT', URL, { token: tokenA, body: { id: s.id, deptId: dept.id, roleIds: [roleA, a.roleId] } });
    expect(res.body.data).toMatchObject({ deptId: dept.id, deptName: dept.name });
    expect([...res.body.data.roleIds].sort()).toEqual([roleA, a.roleId].sort());
    const [entry] = await auditEntries(ctx, a.tenantId, 'staff');
    expect(entry).toMatchObject({ action: 'update', entityId: String(s.id), detail: { deptId: { from: a.deptId, to: dept.id } } });
    expect(Object.keys(entry.detail as object).sort()).toEqual(['deptId', 'roleIds']);
  });

  it('filters, sorts and pages the list, loading every row’s roles', async () => {
    const t = await seedTenant(ctx.database, 'L');
    const token = await login(ctx.app, t.name, t.password);
    const role = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/role', { token, body: { roleKey: 'picker', roleName: 'Picker' } })).body.data.id;
    const parent = await addDept(token, t.deptId, 'Warehouse');
    const child = await addDept(token, parent.id, 'Dock');
    const phone = uniquePhone();
    const inParent = await addStaff(token, staffBody({ deptId: parent.id }, [role], { realName: 'Wang Wu', phone }));
    const inChild = await addStaff(token, staffBody({ deptId: child.id }, [role], { realName: 'Zhao Liu' }));
    const disabled = await addStaff(token, staffBody({ deptId: child.id }, [role], { realName: 'Qian Qi' }));
    await call(ctx.app, 'PUT', `${URL}/enable`, { token, body: { ids: [disabled.id], enabled: false } });

    const ids = async (query: string) => (await call<Staff[]>(ctx.app, 'GET', `${URL}?${query}`, { token })).body.data.map((s) => s.id);
    expect(await ids(`deptId=${parent.id}`)).toEqual([inParent.id]);
    expect(await ids(`deptId=${parent.id}&includeChild=1`)).toEqual([disabled.id, inChild.id, inParent.id]);
    expect(await ids(`deptId=${parent.id}&includeChild=1&enabled=1`)).toEqual([inChild.id, inParent.id]);
    expect(await ids('realName=wu')).toEqual([inParent.id]);
    expect(await ids(`phone=${phone.slice(3)}`)).toEqual([inParent.id]);
    expect(await ids(`roleId=${role}&realNameSort=asc`)).toEqual([disabled.id, inParent.id, inChild.id]);
    expect(await ids(`name=${inChild.name}`)).toEqual([inChild.id]);
    const page = await call<Staff[]>(ctx.app, 'GET', `${URL}?roleId=${role}&pageSize=2&current=2`, { token });
    expect(page.body.pagination).toEqual({ current: 2, pageSize: 2, total: 3 });
    expect(page.body.data.map((s) => s.id)).toEqual([inParent.id]);
    expect(page.body.data[0].roles).toEqual([{ id: role, roleKey: 'picker', roleName: 'Picker' }]);
    expect((await call(ctx.app, 'GET', `${URL}?deptId=abc`, { token })).body).toMatchObject({ status: 40001, additional: 'deptId' });
  });

  it('protects the default administrator and yourself from deletion, disabling and locking', async () => {
    // A second super administrator acts on the default one.
    const other = await addStaff(tokenA, staffBody(a, [a.roleId]));
    const otherToken = await login(ctx.app, other.name, PASSWORD);
    for (const [method, url, body] of [
      ['DELETE', URL, { ids: [a.adminId] }],
      ['PUT', `${URL}/enable`, { ids: [a.adminId], enabled: false }],
      ['PUT', `${URL}/lock`, { ids: [a.adminId], locked: true }],
    ] as const) {
      const res = await call(ctx.app, method, url, { token: otherToken, body });
      expect(res.body, url).toMatchObject({ status: 40001, message: 'DefaultAdminProhibitDelete' });
    }
    const self = await call(ctx.app, 'DELETE', URL, { token: otherToken, body: { ids: [other.id] } });
    expect(self.body).toMatchObject({ status: 40001, message: 'CannotDeleteSelf' });
    const disableSelf = await call(ctx.app, 'PUT', `${URL}/enable`, { token: otherToken, body: { ids: [other.id], enabled: false } });
    expect(disableSelf.body.message).toBe('CannotDisableSelf');
    const lockSelf = await call(ctx.app, 'PUT', `${URL}/lock`, { token: otherToken, body: { ids: [other.id], locked: true } });
    expect(lockSelf.body.message).toBe('CannotDisableSelf');
    expect(await staffRow(a.tenantId, a.adminId)).toMatchObject({ enabled: true, isLock: false });
    expect(await staffRow(a.tenantId, other.id)).toMatchObject({ enabled: true, isLock: false });
  });

  it('disabling or locking signs the account out and keeps it out until enabled or unlocked', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    const session = await login(ctx.app, s.name, PASSWORD);
    await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenA, body: { ids: [s.id], enabled: false } });
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: session })).body.status).toBe(40100);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: s.name, password: PASSWORD } })).body.message).toBe('AdminIsLock');
    await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenA, body: { ids: [s.id], enabled: true } });
    const again = await login(ctx.app, s.name, PASSWORD);

    expect((await call(ctx.app, 'PUT', `${URL}/lock`, { token: tokenA, body: { ids: [s.id], locked: true } })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: again })).body.status).toBe(40100);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: s.name, password: PASSWORD } })).body.message).toBe('AdminIsLock');
    await call(ctx.app, 'PUT', `${URL}/lock`, { token: tokenA, body: { ids: [s.id], locked: false } });
    expect(await login(ctx.app, s.name, PASSWORD)).toBeTruthy();
    const actions = (await auditEntries(ctx, a.tenantId, 'staff')).slice(0, 4).map((e) => e.action);
    expect(actions).toEqual(['unlock', 'lock', 'enable', 'disable']);
  });

  it('resets a password: the old sessions end and only the new password signs in', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    const session = await login(ctx.app, s.name, PASSWORD);
    const weak = await call(ctx.app, 'PUT', `${URL}/reset`, { token: tokenA, body: { id: s.id, password: 'abc' } });
    expect(weak.body.message).toBe('PasswordFormatError');
    expect((await call(ctx.app, 'PUT', `${URL}/reset`, { token: tokenA, body: { id: s.id, password: 'Fresh4567' } })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: session })).body.status).toBe(40100);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: s.name, password: PASSWORD } })).body.message).toBe('PasswordError');
    expect(await login(ctx.app, s.name, 'Fresh4567')).toBeTruthy();
    const [entry] = await auditEntries(ctx, a.tenantId, 'staff');
    expect(entry).toMatchObject({ action: 'reset-password', entityId: String(s.id), detail: null });
  });

  it("refuses to reset the caller's own password, super administrator included: that needs the old password", async () => {
    const res = await call(ctx.app, 'PUT', `${URL}/reset`, { token: tokenA, body: { id: a.adminId, password: 'Stolen123' } });
    expect(res.body.message).toBe('CannotResetOwnPassword');
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: tokenA })).body.status).toBe(0);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: a.name, password: 'Stolen123' } })).body.message).toBe('PasswordError');
    expect(await login(ctx.app, a.name, a.password)).toBeTruthy();
  });

  it('switches new-order and SMS notifications', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    expect((await call(ctx.app, 'PUT', `${URL}/newOrderNotify`, { token: tokenA, body: { id: s.id, enabled: true } })).body.status).toBe(0);
    expect((await call(ctx.app, 'PUT', `${URL}/updateSmsNotify`, { token: tokenA, body: { id: s.id, enabled: true } })).body.status).toBe(0);
    expect((await call<Staff>(ctx.app, 'GET', `${URL}/${s.id}`, { token: tokenA })).body.data).toMatchObject({ newOrderNotify: true, smsNotify: true });
    const [entry] = await auditEntries(ctx, a.tenantId, 'staff');
    expect(entry).toMatchObject({ action: 'notify', detail: { smsNotify: true } });
  });

  it('deletes accounts with their roles and sessions, and clears them as department leaders', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    const session = await login(ctx.app, s.name, PASSWORD);
    const led = await call<Dept>(ctx.app, 'POST', '/api/admin/security/dept', { token: tokenA, body: { parentId: a.deptId, name: `Led ${unique()}`, leaderId: s.id } });
    expect((await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [s.id] } })).body.status).toBe(0);
    expect(await staffRow(a.tenantId, s.id)).toBeUndefined();
    const roles = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(adminRole).where(and(eq(adminRole.tenantId, a.tenantId), eq(adminRole.adminId, s.id))));
    expect(roles).toEqual([]);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: session })).body.status).toBe(40100);
    const [dept] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(department).where(and(eq(department.tenantId, a.tenantId), eq(department.id, led.body.data.id))));
    expect(dept.leaderId).toBeNull();
    const [entry] = await auditEntries(ctx, a.tenantId, 'staff');
    expect(entry).toMatchObject({ action: 'delete', entityId: String(s.id), detail: { names: [s.name] } });
  });
});

describe(`staff data scope (${TEST_DB})`, () => {
  /*
   * Tenant S: departments North (with sub-department North-1) and South; one staff member in each, and
   * one in South created by the viewer. Each viewer holds a single role of the scope under test.
   */
  let t: TestTenant;
  let north: Dept;
  let north1: Dept;
  let south: Dept;
  let inNorth: Staff;
  let inNorth1: Staff;
  let inSouth: Staff;
  let token: string;
  let clerk: number;
  beforeAll(async () => {
    t = await seedTenant(ctx.database, 'S');
    token = await login(ctx.app, t.name, t.password);
    clerk = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/role', { token, body: { roleKey: 'clerk', roleName: 'Clerk' } })).body.data.id;
    // Clerks see their own data only: within every viewer's reach, so only the viewer's scope decides.
    expect((await call(ctx.app, 'PUT', '/api/admin/security/role/scope', { token, body: { id: clerk, dataScope: 'Self' } })).body.status).toBe(0);
    north = await addDept(token, t.deptId, 'North');
    north1 = await addDept(token, north.id, 'North-1');
    south = await addDept(token, t.deptId, 'South');
    inNorth = await addStaff(token, staffBody({ deptId: north.id }, [clerk]));
    inNorth1 = await addStaff(token, staffBody({ deptId: north1.id }, [clerk]));
    inSouth = await addStaff(token, staffBody({ deptId: south.id }, [clerk]));
  });

  async function visible(viewerToken: string) {
    const res = await call<Staff[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: viewerToken });
    expect(res.body.status).toBe(0);
    return res.body.data.map((s) => s.id).sort((x, y) => x - y);
  }
  const sorted = (...ids: number[]) => ids.sort((x, y) => x - y);
  const detailStatus = async (viewerToken: string, id: number) => (await call(ctx.app, 'GET', `${URL}/${id}`, { token: viewerToken })).body.message;

  /** A viewer in `deptId` with one role of `scope`, and one staff member in South that the viewer created. */
  async function viewer(scope: 'All' | 'Custom' | 'Dept' | 'Self', deptId: number, scopeDeptIds: number[] = []) {
    const v = await staffWith(ctx, t, { codes: ['system_staff'], dataScope: scope, scopeDeptIds, deptId });
    const [mine] = await ctx.database.withTenant(t.tenantId, (tx) =>
      tx.insert(admin).values({ tenantId: t.tenantId, name: `own${unique()}`, passwordHash: 'x', realName: 'Own', deptId: south.id, createdBy: v.adminId }).returning({ id: admin.id }),
    );
    return { ...v, ownId: mine.id };
  }

  it('All: sees every account of the tenant', async () => {
    const v = await viewer('All', north.id);
    const all = await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: admin.id }).from(admin).where(eq(admin.tenantId, t.tenantId)));
    expect(await visible(v.token)).toEqual(all.map((x) => x.id).sort((x, y) => x - y));
    expect(await detailStatus(v.token, inSouth.id)).toBe('Success');
  });

  it('Custom: sees the chosen departments, itself and what it created', async () => {
    const v = await viewer('Custom', north.id, [north1.id]);
    expect(await visible(v.token)).toEqual(sorted(inNorth1.id, v.adminId, v.ownId));
    expect(await detailStatus(v.token, inNorth1.id)).toBe('Success');
    expect(await detailStatus(v.token, inNorth.id)).toBe('AdminNotExist');
    expect(await detailStatus(v.token, inSouth.id)).toBe('AdminNotExist');
  });

  it('Dept: sees its own department (not sub-departments), itself and what it created', async () => {
    const v = await viewer('Dept', north.id);
    // Earlier viewers sit in North too.
    const northStaff = await ctx.database.withTenant(t.tenantId, (tx) =>
      tx.select({ id: admin.id }).from(admin).where(and(eq(admin.tenantId, t.tenantId), eq(admin.deptId, north.id))),
    );
    expect(northStaff.map((x) => x.id)).toContain(inNorth.id);
    expect(await visible(v.token)).toEqual(sorted(...northStaff.map((x) => x.id), v.ownId));
    expect(await detailStatus(v.token, inNorth.id)).toBe('Success');
    expect(await detailStatus(v.token, inNorth1.id)).toBe('AdminNotExist');
    expect(await detailStatus(v.token, inSouth.id)).toBe('AdminNotExist');
  });

  it('Self: sees only itself and what it created', async () => {
    const v = await viewer('Self', north.id);
    expect(await visible(v.token)).toEqual(sorted(v.adminId, v.ownId));
    expect(await detailStatus(v.token, v.adminId)).toBe('Success');
    expect(await detailStatus(v.token, v.ownId)).toBe('Success');
    expect(await detailStatus(v.token, inNorth.id)).toBe('AdminNotExist');
  });

  it('cannot change an account outside its scope', async () => {
    const v = await viewer('Dept', north.id);
    await grantCodes(ctx, t.tenantId, v.roleId, ['system_staff_update', 'system_staff_reset_password', 'system_staff_enable']);
    const before = await staffRow(t.tenantId, inSouth.id);
    expect((await call(ctx.app, 'PUT', URL, { token: v.token, body: { id: inSouth.id, realName: 'Hijacked' } })).body.message).toBe('AdminNotExist');
    expect((await call(ctx.app, 'PUT', `${URL}/reset`, { token: v.token, body: { id: inSouth.id, password: 'Hijack123' } })).body.message).toBe('AdminNotExist');
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: v.token, body: { ids: [inSouth.id], enabled: false } })).body.message).toBe('AdminNotExist');
    expect(await staffRow(t.tenantId, inSouth.id)).toEqual(before);
    expect((await call(ctx.app, 'PUT', URL, { token: v.token, body: { id: inNorth.id, realName: 'Renamed' } })).body.status).toBe(0);
  });
});

describe(`staff privileges (${TEST_DB})`, () => {
  it('an ordinary administrator can neither hand out the super role nor change a super administrator', async () => {
    const manager = await staffWith(ctx, a, { codes: ['system_staff_add', 'system_staff_update', 'system_staff_reset_password', 'system_staff_enable'] });
    const grantSuper = await call(ctx.app, 'POST', URL, { token: manager.token, body: staffBody(a, [a.roleId]) });
    expect(grantSuper.httpStatus).toBe(403);
    expect(grantSuper.body).toMatchObject({ status: 40300, message: 'Forbidden' });
    const promoteSelf = await call(ctx.app, 'PUT', URL, { token: manager.token, body: { id: manager.adminId, roleIds: [a.roleId] } });
    expect(promoteSelf.body.status).toBe(40300);
    const before = await staffRow(a.tenantId, a.adminId);
    const reset = await call(ctx.app, 'PUT', `${URL}/reset`, { token: manager.token, body: { id: a.adminId, password: 'Takeover1' } });
    expect(reset.body.status).toBe(40300);
    const edit = await call(ctx.app, 'PUT', URL, { token: manager.token, body: { id: a.adminId, phone: uniquePhone() } });
    expect(edit.body.status).toBe(40300);
    expect(await staffRow(a.tenantId, a.adminId)).toEqual(before);
    // Ordinary roles are theirs to hand out.
    expect((await call(ctx.app, 'POST', URL, { token: manager.token, body: staffBody(a, [roleA]) })).body.status).toBe(0);
  });

  it('an ordinary administrator hands out only roles that grant what they hold themselves (PermissionBeyondOwn)', async () => {
    const manager = await staffWith(ctx, a, { codes: ['system_staff_add', 'system_staff_update'] });
    const wide = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/role', { token: tokenA, body: { roleKey: `wide${unique()}`, roleName: 'Wide' } })).body.data.id;
    const [setting] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, a.tenantId), eq(menu.name, 'system_setting_update'))));
    expect((await call(ctx.app, 'PUT', '/api/admin/security/role/permission', { token: tokenA, body: { id: wide, menuIds: [setting.id] } })).body.status).toBe(0);

    const create = await call(ctx.app, 'POST', URL, { token: manager.token, body: staffBody(a, [wide]) });
    expect(create.httpStatus).toBe(403);
    expect(create.body).toMatchObject({ status: 40300, message: 'PermissionBeyondOwn', additional: 'system_setting_update' });
    const promoteSelf = await call(ctx.app, 'PUT', URL, { token: manager.token, body: { id: manager.adminId, roleIds: [manager.roleId, wide] } });
    expect(promoteSelf.body).toMatchObject({ status: 40300, message: 'PermissionBeyondOwn' });
    const held = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ roleId: adminRole.roleId }).from(adminRole).where(and(eq(adminRole.tenantId, a.tenantId), eq(adminRole.adminId, manager.adminId))));
    expect(held.map((h) => h.roleId)).toEqual([manager.roleId]);

    // An account that already holds such a role is beyond the manager's reach altogether (system-reach.test.ts).
    const holder = (await call<{ id: number }>(ctx.app, 'POST', URL, { token: tokenA, body: staffBody(a, [wide]) })).body.data.id;
    expect((await call(ctx.app, 'PUT', URL, { token: manager.token, body: { id: holder, roleIds: [wide], realName: 'Kept' } })).body).toMatchObject({ status: 40300, message: 'AccountBeyondOwn' });
  });
});

describe(`staff permissions (${TEST_DB})`, () => {
  const count = async () => (await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: admin.id }).from(admin).where(eq(admin.tenantId, a.tenantId)))).length;

  it('needs system_staff_add to create', async () => {
    await expectGuarded(ctx, a, { method: 'POST', url: URL, code: 'system_staff_add', body: () => staffBody(a, [roleA]), snapshot: count });
  });

  it('needs system_staff_update to update', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    await expectGuarded(ctx, a, { method: 'PUT', url: URL, code: 'system_staff_update', body: () => ({ id: s.id, realName: `R${unique()}` }), snapshot: () => staffRow(a.tenantId, s.id) });
  });

  it('needs system_staff_delete to delete', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    await expectGuarded(ctx, a, { method: 'DELETE', url: URL, code: 'system_staff_delete', body: () => ({ ids: [s.id] }), snapshot: () => staffRow(a.tenantId, s.id) });
  });

  it('needs system_staff_reset_password to reset a password', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/reset`, code: 'system_staff_reset_password', body: () => ({ id: s.id, password: 'Other1234' }), snapshot: () => staffRow(a.tenantId, s.id) });
  });

  it('needs system_staff_enable to enable or disable, and to lock or unlock', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/enable`, code: 'system_staff_enable', body: () => ({ ids: [s.id], enabled: false }), snapshot: () => staffRow(a.tenantId, s.id) });
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/lock`, code: 'system_staff_enable', body: () => ({ ids: [s.id], locked: true }), snapshot: () => staffRow(a.tenantId, s.id) });
  });

  it('needs system_staff_notify to switch notifications', async () => {
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/newOrderNotify`, code: 'system_staff_notify', body: () => ({ id: s.id, enabled: true }), snapshot: () => staffRow(a.tenantId, s.id) });
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/updateSmsNotify`, code: 'system_staff_notify', body: () => ({ id: s.id, enabled: true }), snapshot: () => staffRow(a.tenantId, s.id) });
  });
});

describe(`staff tenant isolation (${TEST_DB})`, () => {
  it("cannot read, change, reset, switch or delete another tenant's account by id", async () => {
    const b = await seedTenant(ctx.database, 'B');
    const tokenB = await login(ctx.app, b.name, b.password);
    const s = await addStaff(tokenA, staffBody(a, [roleA]));
    const before = await staffRow(a.tenantId, s.id);
    const refused = [
      await call(ctx.app, 'GET', `${URL}/${s.id}`, { token: tokenB }),
      await call(ctx.app, 'PUT', URL, { token: tokenB, body: { id: s.id, realName: 'Stolen' } }),
      await call(ctx.app, 'PUT', `${URL}/reset`, { token: tokenB, body: { id: s.id, password: 'Stolen123' } }),
      await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenB, body: { ids: [s.id], enabled: false } }),
      await call(ctx.app, 'PUT', `${URL}/lock`, { token: tokenB, body: { ids: [s.id], locked: true } }),
      await call(ctx.app, 'PUT', `${URL}/newOrderNotify`, { token: tokenB, body: { id: s.id, enabled: true } }),
      await call(ctx.app, 'DELETE', URL, { token: tokenB, body: { ids: [s.id] } }),
    ];
    for (const res of refused) expect(res.body).toMatchObject({ status: 40001, message: 'AdminNotExist' });
    const list = await call<Staff[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: tokenB });
    expect(list.body.data.map((x) => x.id)).not.toContain(s.id);
    // Nor put its own staff into A's department or roles.
    expect((await call(ctx.app, 'POST', URL, { token: tokenB, body: staffBody(a, [b.roleId]) })).body.message).toBe('DeptNotExist');
    expect((await call(ctx.app, 'POST', URL, { token: tokenB, body: staffBody(b, [roleA]) })).body.message).toBe('RoleNotExist');
    expect(await staffRow(a.tenantId, s.id)).toEqual(before);
    // A still signs in with the old password.
    expect(await login(ctx.app, s.name, PASSWORD)).toBeTruthy();
  });
});

describe('colleague options for pickers', () => {
  it('lists every enabled colleague with name and department only, whatever the data scope', async () => {
    {
      const t = await seedTenant(ctx.database);
      const staff = await seedStaff(ctx.database, t); // data scope Self
      const token = await login(ctx.app, staff.name, staff.password);
      // A picker: read by who holds a screen that picks colleagues (here the messages screen), by nobody else.
      expect((await call(ctx.app, 'GET', '/api/admin/security/admin/options', { token })).body.status).toBe(40300);
      await grantCodes(ctx, t.tenantId, staff.roleId, ['system_message']);
      const res = await call<Array<Record<string, unknown>>>(ctx.app, 'GET', `/api/admin/security/admin/options?notInId=${staff.adminId}`, { token });
      expect(res.body.status).toBe(0);
      expect(res.body.data.map((o) => o.id)).toEqual([t.adminId]);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['deptId', 'deptName', 'id', 'name', 'realName']);
      const searched = await call<unknown[]>(ctx.app, 'GET', `/api/admin/security/admin/options?keyword=${encodeURIComponent(staff.name)}`, { token });
      expect(searched.body.data).toHaveLength(1);
    }
  });
});
