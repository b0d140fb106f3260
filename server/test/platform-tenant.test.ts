import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentRole, MenuItem } from '@p8/contract/menu';
import { MODULE_AREA, MODULE_TYPES, type PlatformTenant } from '@p8/contract/platform';
import { tenant } from '../src/db/schema/index.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { auditEntries, grantCodes } from './system-fixtures.ts';

/*
 * The platform administrator's tenants: the list, enabling / disabling (sessions end at once), licensed
 * modules whose expiry closes their menus and routes (core/permissions.ts).
 */

let ctx: TestContext;
let p: TestTenant;
let tokenP: string;
let x: TestTenant;
let tokenX: string;
beforeAll(async () => {
  ctx = await startTestApp();
  // The first tenant of a fresh database is the platform tenant (PLATFORM_TENANT_ID defaults to 1).
  p = await seedTenant(ctx.database, 'Plat');
  tokenP = await login(ctx.app, p.name, p.password);
  x = await seedTenant(ctx.database, 'X');
  tokenX = await login(ctx.app, x.name, x.password);
});
afterAll(() => ctx.close());

const URL = '/api/admin/platform/tenant';

function names(items: MenuItem[]): string[] {
  return items.flatMap((m) => [m.name, ...names(m.children ?? [])]);
}
async function menusOf(token: string) {
  const res = await call<CurrentRole>(ctx.app, 'GET', '/api/admin/current/role', { token });
  expect(res.body.status).toBe(0);
  return { menus: names(res.body.data.menuList), buttons: res.body.data.buttons };
}
async function listed(name: string) {
  const res = await call<PlatformTenant[]>(ctx.app, 'GET', `${URL}?name=${encodeURIComponent(name)}`, { token: tokenP });
  expect(res.body.status).toBe(0);
  return res.body.data;
}
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe(`the platform's tenant screen (${TEST_DB})`, () => {
  it("is the platform tenant's super administrators' only: menu, buttons and routes", async () => {
    expect(p.tenantId).toBe(ctx.config.platform.tenantId);
    const mine = await menusOf(tokenP);
    expect(mine.menus).toContain('base_tenant');
    expect(mine.buttons).toEqual(expect.arrayContaining(['base_tenant_view', 'base_tenant_enable', 'base_tenant_module']));

    // Another tenant's super administrator: no menu, and the routes refuse.
    const other = await menusOf(tokenX);
    expect(other.menus).not.toContain('base_tenant');
    expect(other.buttons.filter((b) => b.startsWith('base_tenant'))).toEqual([]);
    const refused = await call(ctx.app, 'GET', URL, { token: tokenX });
    expect(refused.body).toMatchObject({ status: 40300, message: 'OnlyPlatformAdmin' });
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenX, body: { ids: [p.tenantId], enabled: false } })).body).toMatchObject({ status: 40300, message: 'OnlyPlatformAdmin' });
    expect((await call(ctx.app, 'PUT', `${URL}/modules`, { token: tokenX, body: { id: x.tenantId, modules: [] } })).body).toMatchObject({ status: 40300, message: 'OnlyPlatformAdmin' });

    // An ordinary account of the platform tenant, even granted the codes, gets neither.
    const staff = await seedStaff(ctx.database, p);
    await grantCodes(ctx, p.tenantId, staff.roleId, ['base_tenant_view', 'base_tenant_enable']);
    const staffToken = await login(ctx.app, staff.name, staff.password);
    expect((await menusOf(staffToken)).buttons.filter((b) => b.startsWith('base_tenant'))).toEqual([]);
    expect((await call(ctx.app, 'GET', URL, { token: staffToken })).body).toMatchObject({ status: 40300, message: 'Forbidden' });
  });

  it('lists each tenant with its administrator, created date, users and modules', async () => {
    await seedStaff(ctx.database, x);
    const [row] = await listed(x.tenantName);
    expect(row).toMatchObject({ id: x.tenantId, name: x.tenantName, enabled: true, isPlatform: false, users: 2, modules: [], admin: { id: x.adminId, name: x.name, phone: x.phone } });
    expect(Date.parse(row.createdAt)).toBeGreaterThan(Date.now() - 3_600_000);
    // By administrator account too; the platform tenant is marked.
    expect((await listed(x.name)).map((t) => t.id)).toEqual([x.tenantId]);
    expect((await listed(p.tenantName))[0].isPlatform).toBe(true);
  });

  it('disabling a tenant ends its sessions at once and refuses sign-in until enabled again; audited; never the platform tenant', async () => {
    const t = await seedTenant(ctx.database, 'Off');
    const token = await login(ctx.app, t.name, t.password);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(0);

    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenP, body: { ids: [t.tenantId], enabled: false } })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body).toMatchObject({ status: 40100, message: 'TenantIsDisabled' });
    expect((await call(ctx.app, 'POST', '/api/auth/admin/name', { body: { name: t.name, password: t.password } })).body.message).toBe('TenantIsDisabled');
    expect((await listed(t.tenantName))[0].enabled).toBe(false);
    const [entry] = await auditEntries(ctx, p.tenantId, 'tenant');
    expect(entry).toMatchObject({ action: 'disable', entityId: String(t.tenantId), adminId: p.adminId });

    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenP, body: { ids: [t.tenantId], enabled: true } })).body.status).toBe(0);
    expect(await login(ctx.app, t.name, t.password)).toBeTruthy();
    // The old session stays ended.
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token })).body.status).toBe(40100);
    expect((await auditEntries(ctx, p.tenantId, 'tenant'))[0]).toMatchObject({ action: 'enable' });

    const own = await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenP, body: { ids: [p.tenantId], enabled: false } });
    expect(own.body).toMatchObject({ status: 40001, message: 'PlatformTenantProhibitDisable' });
    expect((await call(ctx.app, 'GET', '/api/admin/current/detail', { token: tokenP })).body.status).toBe(0);
    expect((await call(ctx.app, 'PUT', `${URL}/enable`, { token: tokenP, body: { ids: [999999], enabled: false } })).body.message).toBe('TenantNotExist');
  });

  it('closes the area of every module type: its menu and its routes (outsource closes outsourcing)', async () => {
    const t = await seedTenant(ctx.database, 'AllMod');
    const token = await login(ctx.app, t.name, t.password);
    const set = await call(ctx.app, 'PUT', `${URL}/modules`, { token: tokenP, body: { id: t.tenantId, modules: MODULE_TYPES.map((type) => ({ type, expiresAt: day(-1) })) } });
    expect(set.body.status).toBe(0);
    const menus = (await menusOf(token)).menus;
    for (const type of MODULE_TYPES) {
      const area = MODULE_AREA[type];
      expect(menus.filter((n) => n === area || n.startsWith(`${area}_`)), type).toEqual([]);
      const routes = ctx.routes.filter((r) => r.method === 'GET' && r.url.startsWith(`/api/admin/${area}/`));
      // Licensed areas not built yet (picture search, cross-border) have no routes to close.
      if (!routes.length) continue;
      const res = await call(ctx.app, 'GET', routes[0].url.replace(/:\w+/g, '1'), { token });
      expect(res.body, `${type}: ${routes[0].url}`).toMatchObject({ status: 40300, message: 'ModuleExpired' });
    }
  });

  it("an expired module's menus disappear and every route of its area answers ModuleExpired; others stay open", async () => {
    const t = await seedTenant(ctx.database, 'Mod');
    const token = await login(ctx.app, t.name, t.password);
    const before = await menusOf(token);
    expect(before.menus).toEqual(expect.arrayContaining(['mall', 'mall_order', 'finance', 'service']));
    expect((await call(ctx.app, 'GET', '/api/admin/mall/order', { token })).body.status).toBe(0);

    const set = await call(ctx.app, 'PUT', `${URL}/modules`, {
      token: tokenP,
      body: { id: t.tenantId, modules: [{ type: 'mall', expiresAt: day(-1) }, { type: 'finance', expiresAt: day(-1) }, { type: 'service', expiresAt: day(30), needCheck: true }] },
    });
    expect(set.body.status).toBe(0);
    const after = await menusOf(token);
    expect(after.menus.filter((n) => n === 'mall' || n.startsWith('mall_') || n === 'finance' || n.startsWith('finance_'))).toEqual([]);
    expect(after.buttons.filter((b) => b.startsWith('mall_') || b.startsWith('finance_'))).toEqual([]);
    expect(after.menus).toEqual(expect.arrayContaining(['service', 'service_order', 'purchase', 'system_staff']));

    // Every GET route of the closed areas (the server modules mall and finance, and the finance bills), found from what is registered.
    const closed = ctx.routes.filter((r) => r.method === 'GET' && /^\/api\/admin\/(mall|finance)\//.test(r.url));
    expect(closed.length).toBeGreaterThan(10);
    for (const r of closed) {
      const res = await call(ctx.app, 'GET', r.url.replace(/:\w+/g, '1'), { token });
      expect(res.body, r.url).toMatchObject({ status: 40300, message: 'ModuleExpired' });
    }
    // A write too, with a valid body: refused before it runs.
    expect((await call(ctx.app, 'POST', '/api/admin/finance/account', { token, body: { name: 'Cash', accountType: 'Cash' } })).body.message).toBe('ModuleExpired');
    // Other areas answer as before.
    for (const url of ['/api/admin/service/order', '/api/admin/purchase/order', '/api/admin/security/admin']) expect((await call(ctx.app, 'GET', url, { token })).body.status, url).toBe(0);
    // Another tenant is untouched.
    expect((await call(ctx.app, 'GET', '/api/admin/mall/order', { token: tokenX })).body.status).toBe(0);

    const [entry] = await auditEntries(ctx, p.tenantId, 'tenant');
    expect(entry).toMatchObject({ action: 'modules', entityId: String(t.tenantId) });
    const [row] = await listed(t.tenantName);
    expect(row.modules).toEqual([
      { type: 'mall', needCheck: false, expiresAt: day(-1), isExpired: true },
      { type: 'finance', needCheck: false, expiresAt: day(-1), isExpired: true },
      { type: 'service', needCheck: true, expiresAt: day(30), isExpired: false },
    ]);
    // Today is still a day the module runs; renewing reopens it at once.
    expect((await call(ctx.app, 'PUT', `${URL}/modules`, { token: tokenP, body: { id: t.tenantId, modules: [{ type: 'mall', expiresAt: day(0) }] } })).body.status).toBe(0);
    expect((await menusOf(token)).menus).toEqual(expect.arrayContaining(['mall_order', 'finance_account']));
    expect((await call(ctx.app, 'GET', '/api/admin/mall/order', { token })).body.status).toBe(0);

    // The tenant's own config screen shows the same state.
    const view = await call<{ moduleList: Array<{ type: string; isExpired: boolean }> }>(ctx.app, 'GET', '/api/admin/admin/tenant', { token });
    expect(view.body.data.moduleList).toEqual([expect.objectContaining({ type: 'mall', isExpired: false })]);
    // One entry per type.
    const twice = await call(ctx.app, 'PUT', `${URL}/modules`, { token: tokenP, body: { id: t.tenantId, modules: [{ type: 'mall' }, { type: 'mall' }] } });
    expect(twice.body).toMatchObject({ status: 40001, message: 'ModuleRepeat', additional: 'mall' });
  });

  it('a module closes at its expiry instant, even for permissions cached before it', async () => {
    const t = await seedTenant(ctx.database, 'Tick');
    const token = await login(ctx.app, t.name, t.password);
    const closesAt = new Date(Date.now() + 1500).toISOString();
    await ctx.database.withSystem((tx) => tx.update(tenant).set({ moduleList: [{ type: 'mall', needCheck: false, expiresAt: closesAt }] }).where(and(eq(tenant.id, t.tenantId))));
    await ctx.app.access.changed([{ tenantId: t.tenantId }]);
    expect((await call(ctx.app, 'GET', '/api/admin/mall/order', { token })).body.status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(closesAt) - Date.now()) + 50));
    expect((await call(ctx.app, 'GET', '/api/admin/mall/order', { token })).body).toMatchObject({ status: 40300, message: 'ModuleExpired' });
  });
});
