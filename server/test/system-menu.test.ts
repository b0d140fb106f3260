import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentRole } from '@p8/contract/menu';
import type { MenuRow } from '@p8/contract/system';
import { menu, roleMenu } from '../src/db/schema/index.ts';
import { call, login, seedTenant, startTestApp, TEST_DB, unique, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, expectGuarded, grantCodes, staffWith } from './system-fixtures.ts';

let ctx: TestContext;
let a: TestTenant;
let tokenA: string;
let screenId: number;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  tokenA = await login(ctx.app, a.name, a.password);
  screenId = (await addMenu(tokenA, { name: 'demo_screen', path: '/demo/screen', component: 'demo/screen/index', metaTitle: '演示', metaTitleEn: 'Demo', menuType: 'Menu' })).id;
});
afterAll(() => ctx.close());

const URL = '/api/admin/security/menu';

async function addMenu(token: string, body: Record<string, unknown>): Promise<MenuRow> {
  const res = await call<MenuRow>(ctx.app, 'POST', URL, { token, body });
  expect(res.body, JSON.stringify(body)).toMatchObject({ status: 0 });
  return res.body.data;
}

const button = (name: string, parentId = screenId) => ({ parentId, name, metaTitle: name, menuType: 'Button' });

async function menuRow(tenantId: number, id: number) {
  const [row] = await ctx.database.withTenant(tenantId, (tx) => tx.select().from(menu).where(and(eq(menu.tenantId, tenantId), eq(menu.id, id))));
  return row;
}

async function menuIdOf(name: string) {
  const [row] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, a.tenantId), eq(menu.name, name))));
  return row.id;
}

describe(`menus (${TEST_DB})`, () => {
  it('serves the full tree with the buttons of each screen, system screens included', async () => {
    const tree = await call<MenuRow[]>(ctx.app, 'GET', `${URL}/tree`, { token: tokenA });
    const system = tree.body.data.find((m) => m.name === 'system')!;
    expect(system).toMatchObject({ menuType: 'Directory', metaIcon: 'SettingOutlined', metaTitle: '系统管理', metaTitleEn: 'System', isDefault: true });
    // Other system screens (printer, joint review…) live in the same directory; these are the security area's.
    const security = ['system_department', 'system_menu', 'system_role', 'system_staff', 'system_audit'];
    expect(system.children!.filter((m) => security.includes(m.name)).map((m) => [m.name, m.component])).toEqual([
      ['system_department', 'system/department/index'],
      ['system_menu', 'system/menu/index'],
      ['system_role', 'system/role/index'],
      ['system_staff', 'system/staff/index'],
      ['system_audit', 'system/audit/index'],
    ]);
    const roleScreen = system.children!.find((m) => m.name === 'system_role')!;
    expect(roleScreen.children!.map((b) => b.name)).toEqual([
      'system_role_add',
      'system_role_update',
      'system_role_delete',
      'system_role_update_scope',
      'system_role_copy',
      'system_role_copy_batch',
    ]);
    expect(roleScreen.children!.every((b) => b.menuType === 'Button')).toBe(true);
  });

  it('creates a menu item with every field a menu item has and finds it in the paged list', async () => {
    const body = {
      parentId: null,
      path: '/report/sales',
      name: 'report_sales',
      redirect: '/report/sales/day',
      component: 'report/sales/index',
      metaIcon: 'BarChartOutlined',
      metaTitle: '销售报表',
      metaTitleEn: 'Sales report',
      metaActiveMenu: '/report',
      metaIsLink: 'https://example.com',
      metaIsHide: true,
      metaIsFull: true,
      metaIsAffix: true,
      metaIsKeepAlive: false,
      menuType: 'Menu',
      sort: 7,
    };
    const created = await addMenu(tokenA, body);
    expect(created).toMatchObject({ ...body, enabled: true, isDefault: false });
    const one = await call<MenuRow>(ctx.app, 'GET', `${URL}/${created.id}`, { token: tokenA });
    expect(one.body.data).toMatchObject(body);
    const list = await call<MenuRow[]>(ctx.app, 'GET', `${URL}?name=report_&menuType=Menu`, { token: tokenA });
    expect(list.body.data.map((m) => m.name)).toEqual(['report_sales']);
    const [entry] = await auditEntries(ctx, a.tenantId, 'menu');
    expect(entry).toMatchObject({ action: 'create', entityId: String(created.id) });
  });

  it('keeps menu names unique in the tenant (NameRepeat)', async () => {
    const repeat = await call(ctx.app, 'POST', URL, { token: tokenA, body: { name: 'home', path: '/home2', metaTitle: 'Home 2', menuType: 'Menu' } });
    expect(repeat.body).toMatchObject({ status: 40001, message: 'NameRepeat', additional: 'home' });
    const mine = await addMenu(tokenA, button('demo_unique'));
    const rename = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: mine.id, name: 'system_role_add' } });
    expect(rename.body.message).toBe('NameRepeat');
  });

  it('hangs a button only under a screen, nothing under a button, and needs a path for screens', async () => {
    const loose = await call(ctx.app, 'POST', URL, { token: tokenA, body: { name: 'loose_button', metaTitle: 'x', menuType: 'Button' } });
    expect(loose.body).toMatchObject({ status: 40001, message: 'PleaseSelectParent' });
    const underDirectory = await call(ctx.app, 'POST', URL, { token: tokenA, body: button('dir_button', await menuIdOf('system')) });
    expect(underDirectory.body.message).toBe('PleaseSelectParent');
    const b = await addMenu(tokenA, button('demo_parent_button'));
    const underButton = await call(ctx.app, 'POST', URL, { token: tokenA, body: button('nested_button', b.id) });
    expect(underButton.body.message).toBe('PleaseSelectParent');
    const noPath = await call(ctx.app, 'POST', URL, { token: tokenA, body: { name: 'no_path', metaTitle: 'x', menuType: 'Menu' } });
    expect(noPath.body).toMatchObject({ status: 40001, message: 'PleaseInputMenuPath' });
    const badType = await call(ctx.app, 'POST', URL, { token: tokenA, body: { name: 'bad_type', path: '/x', metaTitle: 'x', menuType: 'Page' } });
    expect(badType.body).toMatchObject({ status: 40001, additional: 'menuType' });
  });

  it('refuses a parent that is the item itself or one of its descendants (ParentCannotBeSelf)', async () => {
    const dir = await addMenu(tokenA, { name: 'demo_dir', path: '/demo', metaTitle: 'Dir', menuType: 'Directory' });
    const inner = await addMenu(tokenA, { parentId: dir.id, name: 'demo_inner', path: '/demo/inner', metaTitle: 'Inner', menuType: 'Directory' });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: dir.id, parentId: dir.id } })).body.message).toBe('ParentCannotBeSelf');
    expect((await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: dir.id, parentId: inner.id } })).body.message).toBe('ParentCannotBeSelf');
    expect((await menuRow(a.tenantId, dir.id)).parentId).toBeNull();
  });

  it('keeps template items: undeletable (DefaultMenuProhibitDelete), name and type fixed, titles editable', async () => {
    const homeId = await menuIdOf('home');
    const del = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [homeId] } });
    expect(del.body).toMatchObject({ status: 40001, message: 'DefaultMenuProhibitDelete', additional: 'home' });
    const rename = await call(ctx.app, 'PUT', URL, { token: tokenA, body: { id: homeId, name: 'start' } });
    expect(rename.body).toMatchObject({ status: 40001, message: 'DefaultMenuProhibitChangeKey' });
    const retitle = await call<MenuRow>(ctx.app, 'PUT', URL, { token: tokenA, body: { id: homeId, metaTitle: '工作台', metaIcon: 'DashboardOutlined', sort: 1 } });
    expect(retitle.body.data).toMatchObject({ name: 'home', metaTitle: '工作台', metaTitleEn: 'Home', metaIcon: 'DashboardOutlined', sort: 1 });
    const [entry] = await auditEntries(ctx, a.tenantId, 'menu');
    expect(entry).toMatchObject({ action: 'update', entityId: String(homeId), detail: { metaTitle: { from: '首页', to: '工作台' } } });
  });

  it('never deletes a menu with children (MenuHasChildrenProhibitDelete); deleting both drops their grants', async () => {
    const screen = await addMenu(tokenA, { name: 'demo_delete_screen', path: '/demo/delete', metaTitle: 'Del', menuType: 'Menu' });
    const b = await addMenu(tokenA, button('demo_delete_button', screen.id));
    const held = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [screen.id] } });
    expect(held.body).toMatchObject({ status: 40001, message: 'MenuHasChildrenProhibitDelete', additional: 'demo_delete_screen' });
    expect(await menuRow(a.tenantId, screen.id)).toBeTruthy();

    const staff = await staffWith(ctx, a);
    await grantCodes(ctx, a.tenantId, staff.roleId, ['demo_delete_button']);
    const both = await call(ctx.app, 'DELETE', URL, { token: tokenA, body: { ids: [b.id, screen.id] } });
    expect(both.body.status).toBe(0);
    expect(await menuRow(a.tenantId, screen.id)).toBeUndefined();
    const grants = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(roleMenu).where(and(eq(roleMenu.tenantId, a.tenantId), eq(roleMenu.roleId, staff.roleId))));
    expect(grants.map((g) => g.menuId)).not.toContain(b.id);
  });

  it('disabling a button withdraws its code from everyone holding it', async () => {
    const code = `demo_toggle_${unique()}`;
    const b = await addMenu(tokenA, button(code));
    const staff = await staffWith(ctx, a, { codes: [code] });
    const rolesBefore = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token: staff.token });
    expect(rolesBefore.body.data.buttons).toContain(code);
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenA, body: { ids: [b.id], enabled: false } })).body.status).toBe(0);
    const rolesAfter = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token: staff.token });
    expect(rolesAfter.body.data.buttons).not.toContain(code);
    const [entry] = await auditEntries(ctx, a.tenantId, 'menu');
    expect(entry).toMatchObject({ action: 'disable', entityId: String(b.id) });
  });
});

describe(`menu permissions (${TEST_DB})`, () => {
  it('needs system_menu_add to create', async () => {
    const count = async () => (await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(eq(menu.tenantId, a.tenantId)))).length;
    await expectGuarded(ctx, a, { method: 'POST', url: URL, code: 'system_menu_add', body: () => button(`guarded_${unique()}`), snapshot: count });
  });

  it('needs system_menu_update to update', async () => {
    const m = await addMenu(tokenA, button(`guard_update_${unique()}`));
    await expectGuarded(ctx, a, { method: 'PUT', url: URL, code: 'system_menu_update', body: () => ({ id: m.id, metaTitle: `t${unique()}` }), snapshot: () => menuRow(a.tenantId, m.id) });
  });

  it('needs system_menu_delete to delete', async () => {
    const m = await addMenu(tokenA, button(`guard_delete_${unique()}`));
    await expectGuarded(ctx, a, { method: 'DELETE', url: URL, code: 'system_menu_delete', body: () => ({ ids: [m.id] }), snapshot: () => menuRow(a.tenantId, m.id) });
  });

  it('needs system_menu_enable to enable or disable', async () => {
    const m = await addMenu(tokenA, button(`guard_enable_${unique()}`));
    await expectGuarded(ctx, a, { method: 'PUT', url: `${URL}/enable`, code: 'system_menu_enable', body: () => ({ ids: [m.id], enabled: false }), snapshot: () => menuRow(a.tenantId, m.id) });
  });
});

describe(`menu tenant isolation (${TEST_DB})`, () => {
  it("cannot read, update, enable or delete another tenant's menu by id", async () => {
    const b = await seedTenant(ctx.database, 'B');
    const tokenB = await login(ctx.app, b.name, b.password);
    const m = await addMenu(tokenA, button(`private_${unique()}`));
    const before = await menuRow(a.tenantId, m.id);
    expect((await call(ctx.app, 'GET', `${URL}/${m.id}`, { token: tokenB })).body).toMatchObject({ status: 40001, message: 'DataNotExist' });
    expect((await call(ctx.app, 'PUT', URL, { token: tokenB, body: { id: m.id, metaTitle: 'Stolen' } })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenB, body: { ids: [m.id], enabled: false } })).body.message).toBe('DataNotExist');
    expect((await call(ctx.app, 'DELETE', URL, { token: tokenB, body: { ids: [m.id] } })).body.message).toBe('DataNotExist');
    // The same name is free in the other tenant: names are unique per tenant only.
    const sameName = await call(ctx.app, 'POST', URL, { token: tokenB, body: { ...button(m.name, await menuIdOfTenant(b, 'system_role')) } });
    expect(sameName.body.status).toBe(0);
    expect(await menuRow(a.tenantId, m.id)).toEqual(before);
  });
});

async function menuIdOfTenant(t: TestTenant, name: string) {
  const [row] = await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, t.tenantId), eq(menu.name, name))));
  return row.id;
}
