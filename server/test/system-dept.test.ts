import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dept, DeptNode } from '@p8/contract/system';
import { department, role } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, expectGuarded, staffWith } from './system-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
});
afterAll(() => ctx.close());

const URL = '/api/admin/security/dept';

async function addDept(token: string, body: Record<string, unknown>): Promise<Dept> {
  const res = await call<Dept>(ctx.app, 'POST', URL, { token, body });
  expect(res.body, JSON.stringify(body)).toMatchObject({ status: 0 });
  return res.body.data;
}

async function deptRow(tenantId: number, id: number) {
  const [row] = await ctx.database.withTenant(tenantId, (tx) =>
    tx.select().from(department).where(and(eq(department.tenantId, tenantId), eq(department.id, id))),
  );
  return row;
}

describe(`departments (${TEST_DB})`, () => {
  it('creates a department under a parent with a leader, and serves it in the list, the tree and by id', async () => {
    const sales = await addDept(tokenA, { parentId: a.deptId, name: 'Sales', leaderId: a.adminId, phone: '010-12345678', email: 'sales@example.com', sort: 2, remark: 'front' });
    expect(sales).toMatchObject({ parentId: a.deptId, name: 'Sales', leaderId: a.adminId, leaderName: a.name, phone: '010-12345678', email: 'sales@example.com', sort: 2, remark: 'front', enabled: true, isDefault: false });
    const east = await addDept(tokenA, { parentId: sales.id, name: 'East', sort: 1 });
    expect(east.parentName).toBe('Sales');

    const one = await call<Dept>(ctx.app, 'GET', `${URL}/${east.id}`, { token: tokenA });
    expect(one.body.data).toMatchObject({ id: east.id, name: 'East', parentId: sales.id });

    const list = await call<Dept[]>(ctx.app, 'GET', `${URL}?name=ale&pageSize=10`, { token: tokenA });
    expect(list.body.data.map((d) => d.name)).toEqual(['Sales']);
    expect(list.body.pagination).toEqual({ current: 1, pageSize: 10, total: 1 });

    const tree = await call<DeptNode[]>(ctx.app, 'GET', `${URL}/tree`, { token: tokenA });
    expect(tree.body.data).toHaveLength(1);
    const root = tree.body.data[0];
    expect(root).toMatchObject({ id: a.deptId, isDefault: true });
    const salesNode = root.children!.find((d) => d.id === sales.id)!;
    expect(salesNode.children!.map((d) => d.name)).toEqual(['East']);

    const [entry] = await auditEntries(ctx, a.tenantId, 'dept');
    expect(entry).toMatchObject({ action: 'create', entity: 'dept', entityId: String(east.id), adminId: a.adminId, adminName: a.name });
  });

  it('validates fields with catalogued messages', async () => {
    const noName = await call(ctx.app, 'POST', URL, { token: tokenA, body: { parentId: a.deptId, name: ' ' } });
    expect(noName.body).toMatchObject({ status: 40001, message: 'PleaseInputDeptName', additional: 'name' });
    const badMail = await call(ctx.app, 'POST', URL, { token: tokenA, body: { name: 'Mail', email: 'nope' } });
    expect(badMail.body).toMatchObject({ status: 40001, message: 'EmailFormatError' });
    const noParent = await call(ctx.app, 'POST', URL, { token: tokenA, body: { parentId: 999999999, name: 'Orphan' } });
    expect(noParent.body).toMatchObject({ status: 40001, message: 'DeptNotExist' });
  });

  it('keeps names unique among siblings (NameRepeat), but not across parents', async () => {
    const parent = await addDept(tokenA, { parentId: a.deptId, name: 'Plant' });
    const other = await addDept(tokenA, { parentId: a.deptId, name: 'Office' });
    await addDept(tokenA, { parentId: parent.id, name: 'Workshop' });
    const repeat = await call(ctx.app, 'POST', URL, { token: tokenA, body: { parentId: parent.id, name: 'workshop' } });
    expect(repeat.body).toMatchObject({ status: 40001, message: 'NameRepeat', additional: 'workshop' });
    await addDept(tokenA, { parentId: other.id, name: 'Workshop' });
    // Moving or renaming into a clash is refused too.
    const sibling = await addDept(tokenA, { parentId: parent.id, name: 'Store' });
    const rename = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: sibling.id, name: 'Workshop' } });
    expect(rename.body.message).toBe('NameRepeat');
    expect((await deptRow(a.tenantId, sibling.id)).name).toBe('Store');
  });

  it('takes a leader only from the staff of the same tenant', async () => {
    const b = await seedTenant(ctx.database, 'B');
    const foreign = await call(ctx.app, 'POST', URL, { token: tokenA, body: { parentId: a.deptId, name: 'Led', leaderId: b.adminId } });
    expect(foreign.body).toMatchObject({ status: 40001, message: 'AdminNotExist' });
  });

  it('refuses a parent that is the department itself or one of its descendants (ParentCannotBeSelf)', async () => {
    const top = await addDept(tokenA, { parentId: a.deptId, name: 'Top' });
    const mid = await addDept(tokenA, { parentId: top.id, name: 'Mid' });
    const low = await addDept(tokenA, { parentId: mid.id, name: 'Low' });
    const self = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: top.id, parentId: top.id } });
    expect(self.body).toMatchObject({ status: 40001, message: 'ParentCannotBeSelf' });
    const descendant = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: top.id, parentId: low.id } });
    expect(descendant.body).toMatchObject({ status: 40001, message: 'ParentCannotBeSelf' });
    expect((await deptRow(a.tenantId, top.id)).parentId).toBe(a.deptId);

    const moved = await call<Dept>(ctx.app, 'PUT', URL, { token: tokenA, body: { id: low.id, parentId: top.id, remark: 'moved up' } });
    expect(moved.body.data).toMatchObject({ parentId: top.id, name: 'Low', remark: 'moved up' });
    const [entry] = await auditEntries(ctx, a.tenantId, 'dept');
    expect(entry).toMatchObject({ action: 'update', entityId: String(low.id), detail: { parentId: { from: mid.id, to: top.id }, remark: { from: '', to: 'moved up' } } });
  });

  it('never deletes the default department, one with sub-departments or one with staff', async () => {
    const fixed = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [a.deptId] } });
    expect(fixed.body).toMatchObject({ status: 40001, message: 'DefaultDeptProhibitDelete' });

    const parent = await addDept(tokenA, { parentId: a.deptId, name: 'Parent' });
    const child = await addDept(tokenA, { parentId: parent.id, name: 'Child' });
    const withChild = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [parent.id] } });
    expect(withChild.body).toMatchObject({ status: 40001, message: 'DeptHasChildrenProhibitDelete', additional: 'Parent' });

    const staffed = await addDept(tokenA, { parentId: a.deptId, name: 'Staffed' });
    await staffWith(ctx, a, { deptId: staffed.id });
    const inUse = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [staffed.id] } });
    expect(inUse.body).toMatchObject({ status: 40001, message: 'DeptInUseProhibitDelete', additional: 'Staffed' });
    expect(await deptRow(a.tenantId, parent.id)).toBeTruthy();
    expect(await deptRow(a.tenantId, staffed.id)).toBeTruthy();

    // A parent deleted together with its children is fine; custom data scopes forget them.
    const [scoped] = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.insert(role).values({ tenantId: a.tenantId, roleKey: 'scoped', roleName: 'Scoped', dataScope: 'Custom', scopeDeptIds: [a.deptId, child.id] }).returning(),
    );
    const both = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [child.id, parent.id] } });
    expect(both.body.status).toBe(0);
    expect(await deptRow(a.tenantId, parent.id)).toBeUndefined();
    const [after] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(role).where(and(eq(role.tenantId, a.tenantId), eq(role.id, scoped.id))));
    expect(after.scopeDeptIds).toEqual([a.deptId]);
    const [entry] = await auditEntries(ctx, a.tenantId, 'dept');
    expect(entry).toMatchObject({ action: 'delete', entityId: `${child.id},${parent.id}` });
  });

  it('enables and disables departments; the tree can show only enabled ones', async () => {
    const off = await addDept(tokenA, { parentId: a.deptId, name: 'Dormant' });
    const res = await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenA, body: { ids: [off.id], enabled: false } });
    expect(res.body.status).toBe(0);
    expect((await deptRow(a.tenantId, off.id)).enabled).toBe(false);
    const tree = await call<DeptNode[]>(ctx.app, 'GET', `${URL}/tree?enabled=1`, { token: tokenA });
    const names = JSON.stringify(tree.body.data);
    expect(names).not.toContain('Dormant');
    const [entry] = await auditEntries(ctx, a.tenantId, 'dept');
    expect(entry).toMatchObject({ action: 'disable', entityId: String(off.id) });
  });
});

describe(`department permissions (${TEST_DB})`, () => {
  it('needs system_department_add to create', async () => {
    const count = async () => (await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(department).where(eq(department.tenantId, a.tenantId)))).length;
    await expectGuarded(ctx, a, { method: 'POST', url: URL, code: 'system_department_add', body: () => ({ parentId: a.deptId, name: `Guarded ${Math.random()}` }), snapshot: count });
  });

  it('needs system_department_update to update', async () => {
    const d = await addDept(tokenA, { parentId: a.deptId, name: 'To rename' });
    let n = 0;
    await expectGuarded(ctx, a, { method: 'PUT', url: URL, code: 'system_department_update', body: () => ({ id: d.id, name: `Renamed ${++n}` }), snapshot: () => deptRow(a.tenantId, d.id) });
  });

  it('needs system_department_delete to delete', async () => {
    const d = await addDept(tokenA, { parentId: a.deptId, name: 'To delete' });
    await expectGuarded(ctx, a, { method: 'DELETE', url: URL, code: 'system_department_delete', body: () => ({ ids: [d.id] }), snapshot: () => deptRow(a.tenantId, d.id) });
  });

  it('needs system_department_enable to enable or disable', async () => {
    const d = await addDept(tokenA, { parentId: a.deptId, name: 'To disable' });
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/enable`, code: 'system_department_enable', body: () => ({ ids: [d.id], enabled: false }), snapshot: () => deptRow(a.tenantId, d.id) });
  });
});

describe(`department tenant isolation (${TEST_DB})`, () => {
  it("cannot read, update, enable or delete another tenant's department by id", async () => {
    const b = await seedTenant(ctx.database, 'B');
    const tokenB = await login(ctx.app, b.name, b.password);
    const d = await addDept(tokenA, { parentId: a.deptId, name: 'Private' });
    const before = await deptRow(a.tenantId, d.id);

    expect((await call(ctx.app, 'GET', `${URL}/${d.id}`, { token: tokenB })).body).toMatchObject({ status: 40001, message: 'DeptNotExist' });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenB, body: { id: d.id, name: 'Stolen' } })).body.message).toBe('DeptNotExist');
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenB, body: { ids: [d.id], enabled: false } })).body.message).toBe('DeptNotExist');
    expect((await call(ctx.app, 'DELETE', URL, { token: tokenB, body: { ids: [d.id] } })).body.message).toBe('DeptNotExist');
    // Nor hang its own departments under it.
    expect((await call(ctx.app, 'POST', URL, { token: tokenB, body: { parentId: d.id, name: 'Graft' } })).body.message).toBe('DeptNotExist');
    const list = await call<Dept[]>(ctx.app, 'GET', `${URL}?pageSize=200`, { token: tokenB });
    expect(list.body.data.map((x) => x.id)).not.toContain(d.id);

    expect(await deptRow(a.tenantId, d.id)).toEqual(before);
  });
});
