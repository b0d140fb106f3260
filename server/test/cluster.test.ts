import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { admin } from '../src/db/schema/index.ts';
import { createTestDatabase, seedStaff, seedTenant, TEST_DB, type TestTenant } from './harness.ts';

/*
 * Two server processes on one PostgreSQL and one Redis, attacked with real parallel HTTP requests
 * spread over both: sign-in counters, captchas, SMS limits and session ends must hold across them.
 * Runs in the PostgreSQL stage (TEST_DB=postgres with DATABASE_URL and REDIS_URL, as .ci/run sets them).
 */
const REDIS_URL = process.env.REDIS_URL;
const enabled = TEST_DB === 'postgres' && Boolean(process.env.DATABASE_URL) && Boolean(REDIS_URL);
const ROOT = path.resolve(import.meta.dirname, '../..');
// Every key of this run starts with its own prefix: parallel runs on one Redis never meet.
const PREFIX = `p8test:cluster:${randomBytes(4).toString('hex')}:`;

interface Server {
  url: string;
  stop(): Promise<void>;
  output(): string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: PREFIX,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    EXPOSE_CODES_FOR_TESTS: '1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(ROOT, 'no-web-build'),
  };
  delete env.TRUST_PROXY;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: Server = {
    url: `http://127.0.0.1:${port}`,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  for (const deadline = Date.now() + 100_000; ; ) {
    if (child.exitCode !== null) throw new Error(`a server exited before it was ready:\n${log}`);
    try {
      if ((await fetch(`${server.url}/api/base/system/config`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`a server did not answer within 100 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

const countMessages = (bodies: Array<{ message: string }>) =>
  bodies.reduce<Record<string, number>>((counts, { message }) => ({ ...counts, [message]: (counts[message] ?? 0) + 1 }), {});

describe.skipIf(!enabled)('two server processes on one PostgreSQL and Redis', () => {
  let database: Database;
  let dropDatabase: () => Promise<void>;
  let redis: Redis;
  let servers: Server[] = [];
  /** The i-th request goes to server i mod 2: every burst is split over both processes. */
  const at = (i: number) => servers[i % 2];

  beforeAll(async () => {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 2 });
    await migrateDatabase(database);
    redis = new Redis(REDIS_URL!);
    servers = await Promise.all([startServer(created.databaseUrl!), startServer(created.databaseUrl!)]);
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
});
