/**
 * Sign-in and menu/permission load, side by side with the same database work over a bare `pg` pool.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *   BENCH_TENANTS=200 BENCH_DURATION=20 npm run bench          (or: npm run bench -w bench -- --tenants 200)
 *   flags / env: --tenants BENCH_TENANTS (50), --duration BENCH_DURATION (10 s), --rounds BENCH_ROUNDS (3),
 *   --warmup BENCH_WARMUP (2 s), --connections BENCH_CONNECTIONS (10), --pool BENCH_POOL (10), --keep BENCH_KEEP=1
 *
 * It creates a fresh database next to DATABASE_URL's (dropped at the end unless --keep), migrates it,
 * seeds N tenants through `createTenant` (each with its initial administrator and the full menu tree),
 * starts the real app in-process on a loopback port and, beside it, a bare `node:http` server that
 * runs the same queries through `pg` directly. autocannon runs in a child process (bench/load.ts)
 * against both, in alternating rounds, with the same connections and duration. See bench/README.md.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { verifyPassword } from '../server/src/core/passwords.ts';
import { createTenant } from '../server/src/modules/tenant/service.ts';
import { measurePair } from './measure.ts';
import { scratchDatabase } from './scratch-database.ts';

const HERE = import.meta.dirname;
const PASSWORD = 'Bench123';
const APP_ROLE = 'p8_app';

const { values: flags } = parseArgs({
  options: {
    tenants: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    pool: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const num = (flag: string | undefined, env: string, fallback: number) => {
  const value = Number(flag ?? process.env[env] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${env.toLowerCase()} must be a positive number`);
  return value;
};
const TENANTS = num(flags.tenants, 'BENCH_TENANTS', 50);
const DURATION = num(flags.duration, 'BENCH_DURATION', 10);
const WARMUP = num(flags.warmup, 'BENCH_WARMUP', 2);
const CONNECTIONS = num(flags.connections, 'BENCH_CONNECTIONS', 10);
const POOL = num(flags.pool, 'BENCH_POOL', 10);
const ROUNDS = num(flags.rounds, 'BENCH_ROUNDS', 3);
const KEEP = flags.keep || process.env.BENCH_KEEP === '1';

// ------------------------------------------------------------------ the bare baseline

/**
 * The same database work as the two endpoints, written directly against `pg`:
 * - login: the account lookup (owner connection), argon2 verify, then one transaction that resets the
 *   failure counter and inserts the session row;
 * - role: the session lookup the auth hook does, then one transaction with `set_config` (tenant and
 *   the non-owner role, so RLS applies as in the app) running the role query, the permitted-menu query
 *   (super role: every enabled menu) and the menu rows, built into a tree.
 * No framework, no validation, no ORM, no envelope beyond what a client needs.
 */
function startBareServer(pool: pg.Pool): Promise<http.Server> {
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  async function login(body: { name: string; password: string }) {
    const { rows } = await pool.query(
      `select a.*, t.enabled as tenant_enabled, t.is_logoff as tenant_logoff
         from login_name l inner join admin a on a.tenant_id = l.tenant_id and a.id = l.admin_id
        inner join tenant t on t.id = a.tenant_id
        where l.name = lower($1)`,
      [body.name],
    );
    const account = rows[0];
    if (!account || !account.tenant_enabled || account.tenant_logoff || !account.enabled || account.is_lock) return null;
    if (!(await verifyPassword(account.password_hash, body.password))) return null;
    const token = `${account.tenant_id}.${randomBytes(32).toString('base64url')}`;
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('update admin set failed_logins = 0, locked_until = null, last_login_at = now() where tenant_id = $1 and id = $2', [
        account.tenant_id,
        account.id,
      ]);
      await client.query(
        `insert into session (token_hash, tenant_id, admin_id, ip, user_agent, expires_at) values ($1, $2, $3, $4, $5, now() + interval '12 hours')`,
        [createHash('sha256').update(token).digest('hex'), account.tenant_id, account.id, '127.0.0.1', 'bench'],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    return token;
  }

  async function role(token: string) {
    const { rows: sessions } = await pool.query(
      `select s.id, s.tenant_id, s.admin_id, s.last_seen_at, s.expires_at, s.revoked_at,
              t.enabled as tenant_enabled, t.is_logoff, a.enabled as admin_enabled, a.is_lock
         from session s inner join tenant t on t.id = s.tenant_id
         inner join admin a on a.tenant_id = s.tenant_id and a.id = s.admin_id
        where s.tenant_id = $1 and s.token_hash = $2`,
      [Number(token.slice(0, token.indexOf('.'))), createHash('sha256').update(token).digest('hex')],
    );
    const s = sessions[0];
    if (!s || s.revoked_at || s.expires_at.getTime() <= Date.now() || !s.tenant_enabled || !s.admin_enabled) return null;
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', '${APP_ROLE}', true)`, [String(s.tenant_id)]);
      const { rows: roles } = await client.query(
        `select r.id, r.role_key, r.role_name, r.is_super, r.data_scope, r.scope_dept_ids
           from admin_role ar inner join role r on r.tenant_id = ar.tenant_id and r.id = ar.role_id
          where ar.tenant_id = $1 and ar.admin_id = $2 and r.enabled = true`,
        [s.tenant_id, s.admin_id],
      );
      if (!roles.some((r) => r.is_super)) throw new Error('the bare baseline covers the super role only (all seeded accounts are initial administrators)');
      const { rows: permitted } = await client.query('select id, name, menu_type from menu where tenant_id = $1 and enabled = true', [s.tenant_id]);
      const { rows: menus } = await client.query(
        'select * from menu where tenant_id = $1 and enabled = true and id = any($2::bigint[]) order by sort, id',
        [s.tenant_id, permitted.map((m) => m.id)],
      );
      await client.query('commit');
      type Node = Record<string, unknown> & { id: string; parent_id: string | null; children: Node[] };
      const byId = new Map<string, Node>(menus.map((m) => [m.id, { ...m, children: [] }]));
      const roots: Node[] = [];
      for (const node of byId.values()) {
        if (node.parent_id === null) roots.push(node);
        else byId.get(node.parent_id)?.children.push(node);
      }
      return { menuList: roots, buttons: permitted.filter((m) => m.menu_type === 'Button').map((m) => m.name), count: menus.length };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const work =
        req.method === 'POST' && req.url === '/login'
          ? login(JSON.parse(Buffer.concat(chunks).toString() || '{}')).then((token) =>
              token ? json(res, 200, { status: 0, data: { token } }) : json(res, 400, { status: 40001 }),
            )
          : req.method === 'GET' && req.url === '/role'
            ? role((req.headers.authorization ?? '').replace(/^Bearer /, '')).then((data) =>
                data ? json(res, 200, { status: 0, data }) : json(res, 401, { status: 40100 }),
              )
            : Promise.resolve(json(res, 404, { status: 404 }));
      work.catch((error) => {
        console.error(error);
        json(res, 500, { status: 500 });
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ------------------------------------------------------------------ main

async function main() {
  const seedStart = Date.now();
  const scratch = await scratchDatabase({ prefix: 'p8_bench', poolSize: POOL, keep: KEEP });
  const { database } = scratch;
  const bare = scratch.bare!;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let bareServer: http.Server | undefined;
  try {
    console.log(`database ${scratch.name}; seeding ${TENANTS} tenants …`);
    const names: string[] = [];
    for (let i = 1; i <= TENANTS; i++) {
      const adminName = `bench_admin_${i}`;
      await database.withSystem((tx) => createTenant(tx, { tenantName: `Bench tenant ${i}`, adminName, password: PASSWORD }));
      names.push(adminName);
    }
    const [{ count: menuRows }] = (await bare.query('select count(*)::int as count from menu')).rows;
    console.log(`seeded ${TENANTS} tenants (${menuRows} menu rows) in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    const config = loadConfig({
      env: 'production',
      databaseUrl: scratch.url,
      host: '127.0.0.1',
      port: 0,
      seedDemo: false,
      exposeCodes: false,
      webDist: undefined,
      logLevel: 'warn',
    });
    app = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    bareServer = await startBareServer(bare);
    const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

    // One session per tenant for the role runs; check both sides answer the same tree size.
    const tokens: string[] = [];
    for (const name of names) {
      const res = await fetch(`${appUrl}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: PASSWORD }) });
      const body = (await res.json()) as { status: number; message: string; data: { token: string } };
      if (body.status !== 0) throw new Error(`login of ${name} failed: ${body.message}`);
      tokens.push(body.data.token);
    }
    const count = (items: Array<{ children?: unknown[] }>): number => items.reduce((n, m) => n + 1 + count((m.children ?? []) as typeof items), 0);
    const appRole = (await (await fetch(`${appUrl}/api/admin/current/role`, { headers: { authorization: `Bearer ${tokens[0]}` } })).json()) as {
      data: { menuList: Array<{ children?: unknown[] }> };
    };
    const bareRole = (await (await fetch(`${bareUrl}/role`, { headers: { authorization: `Bearer ${tokens[0]}` } })).json()) as { data: { count: number } };
    const appCount = count(appRole.data.menuList);
    if (appCount !== bareRole.data.count) throw new Error(`the baseline is not doing the same work: app tree has ${appCount} menus, bare ${bareRole.data.count}`);
    console.log(`role tree: ${appCount} menu items per tenant on both sides\n`);

    const bodies = names.map((name) => JSON.stringify({ name, password: PASSWORD }));
    console.log(`warm-up ${WARMUP} s per side, then ${ROUNDS} alternating rounds of ${DURATION} s × ${CONNECTIONS} connections`);
    const results = {
      login: await measurePair({ warmup: WARMUP, duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS }, 
        'login',
        { url: appUrl, method: 'POST', path: '/api/auth/admin/name', bodies },
        { url: bareUrl, method: 'POST', path: '/login', bodies },
      ),
      role: await measurePair({ warmup: WARMUP, duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS }, 
        'role',
        { url: appUrl, method: 'GET', path: '/api/admin/current/role', tokens },
        { url: bareUrl, method: 'GET', path: '/role', tokens },
      ),
    };

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const lines = [
      row(['endpoint', 'side', 'req/s', 'p50', 'p95', 'p99', 'requests (all rounds)']),
      row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
    ];
    for (const [name, pair] of Object.entries(results)) {
      for (const side of ['app', 'bare'] as const) {
        const r = pair[side];
        lines.push(row([name, side, r.rps.toFixed(0), ms(r.p50), ms(r.p95), ms(r.p99), String(r.requests)]));
      }
      lines.push(
        row([
          name,
          '**app / bare**',
          `**${(pair.app.rps / pair.bare.rps).toFixed(2)}**`,
          `${(pair.app.p50 / pair.bare.p50).toFixed(2)}×`,
          `${(pair.app.p95 / pair.bare.p95).toFixed(2)}×`,
          `${(pair.app.p99 / pair.bare.p99).toFixed(2)}×`,
          '',
        ]),
      );
    }
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, PostgreSQL ${(await bare.query('show server_version')).rows[0].server_version}`;
    const loadAverage = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
    console.log(`\n${TENANTS} tenants, ${CONNECTIONS} connections, median of ${ROUNDS} × ${DURATION} s per side, pool ${POOL} on both sides; ${machine}; load average ${loadAverage}\n`);
    console.log(lines.join('\n'));
    const resultsDir = path.join(HERE, 'results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `login-and-role-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ tenants: TENANTS, connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS, pool: POOL, machine, loadAverage, results }, null, 2));
    console.log(`\nraw results: ${path.relative(process.cwd(), file)}`);
  } finally {
    await app?.close();
    await new Promise((r) => (bareServer ? bareServer.close(r) : r(undefined)));
    await scratch.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
