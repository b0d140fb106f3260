import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyContextConfig, FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import type { SmsPurpose } from '@p8/contract/auth';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { migrateDatabase, openDatabase, type Database } from '../src/db/connection.ts';
import { openMigratedPglite } from '../src/db/image.ts';
import { admin, adminRole, role } from '../src/db/schema/index.ts';
import { createTenant } from '../src/modules/tenant/service.ts';
import { hashPassword } from '../src/core/passwords.ts';
import type { SmsNotice, SmsSender } from '../src/core/captcha.ts';

/**
 * Integration-test harness: the real app on a real database. `TEST_DB=postgres` (with DATABASE_URL)
 * runs against PostgreSQL in a database created for this test file and dropped after it; otherwise an
 * in-memory PGlite, one per test file (never one per test: a database costs seconds), loaded from the
 * migrated image (db/image.ts, built before the run by global-setup.ts) instead of initdb + migrations.
 */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** SMS codes "sent" so far, newest last. */
  sms: Array<{ phone: string; code: string; purpose: SmsPurpose }>;
  /** SMS notices "sent" so far, newest last. */
  smsNotices: Array<{ phone: string; template: SmsNotice; params: Record<string, string> }>;
  /**
   * Every route of the app (method, URL with its `:params`, and whether it answers without a sign-in),
   * as Fastify's onRoute hook saw them added.
   */
  routes: Array<{ method: string; url: string; public: boolean; config: FastifyContextConfig }>;
  /** With TEST_DB=postgres: the test's own database (a test that needs connections of its own opens them there). */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * With TEST_DB=postgres: a database of its own on DATABASE_URL's server, and how to drop it — empty, or with
 * `migrated` a copy of the run's migrated template (global-setup.ts). Otherwise nothing (the embedded
 * database in memory).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<{ databaseUrl?: string; drop(): Promise<void> }> {
  if (TEST_DB !== 'postgres') return { drop: async () => {} };
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `p8_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const template = options.migrated ? inject('serverTemplateDatabase') : undefined;
  const adminClient = new pg.Client({ connectionString: base });
  await adminClient.connect();
  await adminClient.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await adminClient.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** `logger`: Fastify's logger options (a test that reads what the app logs gives a level and a stream); none by default. */
export async function startTestApp(overrides: Partial<Config> = {}, options: { logger?: object } = {}): Promise<TestContext> {
  const { databaseUrl, drop: dropDatabase } = await createTestDatabase({ migrated: true });
  let database: Database;
  if (databaseUrl) {
    database = await openDatabase({ databaseUrl, poolSize: 4 });
    // A copy of the migrated template: this only checks the app role and the schema key.
    await migrateDatabase(database);
  } else {
    database = await openMigratedPglite();
  }
  // In-process shared state even where CI exports REDIS_URL: tests move the clock (captcha expiry), which a
  // Redis server would not follow. The two-process test (cluster.test.ts) is the one that runs on Redis.
  const config = loadConfig({ env: 'test', seedDemo: false, exposeCodes: true, logLevel: 'silent', webDist: undefined, redisUrl: undefined, ...overrides });
  const sms: TestContext['sms'] = [];
  const smsNotices: TestContext['smsNotices'] = [];
  const sender: SmsSender = {
    async send(phone, code, purpose) {
      sms.push({ phone, code, purpose });
    },
    async notify(phone, template, params) {
      smsNotices.push({ phone, template, params });
    },
  };
  const routes: TestContext['routes'] = [];
  const onRoute = (route: RouteOptions) => {
    const isPublic = (route.config as { auth?: boolean } | undefined)?.auth === false || route.url.startsWith('/api/docs');
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, public: isPublic, config: (route.config ?? {}) as FastifyContextConfig });
  };
  const app = await buildApp({ config, database, sms: sender, logger: options.logger ?? false, onRoute });
  return {
    app,
    database,
    config,
    sms,
    smsNotices,
    routes,
    databaseUrl,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase();
    },
  };
}

let counter = 0;
/** A unique suffix so that account names and phones never collide across tests. */
export function unique(): string {
  counter += 1;
  return `${process.pid % 1000}${counter}${randomBytes(2).toString('hex')}`;
}

export function uniquePhone(): string {
  return `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

export interface TestTenant {
  tenantId: number;
  adminId: number;
  deptId: number;
  roleId: number;
  name: string;
  password: string;
  tenantName: string;
  phone: string;
}

export async function seedTenant(database: Database, label = 'T'): Promise<TestTenant> {
  const suffix = unique();
  const input = { tenantName: `${label}-tenant-${suffix}`, adminName: `${label.toLowerCase()}admin${suffix}`, password: 'Passw0rd!', phone: uniquePhone() };
  const created = await database.withSystem((tx) => createTenant(tx, input));
  return { ...created, name: input.adminName, password: input.password, tenantName: input.tenantName, phone: input.phone };
}

/** Adds an ordinary (non-super) staff account with its own role to a tenant. */
export async function seedStaff(database: Database, tenant: TestTenant, opts: { roleKey?: string } = {}) {
  const suffix = unique();
  const name = `staff${suffix}`;
  return database.withTenant(tenant.tenantId, async (tx) => {
    const [r] = await tx
      .insert(role)
      .values({ tenantId: tenant.tenantId, roleKey: opts.roleKey ?? `staff${suffix}`, roleName: `Staff ${suffix}`, dataScope: 'Self' })
      .returning({ id: role.id });
    const [a] = await tx
      .insert(admin)
      .values({ tenantId: tenant.tenantId, name, passwordHash: await hashPassword('Passw0rd!'), realName: name, deptId: tenant.deptId })
      .returning({ id: admin.id });
    await tx.insert(adminRole).values({ tenantId: tenant.tenantId, adminId: a.id, roleId: r.id });
    return { adminId: a.id, roleId: r.id, name, password: 'Passw0rd!' };
  });
}

export async function setAdmin(database: Database, tenantId: number, adminId: number, values: Partial<typeof admin.$inferInsert>) {
  await database.withTenant(tenantId, (tx) => tx.update(admin).set(values).where(and(eq(admin.tenantId, tenantId), eq(admin.id, adminId))));
}

export interface Reply<T = unknown> {
  httpStatus: number;
  body: { status: number; message: string; remark?: string; additional?: string; data: T; pagination?: unknown };
  headers: Record<string, unknown>;
}

/** Calls the app like the web client does: JSON in, envelope out, optional bearer token. */
export async function call<T = unknown>(app: FastifyInstance, method: InjectOptions['method'], url: string, options: { token?: string; body?: unknown } = {}): Promise<Reply<T>> {
  const res = await app.inject({
    method,
    url,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  return { httpStatus: res.statusCode, body: res.json(), headers: res.headers };
}

export async function login(app: FastifyInstance, name: string, password: string): Promise<string> {
  const res = await call<{ token: string }>(app, 'POST', '/api/auth/admin/name', { body: { name, password } });
  if (res.body.status !== 0) throw new Error(`login failed for ${name}: ${res.body.message}`);
  return res.body.data.token;
}

export async function imgCaptcha(app: FastifyInstance): Promise<{ captchaId: string; code: string }> {
  const res = await call<{ captchaId: string; code: string }>(app, 'GET', '/api/base/imgCaptcha');
  return res.body.data;
}
