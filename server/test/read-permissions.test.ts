import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPermission } from '@p8/contract/permission';
import { PLATFORM_SCREEN } from '@p8/contract/platform';
import { OPEN_READS } from '../src/core/route.ts';
import { MENU_TEMPLATE, type MenuTemplate } from '../src/db/seed/menus.ts';
import { menu, roleMenu } from '../src/db/schema/index.ts';
import { caller } from './basic-fixtures.ts';
import { call, login, seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { staffWith, type TestStaff } from './system-fixtures.ts';

/**
 * Reading is guarded like writing: every signed-in GET route the app registers declares the screen it
 * serves (its menu name or a `…_view` button), the screens that use it as a picker, or one of the few
 * open reads (core/route.ts OPEN_READS). The routes are walked as registered, so a route added later is
 * covered the day it appears.
 */

let ctx: TestContext;
let t: TestTenant;
let nobody: TestStaff;
beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'R');
  nobody = await staffWith(ctx, t, { codes: [] });
});
afterAll(() => ctx.close());

interface GetRoute {
  url: string;
  read?: string;
  openRead?: string;
  /** The codes any of which lets a caller read it (a screen route's `a|b`, a picker's screens). */
  codes: string[];
}

function signedInGets(): GetRoute[] {
  const seen = new Map<string, GetRoute>();
  for (const r of ctx.routes) {
    if (r.method !== 'GET' || r.public) continue;
    const { read, openRead, permission } = r.config;
    const codes = typeof permission === 'string' ? permission.split('|').map((c) => c.trim()) : [...(permission ?? [])];
    seen.set(r.url, { url: r.url, read, openRead, codes });
  }
  return [...seen.values()];
}

/** A concrete URL: ids that exist nowhere (the permission is checked before anything is looked up). */
const concrete = (url: string) => url.replace(/:jobId/g, 'job-none').replace(/:[A-Za-z]+/g, '999999');

function templateEntries(nodes: MenuTemplate[] = MENU_TEMPLATE): MenuTemplate[] {
  return nodes.flatMap((n) => [n, ...templateEntries(n.children ?? [])]);
}

describe('read permissions', () => {
  it('every signed-in GET route declares a screen, a picker or a named open read', () => {
    const routes = signedInGets();
    expect(routes.length).toBeGreaterThan(200);
    for (const r of routes) {
      expect(['screen', 'picker', 'open'], `GET ${r.url} declares how it is read`).toContain(r.read);
      if (r.read === 'open') expect(Object.keys(OPEN_READS), `GET ${r.url}`).toContain(r.openRead);
      else expect(r.codes.length, `GET ${r.url} names a code`).toBeGreaterThan(0);
    }
  });

  it('names only screens that exist: a menu entry, or a declared …_view button', () => {
    const entries = new Map(templateEntries().map((e) => [e.name, e]));
    for (const r of signedInGets()) {
      for (const code of r.codes) {
        const entry = entries.get(code);
        expect(entry, `GET ${r.url} names ${code}, which no menu declares`).toBeDefined();
        expect(entry!.type === 'Menu' || (entry!.type === 'Button' && code.endsWith('_view')), `GET ${r.url}: ${code} is a screen or a …_view button`).toBe(true);
      }
    }
  });

  it('keeps the open reads a short list: the caller’s own data and what every screen formats by', () => {
    const open = signedInGets().filter((r) => r.read === 'open');
    // 13 while both an import's in-process progress and a background job's state are open reads to their own
    // caller; the first goes once imports run as background jobs.
    expect(open.length, open.map((r) => `${r.url} (${r.openRead})`).join(', ')).toBeLessThanOrEqual(13);
    // Every named open read is used: the list in core/route.ts is what the routes declare, nothing more.
    expect(new Set(open.map((r) => r.openRead))).toEqual(new Set(Object.keys(OPEN_READS)));
  });

  it('refuses a signed-in user holding no code on every GET route but the open reads', async () => {
    const answered: string[] = [];
    for (const r of signedInGets()) {
      const res = await call(ctx.app, 'GET', concrete(r.url), { token: nobody.token });
      expect(res.httpStatus, `GET ${r.url}`).toBeLessThan(500);
      if (r.read === 'open') expect(res.body.status, `GET ${r.url} is an open read`).not.toBe(40300);
      else {
        expect(res.body.status, `GET ${r.url} answered a user holding no code: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(40300);
        expect(res.httpStatus).toBe(403);
      }
      answered.push(r.url);
    }
    expect(answered.length).toBe(signedInGets().length);
  });

  it("lets a user holding one screen's code read every route that names it, and none that does not", async () => {
    const routes = signedInGets().filter((r) => r.read !== 'open');
    // The platform's tenant screen is held only by the platform tenant's super administrators, never through a role.
    const codes = [...new Set(routes.flatMap((r) => r.codes))].filter((c) => c !== PLATFORM_SCREEN && !c.startsWith(`${PLATFORM_SCREEN}_`)).sort();
    const staff = await staffWith(ctx, t, { codes: [] });
    const ids = new Map(
      (await ctx.database.withTenant(t.tenantId, (tx) => tx.select({ id: menu.id, name: menu.name }).from(menu).where(eq(menu.tenantId, t.tenantId)))).map((m) => [m.name, m.id]),
    );
    for (const code of codes) {
      // The role holds exactly this one entry (a screen, or a …_view button), nothing above or beside it.
      await ctx.database.withTenant(t.tenantId, async (tx) => {
        await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, t.tenantId), eq(roleMenu.roleId, staff.roleId)));
        await tx.insert(roleMenu).values({ tenantId: t.tenantId, roleId: staff.roleId, menuId: ids.get(code)! });
      });
      await ctx.app.access.changed([{ tenantId: t.tenantId }]);
      // Every screen route naming the code; a picker by its first and last screens (the rule is the same
      // for each of them); and one route that names it not, refused.
      const named = routes.filter((r) => r.codes.includes(code) && (r.read === 'screen' || code === r.codes[0] || code === r.codes.at(-1)));
      const other = routes.find((r) => !hasPermission([code], r.codes.join('|')))!;
      for (const r of [...named, other]) {
        const may = r !== other;
        const res = await call(ctx.app, 'GET', concrete(r.url), { token: staff.token });
        expect(res.httpStatus, `GET ${r.url} holding ${code}`).toBeLessThan(500);
        if (may) expect(res.body.status, `GET ${r.url} refused to a holder of ${code}`).not.toBe(40300);
        else expect(res.body.status, `GET ${r.url} answered a holder of ${code} only`).toBe(40300);
      }
    }
  }, 240_000);
});

describe('pickers', () => {
  it('answer only what a picker shows: no bank account, opening balance or remark of a partner, no fund balance', async () => {
    const token = await login(ctx.app, t.name, t.password);
    const api = caller(ctx, token, t.adminId);
    await api.create('supplier', { code: 'PK-1', name: 'Picked supplier', phone: '13800000000', bankName: 'Secret bank', bankAccount: '6222000011112222', remark: 'internal' });
    const suppliers = await call<Array<Record<string, unknown>>>(ctx.app, 'GET', '/api/admin/basic/supplier/picker', { token });
    expect(suppliers.body.status).toBe(0);
    expect(Object.keys(suppliers.body.data[0]).sort()).toEqual(['code', 'enabled', 'id', 'kind', 'managerName', 'name', 'phone', 'shortName', 'taxNumber']);
    expect(JSON.stringify(suppliers.body.data)).not.toContain('6222000011112222');

    const created = await call(ctx.app, 'POST', '/api/admin/finance/account', { token, body: { name: 'Till', kind: 'cash', openingBalance: '500.00', openingDate: '2026-01-01' } });
    expect(created.body.status).toBe(0);
    const accounts = await call<Array<Record<string, unknown>>>(ctx.app, 'GET', '/api/admin/finance/account/picker', { token });
    expect(accounts.body.data.map((a) => Object.keys(a).sort())).toEqual([['enabled', 'id', 'kind', 'name']]);

    // A payment clerk picks the account by name; its balance is the fund accounts' screen's.
    const clerk = await staffWith(ctx, t, { codes: ['finance_payment'] });
    expect((await call(ctx.app, 'GET', '/api/admin/finance/account/picker', { token: clerk.token })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/finance/account', { token: clerk.token })).body.status).toBe(40300);
    expect((await call(ctx.app, 'GET', '/api/admin/basic/supplier/picker', { token: clerk.token })).body.status).toBe(0);
    expect((await call(ctx.app, 'GET', '/api/admin/basic/supplier', { token: clerk.token })).body.status).toBe(40300);
  });
});
