import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { admin, menu } from '../src/db/schema/index.ts';
import { createTestDatabase, seedStaff, seedTenant, TEST_DB, type TestTenant } from './harness.ts';
import { startServer, type Server } from './server-process.ts';

/*
 * Two server processes on one PostgreSQL and one Redis, attacked with real parallel HTTP requests
 * spread over both: sign-in counters, captchas, SMS limits and session ends must hold across them.
 * Runs in the PostgreSQL stage (TEST_DB=postgres with DATABASE_URL and REDIS_URL, as .ci/run sets them).
 */
const REDIS_URL = process.env.REDIS_URL;
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL) && Boolean(REDIS_URL);
// Every key of this run starts with its own prefix: parallel runs on one Redis never meet.
const PREFIX = `p8test:cluster:${randomBytes(4).toString('hex')}:`;

interface Envelope<T = unknown> {
  status: number;
  message: string;
  data: T;
}

async function post<T = unknown>(server: Server, url: string, body: unknown, token?: string): Promise<Envelope<T>> {
  const res = await fetch(server.url + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  return (await res.json()) as Envelope<T>;
}

async function get<T = unknown>(server: Server, url: string, token?: string): Promise<Envelope<T>> {
  const res = await fetch(server.url + url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return (await res.json()) as Envelope<T>;
}

async function put<T = unknown>(server: Server, url: string, body: unknown, token: string): Promise<Envelope<T>> {
  const res = await fetch(server.url + url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

const captcha = async (server: Server) => (await get<{ captchaId: string; code: string }>(server, '/api/base/imgCaptcha')).data;

async function signIn(server: Server, name: string, password: string): Promise<string> {
  const res = await post<{ token: string }>(server, '/api/auth/admin/name', { name, password });
  if (res.status !== 0) throw new Error(`sign-in of ${name} failed: ${res.message}`);
  return res.data.token;
}

const statusCounts = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps `lanes` requests in flight at once (each lane fires the next as soon as the last answered) until
 * `minEach` of them have answered, runs `change`, and goes on until `minEach` requests started after it had
 * returned have answered too (waiting for counts, not for a time: under a loaded CI machine one request can
 * take longer than any fixed pause). Each answer is kept with when it started and ended. Returns what
 * answered wholly before the change began and what started after it had returned.
 */
async function underLoad(fire: () => Promise<number>, change: () => Promise<void>, opts = { lanes: 8, minEach: 12, maxWaitMs: 60_000 }) {
  const results: Array<{ startedAt: number; endedAt: number; status: number }> = [];
  let running = true;
  const lanes = Array.from({ length: opts.lanes }, async () => {
    while (running) {
      const startedAt = performance.now();
      const status = await fire();
      results.push({ startedAt, endedAt: performance.now(), status });
    }
  });
  const waitFor = async (enough: () => boolean) => {
    const until = performance.now() + opts.maxWaitMs;
    while (!enough() && performance.now() < until) await pause(10);
  };
  await waitFor(() => results.length >= opts.minEach);
  const changeStarted = performance.now();
  await change();
  const changeEnded = performance.now();
  await waitFor(() => results.filter((r) => r.startedAt > changeEnded).length >= opts.minEach);
  running = false;
  await Promise.all(lanes);
  return {
    before: results.filter((r) => r.endedAt < changeStarted).map((r) => r.status),
    after: results.filter((r) => r.startedAt > changeEnded).map((r) => r.status),
  };
}

const countMessages = (bodies: Array<{ message: string }>) =>
  bodies.reduce<Record<string, number>>((counts, { message }) => ({ ...counts, [message]: (counts[message] ?? 0) + 1 }), {});

describe.skipIf(!enabled)('two server processes on one PostgreSQL and Redis', () => {
  let database: Database;
  let dropDatabase: () => Promise<void>;
  let redis: Redis;
  let servers: Server[] = [];
  /** The platform tenant (the first of the fresh database: PLATFORM_TENANT_ID defaults to 1), whose administrator manages tenants. */
  let platform: TestTenant;
  /** The i-th request goes to server i mod 2: every burst is split over both processes. */
  const at = (i: number) => servers[i % 2];

  beforeAll(async () => {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    platform = await seedTenant(database, 'Platform');
    redis = new Redis(REDIS_URL!);
    servers = await Promise.all([startServer(created.databaseUrl!, { REDIS_URL, REDIS_PREFIX: PREFIX }), startServer(created.databaseUrl!, { REDIS_URL, REDIS_PREFIX: PREFIX })]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (redis) {
      const keys = await redis.keys(`${PREFIX}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await database?.close();
    await dropDatabase?.();
  }, 60_000);

  async function account(t: TestTenant) {
    const [row] = await database.db
      .select({ failedLogins: admin.failedLogins, lockedUntil: admin.lockedUntil })
      .from(admin)
      .where(and(eq(admin.tenantId, t.tenantId), eq(admin.id, t.adminId)));
    return row;
  }

  it('count 40 parallel wrong passwords exactly and lock the account on both', async () => {
    const t = await seedTenant(database);
    // Captchas issued by one process are answered at the other.
    const captchas = await Promise.all(Array.from({ length: 40 }, (_, i) => captcha(at(i + 1))));
    const answers = await Promise.all(
      captchas.map((c, i) => post(at(i), '/api/auth/admin/name', { name: t.name, password: 'wrong', captchaId: c.captchaId, captcha: c.code })),
    );
    expect(countMessages(answers)).toEqual({ PasswordError: 9, AdminTemporarilyLocked: 31 });
    const state = await account(t);
    expect(state.failedLogins).toBe(40);
    expect(state.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    for (const server of servers) expect((await post(server, '/api/auth/admin/name', { name: t.name, password: t.password })).message).toBe('AdminTemporarilyLocked');
  });

  it('require the captcha at one process after failures at the other, and use each captcha once', async () => {
    const t = await seedTenant(database);
    for (let i = 0; i < 3; i++) expect((await post(servers[0], '/api/auth/admin/name', { name: t.name, password: 'wrong' })).message).toBe('PasswordError');
    expect((await post(servers[1], '/api/auth/admin/name', { name: t.name, password: t.password })).message).toBe('ImgCaptchaRequired');
    const c = await captcha(servers[0]);
    expect((await post(servers[1], '/api/auth/admin/name', { name: t.name, password: t.password, captchaId: c.captchaId, captcha: c.code })).status).toBe(0);
    expect((await post(servers[0], '/api/base/phoneCaptcha', { phone: t.phone, type: 'login', captchaId: c.captchaId, captcha: c.code })).message).toBe('ImgCaptchaExpired');
  });

  it('send one code for 10 parallel sends, count 30 parallel wrong guesses and burn the code after 5', async () => {
    const t = await seedTenant(database);
    const captchas = await Promise.all(Array.from({ length: 10 }, (_, i) => captcha(at(i))));
    const sends = await Promise.all(
      captchas.map((c, i) => post<{ code: string }>(at(i + 1), '/api/base/phoneCaptcha', { phone: t.phone, type: 'login', captchaId: c.captchaId, captcha: c.code })),
    );
    expect(countMessages(sends)).toEqual({ Success: 1, SmsSendTooFrequent: 9 });
    const code = sends.find((s) => s.status === 0)!.data.code;

    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => post(at(i), '/api/auth/admin/phone', { phone: t.phone, code: wrong })));
    expect(countMessages(guesses)).toEqual({ PhoneCaptchaError: 30 });
    expect(await redis.get(`${PREFIX}sms:tries:login:${t.phone}`)).toBe('30');
    for (const server of servers) expect((await post(server, '/api/auth/admin/phone', { phone: t.phone, code })).message).toBe('PhoneCaptchaError');
  });

  it('end a session at both processes when it is signed out, removed or its account locked at one', async () => {
    const t = await seedTenant(database);
    const me = (server: Server, token: string) => get(server, '/api/admin/current/detail', token);
    // Each process has served (and may have cached) every token before it ends.
    const [first, second, third] = [await signIn(servers[0], t.name, t.password), await signIn(servers[1], t.name, t.password), await signIn(servers[0], t.name, t.password)];
    for (const server of servers) for (const token of [first, second, third]) expect((await me(server, token)).status).toBe(0);

    expect((await post(servers[0], '/api/auth/logout', {}, first)).status).toBe(0);
    expect((await me(servers[1], first)).status).toBe(40100);

    expect((await post(servers[1], '/api/admin/auth/removeOther', {}, second)).status).toBe(0);
    expect((await me(servers[0], third)).status).toBe(40100);
    expect((await me(servers[0], second)).status).toBe(0);

    const staff = await seedStaff(database, t);
    const staffToken = await signIn(servers[1], staff.name, staff.password);
    for (const server of servers) expect((await me(server, staffToken)).status).toBe(0);
    expect((await put(servers[0], '/api/admin/security/admin/lock', { ids: [staff.adminId], locked: true }, second)).status).toBe(0);
    for (const server of servers) expect((await me(server, staffToken)).status).toBe(40100);
  });

  it('honour neither a logout, a revoked session nor a removed permission at B from the moment A answered, under parallel requests', async () => {
    const t = await seedTenant(database);
    const [A, B] = servers;
    const adminToken = await signIn(A, t.name, t.password);
    const audit = (token: string) => async () => (await get(B, '/api/admin/security/audit', token)).status;

    // A staff member whose role grants the audit log, granted through A.
    const staff = await seedStaff(database, t);
    const [button] = await database.withTenant(t.tenantId, (tx) =>
      tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, t.tenantId), eq(menu.name, 'system_audit_view'))),
    );
    expect((await put(A, '/api/admin/security/role/permission', { id: staff.roleId, menuIds: [button.id] }, adminToken)).status).toBe(0);
    const [first, second, third] = [await signIn(B, staff.name, staff.password), await signIn(A, staff.name, staff.password), await signIn(B, staff.name, staff.password)];

    // Logout at A of a token that B keeps serving.
    const logout = await underLoad(audit(first), async () => {
      expect((await post(A, '/api/auth/logout', {}, first)).status).toBe(0);
    });
    expect(logout.before.length).toBeGreaterThan(10);
    expect(statusCounts(logout.before)).toEqual({ 0: logout.before.length });
    expect(logout.after.length).toBeGreaterThan(10);
    expect(statusCounts(logout.after)).toEqual({ 40100: logout.after.length });

    // Another session of the account, at A, removes the others: B stops serving the third at once.
    const revoked = await underLoad(audit(third), async () => {
      expect((await post(A, '/api/admin/auth/removeOther', {}, second)).data).toEqual({ removed: 1 });
    });
    expect(revoked.before.length).toBeGreaterThan(10);
    expect(statusCounts(revoked.before)).toEqual({ 0: revoked.before.length });
    expect(revoked.after.length).toBeGreaterThan(10);
    expect(statusCounts(revoked.after)).toEqual({ 40100: revoked.after.length });

    // The role loses the audit log at A: B refuses it from then on, to a session it has served all along.
    const fourth = await signIn(B, staff.name, staff.password);
    const removed = await underLoad(audit(fourth), async () => {
      expect((await put(A, '/api/admin/security/role/permission', { id: staff.roleId, menuIds: [] }, adminToken)).status).toBe(0);
    });
    expect(removed.before.length).toBeGreaterThan(10);
    expect(statusCounts(removed.before)).toEqual({ 0: removed.before.length });
    expect(removed.after.length).toBeGreaterThan(10);
    expect(statusCounts(removed.after)).toEqual({ 40300: removed.after.length });
  });

  it('end every session of a tenant at B the moment A disabled it, under parallel requests; sign-in refused at both until enabled', async () => {
    const t = await seedTenant(database);
    const [A, B] = servers;
    const platformToken = await signIn(A, platform.name, platform.password);
    expect(platform.tenantId).toBe(1);
    // Two sessions of the tenant, one signed in at each process; B serves both all along.
    const [atA, atB] = [await signIn(A, t.name, t.password), await signIn(B, t.name, t.password)];
    const me = (server: Server, token: string) => get(server, '/api/admin/current/detail', token);

    const disabled = await underLoad(async () => (await me(B, atB)).status, async () => {
      expect((await put(A, '/api/admin/platform/tenant/enable', { ids: [t.tenantId], enabled: false }, platformToken)).status).toBe(0);
    });
    expect(disabled.before.length).toBeGreaterThan(10);
    expect(statusCounts(disabled.before)).toEqual({ 0: disabled.before.length });
    expect(disabled.after.length).toBeGreaterThan(10);
    expect(statusCounts(disabled.after)).toEqual({ 40100: disabled.after.length });
    for (const server of servers) for (const token of [atA, atB]) expect(await me(server, token)).toMatchObject({ status: 40100, message: 'TenantIsDisabled' });
    for (const server of servers) expect((await post(server, '/api/auth/admin/name', { name: t.name, password: t.password })).message).toBe('TenantIsDisabled');

    // Enabled again at B: a new sign-in at A works; the ended sessions stay ended.
    expect((await put(B, '/api/admin/platform/tenant/enable', { ids: [t.tenantId], enabled: true }, platformToken)).status).toBe(0);
    const fresh = await signIn(A, t.name, t.password);
    for (const server of servers) expect((await me(server, fresh)).status).toBe(0);
    for (const server of servers) expect((await me(server, atB)).status).toBe(40100);
  });
});
