import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_AGE_MS, TOUCH_INTERVAL_MS } from '../src/core/access-cache.ts';
import { hashToken } from '../src/core/auth.ts';
import { menu, session } from '../src/db/schema/index.ts';
import { call, imgCaptcha, login, seedTenant, startTestApp, TEST_DB, type TestContext, type TestTenant } from './harness.ts';
import { staffWith } from './system-fixtures.ts';

/*
 * The access cache (core/access-cache.ts) keeps sessions, permissions and data scopes per token. Every
 * test here warms the cache of the tokens it uses first (a token is trusted from its second request on),
 * then makes a change through the API and expects it on the very next request.
 */
let ctx: TestContext;
let a: TestTenant;
let adminToken: string;
beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'A');
  adminToken = await login(ctx.app, a.name, a.password);
});
afterAll(() => ctx.close());

const AUDIT = '/api/admin/security/audit';
const STAFF = '/api/admin/security/admin';
const detail = (token: string) => call(ctx.app, 'GET', '/api/admin/current/detail', { token });
const status = async (token: string, url = AUDIT) => (await call(ctx.app, 'GET', url, { token })).body.status;
const put = (url: string, body: unknown, token = adminToken) => call(ctx.app, 'PUT', url, { token, body });

/** Brings a token's session and permissions into the cache (two requests: the first only learns whose it is). */
async function warm(token: string, url = AUDIT) {
  const first = await status(token, url);
  expect(await status(token, url)).toBe(first);
  return first;
}

async function staffTotal(token: string) {
  const res = await call<unknown[]>(ctx.app, 'GET', `${STAFF}?pageSize=200`, { token });
  expect(res.body.status).toBe(0);
  return (res.body.pagination as { total: number }).total;
}

/** Runs `fn` with the clock `ms` ahead (only Date moves). */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

async function sessionRow(token: string) {
  const [row] = await ctx.database.db.select().from(session).where(eq(session.tokenHash, hashToken(token)));
  return row;
}

describe(`the access cache (${TEST_DB})`, () => {
  it('answers a warmed token from the cache: a change written behind its back counts only once announced, or after MAX_AGE_MS', async () => {
    const s = await staffWith(ctx, a);
    await warm(s.token);
    // Revoked directly in the database, as no route does: the cache has not been told.
    await ctx.database.db.update(session).set({ revokedAt: new Date() }).where(eq(session.tokenHash, hashToken(s.token)));
    expect((await detail(s.token)).body.status).toBe(0);
    expect((await later(MAX_AGE_MS + 1000, () => detail(s.token))).body.status).toBe(40100);

    const other = await staffWith(ctx, a);
    await warm(other.token);
    await ctx.database.db.update(session).set({ revokedAt: new Date() }).where(eq(session.tokenHash, hashToken(other.token)));
    await ctx.app.access.changed([{ tenantId: a.tenantId, adminIds: [other.adminId] }]);
    expect((await detail(other.token)).body.status).toBe(40100);
  });

  it('ends a session at logout and the other sessions at removeOther, on the next request', async () => {
    const s = await staffWith(ctx, a);
    const [second, third] = [await login(ctx.app, s.name, s.password), await login(ctx.app, s.name, s.password)];
    for (const token of [s.token, second, third]) await warm(token);
    expect((await call(ctx.app, 'POST', '/api/auth/logout', { token: s.token })).body.status).toBe(0);
    expect((await detail(s.token)).body.status).toBe(40100);
    expect((await detail(second)).body.status).toBe(0);
    expect((await call(ctx.app, 'POST', '/api/admin/auth/removeOther', { token: second })).body.data).toEqual({ removed: 1 });
    expect((await detail(third)).body.status).toBe(40100);
    expect((await detail(second)).body.status).toBe(0);
  });

  it('refuses a button code on the next request once its role loses it, and grants it back', async () => {
    const s = await staffWith(ctx, a, { codes: ['system_audit_view'] });
    expect(await warm(s.token)).toBe(0);
    const granted = (await call<number[]>(ctx.app, 'GET', `/api/admin/security/role/${s.roleId}/permission`, { token: adminToken })).body.data;
    expect((await put('/api/admin/security/role/permission', { id: s.roleId, menuIds: [] })).body.status).toBe(0);
    expect(await status(s.token)).toBe(40300);
    expect((await put('/api/admin/security/role/permission', { id: s.roleId, menuIds: granted })).body.status).toBe(0);
    expect(await status(s.token)).toBe(0);
  });

  it('refuses a button code on the next request once its menu item is disabled', async () => {
    const s = await staffWith(ctx, a, { codes: ['system_audit_view'] });
    expect(await warm(s.token)).toBe(0);
    const [button] = await ctx.database.withTenant(a.tenantId, (tx) =>
      tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, a.tenantId), eq(menu.name, 'system_audit_view'))),
    );
    expect((await put('/api/admin/security/menu/enable', { ids: [button.id], enabled: false })).body.status).toBe(0);
    try {
      expect(await status(s.token)).toBe(40300);
    } finally {
      expect((await put('/api/admin/security/menu/enable', { ids: [button.id], enabled: true })).body.status).toBe(0);
    }
    expect(await status(s.token)).toBe(0);
  });

  it('follows a change of the roles an account holds on its next request', async () => {
    const s = await staffWith(ctx, a, { codes: ['system_audit_view'] });
    const plain = await staffWith(ctx, a);
    expect(await warm(s.token)).toBe(0);
    expect((await put(STAFF, { id: s.adminId, roleIds: [plain.roleId] })).body.status).toBe(0);
    expect(await status(s.token)).toBe(40300);
  });

  it("follows a role's data scope and the caller's own department on the next request", async () => {
    const s = await staffWith(ctx, a, { codes: ['system_staff'], dataScope: 'Self' });
    await warm(s.token, STAFF);
    expect(await staffTotal(s.token)).toBe(1); // its own row only
    const everyone = await staffTotal(adminToken);
    expect(everyone).toBeGreaterThan(1);
    expect((await put('/api/admin/security/role/scope', { id: s.roleId, dataScope: 'Dept' })).body.status).toBe(0);
    expect(await staffTotal(s.token)).toBe(everyone); // every account so far sits in the tenant's first department

    const dept = await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/dept', { token: adminToken, body: { parentId: a.deptId, name: 'Cached scope' } });
    expect((await put(STAFF, { id: s.adminId, deptId: dept.body.data.id })).body.status).toBe(0);
    expect(await staffTotal(s.token)).toBe(1); // alone in its new department
    expect((await put('/api/admin/security/role/scope', { id: s.roleId, dataScope: 'All' })).body.status).toBe(0);
    expect(await staffTotal(s.token)).toBe(everyone);
  });

  it('renews the tenant when a department, menu or role changes, and the accounts a staff change names', async () => {
    const version = () => ctx.app.shared.get(`access:v:t:${a.tenantId}`);
    const changesTenant = async (step: () => Promise<unknown>) => {
      await warm(adminToken);
      const before = await version();
      await step();
      expect(await version()).not.toBe(before);
    };
    let deptId = 0;
    await changesTenant(async () => {
      deptId = (await call<{ id: number }>(ctx.app, 'POST', '/api/admin/security/dept', { token: adminToken, body: { parentId: a.deptId, name: 'Renewed' } })).body.data.id;
    });
    await changesTenant(() => put('/api/admin/security/dept', { id: deptId, name: 'Renewed again' }));
    await changesTenant(() => put('/api/admin/security/dept/enable', { ids: [deptId], enabled: false }));
    await changesTenant(() => call(ctx.app, 'DELETE', '/api/admin/security/dept', { token: adminToken, body: { ids: [deptId] } }));
    await changesTenant(() => call(ctx.app, 'POST', '/api/admin/security/role', { token: adminToken, body: { roleKey: 'renewed', roleName: 'Renewed' } }));

    const s = await staffWith(ctx, a);
    const account = () => ctx.app.shared.get(`access:v:a:${a.tenantId}:${s.adminId}`);
    await warm(s.token);
    const before = [await version(), await account()];
    expect((await put(`${STAFF}/newOrderNotify`, { id: s.adminId, enabled: true })).body.status).toBe(0);
    const after = [await version(), await account()];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
  });

  it('signs an account out on the next request when it is disabled, locked, reset, deleted or changes its password', async () => {
    const shutOut = async (change: (s: Awaited<ReturnType<typeof staffWith>>) => Promise<unknown>, message: string) => {
      const s = await staffWith(ctx, a);
      await warm(s.token);
      await change(s);
      expect((await detail(s.token)).body, message).toMatchObject({ status: 40100 });
    };
    await shutOut((s) => put(`${STAFF}/enable`, { ids: [s.adminId], enabled: false }), 'disabled');
    await shutOut((s) => put(`${STAFF}/lock`, { ids: [s.adminId], locked: true }), 'locked');
    await shutOut((s) => put(`${STAFF}/reset`, { id: s.adminId, password: 'Other123' }), 'reset');
    await shutOut((s) => call(ctx.app, 'DELETE', STAFF, { token: adminToken, body: { ids: [s.adminId] } }), 'deleted');
    await shutOut(async (s) => {
      const fresh = await login(ctx.app, s.name, s.password);
      const res = await put('/api/admin/current/updatePassword', { oldPassword: s.password, password: 'Fresh123', confirmPassword: 'Fresh123' }, fresh);
      expect(res.body.status).toBe(0);
      expect((await detail(fresh)).body.status).toBe(0);
    }, 'own password changed elsewhere');
  });

  it('signs an account out on the next request when its password is reset by SMS code', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    await warm(token);
    const c = await imgCaptcha(ctx.app);
    const sent = await call<{ code: string }>(ctx.app, 'POST', '/api/base/phoneCaptcha/verify', { body: { phone: t.phone, type: 'forget', captchaId: c.captchaId, captcha: c.code } });
    const res = await put('/api/base/tenant/reset/pwd', { phone: t.phone, code: sent.body.data.code, password: 'NewPass99', confirmPassword: 'NewPass99' });
    expect(res.body.status).toBe(0);
    expect((await detail(token)).body.status).toBe(40100);
  });

  it('signs every account of a tenant out on the next request when the tenant is logged off', async () => {
    const t = await seedTenant(ctx.database);
    const token = await login(ctx.app, t.name, t.password);
    const s = await staffWith(ctx, t);
    for (const each of [token, s.token]) await warm(each);
    expect((await put('/api/admin/admin/tenant/logout', { password: t.password, confirm: true }, token)).body.status).toBe(0);
    expect((await detail(s.token)).body).toMatchObject({ status: 40100 });
    expect((await detail(token)).body).toMatchObject({ status: 40100 });
  });
});

describe(`idle-time bookkeeping (${TEST_DB})`, () => {
  it('writes last_seen_at at most once a minute per session, in a batch', async () => {
    const s = await staffWith(ctx, a);
    const seen = (await sessionRow(s.token)).lastSeenAt;
    for (let i = 0; i < 20; i++) expect((await detail(s.token)).body.status).toBe(0);
    await ctx.app.access.flush();
    expect((await sessionRow(s.token)).lastSeenAt).toEqual(seen);

    const moved = await later(TOUCH_INTERVAL_MS + 5000, async () => {
      expect((await detail(s.token)).body.status).toBe(0);
      return Date.now();
    });
    // Written by the next flush (a timer every few seconds, or the app closing), not by the request.
    await ctx.app.access.flush();
    expect((await sessionRow(s.token)).lastSeenAt.getTime()).toBeGreaterThanOrEqual(moved - 1000);
  });

  it('expires a warmed session idle past the limit, unless another process saw it meanwhile', async () => {
    const idle = ctx.config.session.idleMinutes * 60_000;
    const s = await staffWith(ctx, a);
    await warm(s.token);
    expect((await later(idle + 60_000, () => detail(s.token))).body).toMatchObject({ status: 40100, message: 'SessionExpired' });

    const kept = await staffWith(ctx, a);
    await warm(kept.token);
    // Another process served the token a minute ago (its flush wrote last_seen_at): this one must not refuse it.
    await ctx.database.db.update(session).set({ lastSeenAt: new Date(Date.now() + idle) }).where(eq(session.tokenHash, hashToken(kept.token)));
    expect((await later(idle + 60_000, () => detail(kept.token))).body.status).toBe(0);
  });
});
