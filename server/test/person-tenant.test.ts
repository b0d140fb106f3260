import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentRole } from '@p8/contract/menu';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { menu, roleMenu, tenant } from '../src/db/schema/index.ts';
import { MENU_TEMPLATE } from '../src/db/seed/menus.ts';
import { call, login, seedStaff, seedTenant, startTestApp, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('the signed-in user', () => {
  it('gets the whole menu tree as super administrator, ordered, with screens of the template', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const res = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token });
    expect(res.body.data.menuList.map((m) => m.name)).toEqual(MENU_TEMPLATE.map((m) => m.name));
    const person = res.body.data.menuList.find((m) => m.name === 'person')!;
    expect(person.children?.map((c) => c.component)).toEqual(['person/userInfo']);
  });

  it('gets only the menus and buttons of its roles as ordinary staff, and an empty list without any', async () => {
    const t = await seedTenant(ctx.database);
    const staff = await seedStaff(ctx.database, t);
    const token = await login(ctx.app, staff.name, staff.password);
    const empty = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token });
    expect(empty.body.data).toEqual({ menuList: [], buttons: [] });

    await ctx.database.withTenant(t.tenantId, async (tx) => {
      const [home] = await tx.select({ id: menu.id }).from(menu).where(eq(menu.name, 'home'));
      const [button] = await tx
        .insert(menu)
        .values({ tenantId: t.tenantId, parentId: home.id, name: 'home_demo_button', metaTitle: '按钮', metaTitleEn: 'Button', menuType: 'Button' })
        .returning({ id: menu.id });
      await tx.insert(roleMenu).values([
        { tenantId: t.tenantId, roleId: staff.roleId, menuId: home.id },
        { tenantId: t.tenantId, roleId: staff.roleId, menuId: button.id },
      ]);
    });
    // Written directly: tell the access cache, as the menu and role services do after their commit.
    await ctx.app.access.changed([{ tenantId: t.tenantId }]);
    const granted = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token });
    expect(granted.body.data.menuList.map((m) => m.name)).toEqual(['home']);
    expect(granted.body.data.menuList[0].children?.map((c) => c.menuType)).toEqual(['Button']);
    expect(granted.body.data.buttons).toEqual(['home_demo_button']);
  });

  it('changes the password: the old one must be right and the two new ones equal', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const other = await login(ctx.app, t.name, t.password);
    const mismatch = await call(ctx.app, 'PUT', '/api/admin/current/updatePassword', { token, body: { oldPassword: t.password, password: 'Fresh123', confirmPassword: 'Fresh124' } });
    expect(mismatch.body).toMatchObject({ status: 40001, message: 'PasswordInconsistent' });
    const wrongOld = await call(ctx.app, 'PUT', '/api/admin/current/updatePassword', { token, body: { oldPassword: 'nope', password: 'Fresh123', confirmPassword: 'Fresh123' } });
    expect(wrongOld.body.message).toBe('OldPasswordError');
    const done = await call(ctx.app, 'PUT', '/api/admin/current/updatePassword', { token, body: { oldPassword: t.password, password: 'Fresh123', confirmPassword: 'Fresh123' } });
    expect(done.body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: other })).body.status).toBe(40100);
    expect(await login(ctx.app, t.name, 'Fresh123')).toBeTruthy();
  });

  it('updates personal data with validation', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const bad = await call(ctx.app, 'PUT', '/api/admin/current/info', { token, body: { email: 'not-an-email' } });
    expect(bad.body).toMatchObject({ status: 40001, message: 'EmailFormatError', additional: 'email' });
    const res = await call(ctx.app, 'PUT', '/api/admin/current/info', { token, body: { realName: 'Li Lei', nickName: 'lei', email: 'li@example.com', sex: 1, avatar: '', phone: t.phone } });
    expect(res.body.data).toMatchObject({ realName: 'Li Lei', email: 'li@example.com', sex: 1 });
    const other = await seedTenant(ctx.database);
    const taken = await call(ctx.app, 'PUT', '/api/admin/current/info', { token, body: { phone: other.phone } });
    expect(taken.body.message).toBe('PhoneIsRegistered');
  });

  it('keeps at most 30 common menus, only menus the user may open', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const role = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token });
    const homeId = role.body.data.menuList[0].id;
    const saved = await call(ctx.app, 'PUT', '/api/admin/current/commonMenus', { token, body: { menuIds: [homeId] } });
    expect(saved.body.data).toEqual([homeId]);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.data).toMatchObject({ commonMenus: [homeId] });
    const tooMany = await call(ctx.app, 'PUT', '/api/admin/current/commonMenus', { token, body: { menuIds: Array.from({ length: 31 }, (_, i) => i + 1) } });
    expect(tooMany.body.status).toBe(40001);
    const foreign = await call(ctx.app, 'PUT', '/api/admin/current/commonMenus', { token, body: { menuIds: [999999] } });
    expect(foreign.body.message).toBe('DataNotExist');
  });
});

describe('tenant configuration', () => {
  it('has every field of the tenant config with its defaults', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const { data } = (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token })).body;
    expect(data).toMatchObject({
      id: t.tenantId,
      numberRetainsSmallDigit: 3,
      amountRetainsSmallDigit: 2,
      defaultPageSize: 10,
      defaultDateSearch: 7,
      pictureSearchSimilarity: 0.7,
      autoOpenFlow: true,
      pictureSearchType: 'NotSelected',
      openVerifyBill: '',
      moduleList: [],
      moduleListStr: '',
      isLogoff: false,
    });
    const switches = ['openShelves', 'openVerify', 'openNegativeInventory', 'openDiscount', 'openTaxRate', 'openSerialNumber', 'openBatchNumber', 'openDirectOutstock', 'openConsumablesOutstock', 'allowPurchaseInstockBeyond', 'allowSaleOutstockBeyond', 'allowProductionInstockBeyond', 'allowProductionClaimBeyond', 'hasPictureSearchModule', 'openEntrustMachining', 'openSaleOrderBomSelect', 'dispatchAutoAudit', 'applyRangeSupplier', 'applyRangeCustomer', 'applyRangeMaterial', 'applyRangeStock', 'completionNeedAllPickOutstock', 'packageResultLimitSubmit', 'allowPurchaseInstockAdditionalNumber', 'allowSaleOutstockAdditionalNumber', 'searchCache', 'openBomStatistics'];
    for (const key of switches) expect(data[key as keyof TenantConfigView], key).toBe(false);
    for (const key of ['logo', 'title', 'slogan', 'phone']) expect(data, key).toHaveProperty(key);
  });

  it('sends openVerifyBill as a comma string and the module list with expiry', async () => {
    const t = await seedTenant(ctx.database);
    await ctx.database.db
      .update(tenant)
      .set({
        config: { openVerifyBill: ['PurchaseOrder', 'SaleOrder'] },
        moduleList: [
          { type: 'mall', needCheck: false, expiresAt: null },
          { type: 'service', needCheck: true, expiresAt: '2000-01-01T00:00:00Z' },
          { type: 'production', needCheck: false, expiresAt: '2999-01-01T00:00:00Z' },
        ],
      })
      .where(eq(tenant.id, t.tenantId));
    const token = await login(ctx.app, t.name, t.password);
    const { data } = (await call<TenantConfigView>(ctx.app, 'GET', '/api/admin/admin/tenant', { token })).body;
    expect(data.openVerifyBill).toBe('PurchaseOrder,SaleOrder');
    expect(data.openVerifyBillList).toEqual(['PurchaseOrder', 'SaleOrder']);
    expect(data.moduleList.map((m) => [m.type, m.isExpired])).toEqual([['mall', false], ['service', true], ['production', false]]);
    expect(data.moduleListStr).toBe('mall,production');
  });

  it('lets only the initial administrator clear data or log the tenant off', async () => {
    const t = await seedTenant(ctx.database);
    const staff = await seedStaff(ctx.database, t);
    const staffToken = await login(ctx.app, staff.name, staff.password);
    const clear = await call(ctx.app, 'PUT', '/api/admin/admin/tenant/clearData', { token: staffToken, body: { type: 'business' } });
    expect(clear.httpStatus).toBe(403);
    expect(clear.body).toMatchObject({ status: 40300, message: 'OnlyInitialAdminCanOperate' });
    const logoff = await call(ctx.app, 'PUT', '/api/admin/admin/tenant/logout', { token: staffToken, body: { password: staff.password, confirm: true } });
    expect(logoff.body.message).toBe('OnlyInitialAdminCanOperate');

    const token = await login(ctx.app, t.name, t.password);
    expect((await call(ctx.app, 'PUT', '/api/admin/admin/tenant/clearData', { token, body: { type: 'basic' } })).body.status).toBe(0);
    expect((await call(ctx.app, 'PUT', '/api/admin/admin/tenant/clearData', { token, body: { type: 'everything' } })).body.status).toBe(40001);
  });

  it('logs the tenant off with the right password: every session ends and sign-in is refused', async () => {
    const t = await seedTenant(ctx.database);
    const staff = await seedStaff(ctx.database, t);
    const token = await login(ctx.app, t.name, t.password);
    const staffToken = await login(ctx.app, staff.name, staff.password);
    const wrong = await call(ctx.app, 'PUT', '/api/admin/admin/tenant/logout', { token, body: { password: 'nope', confirm: true } });
    expect(wrong.body.message).toBe('PasswordError');
    const done = await call(ctx.app, 'PUT', '/api/admin/admin/tenant/logout', { token, body: { password: t.password, confirm: true } });
    expect(done.body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: staffToken })).body.status).toBe(40100);
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: t.name, password: t.password } })).body.message).toBe('TenantIsDisabled');
  });

  it('serves the public system config with the password and phone rules', async () => {
    const res = await call<{ passwordRegex: string; phoneRegex: string; system_title: string; templates: Record<string, string> }>(ctx.app, 'GET', '/api/base/system/config');
    expect(new RegExp(res.body.data.passwordRegex).test('abc12345')).toBe(true);
    expect(new RegExp(res.body.data.passwordRegex).test('abcdefgh')).toBe(false);
    expect(new RegExp(res.body.data.phoneRegex).test('13812345678')).toBe(true);
    expect(res.body.data.system_title).toBeTruthy();
    expect(Object.keys(res.body.data.templates)).toEqual(['brand', 'category', 'supplier', 'customer', 'stock', 'location', 'attribute', 'material', 'fee', 'paytype', 'item', 'bom']);
  });
});

describe('the menu template', () => {
  it('reaches existing tenants on start without touching their own menus', async () => {
    const { syncMenusForAllTenants } = await import('../src/db/seed/sync.ts');
    const t = await seedTenant(ctx.database);
    await ctx.database.withTenant(t.tenantId, (tx) => tx.delete(menu).where(eq(menu.name, 'person_userInfo')));
    const added = await syncMenusForAllTenants(ctx.database);
    expect(added).toBeGreaterThanOrEqual(1);
    expect(await syncMenusForAllTenants(ctx.database)).toBe(0);
    // Once every tenant has this template, starts skip the walk until the template changes.
    await ctx.database.withTenant(t.tenantId, (tx) => tx.delete(menu).where(eq(menu.name, 'person_userInfo')));
    expect(await syncMenusForAllTenants(ctx.database)).toBe(0);
    await ctx.database.db.execute(sql`update p8_menu_template set template_key = 'an older template'`);
    expect(await syncMenusForAllTenants(ctx.database)).toBe(added);
  });

  it('is brought up to date once when several processes start at once on a fresh database', async () => {
    const { syncMenusForAllTenants } = await import('../src/db/seed/sync.ts');
    const t = await seedTenant(ctx.database);
    await ctx.database.withTenant(t.tenantId, (tx) => tx.delete(menu).where(eq(menu.name, 'person_userInfo')));
    // As on a database no process has started on: no template table yet (the first start creates it).
    await ctx.database.db.execute(sql`drop table p8_menu_template`);
    const added = await Promise.all([1, 2, 3].map(() => syncMenusForAllTenants(ctx.database)));
    // One walk added the entry; the others waited and found the template recorded.
    expect(added.filter((n) => n > 0)).toHaveLength(1);
    const copies = await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: menu.id }).from(menu).where(eq(menu.name, 'person_userInfo')));
    expect(copies).toHaveLength(1);
  });
});
