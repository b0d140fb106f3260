/**
 * The scratch database every benchmark measures on: a fresh PostgreSQL database created next to
 * DATABASE_URL (dropped at the end unless kept), or an in-memory PGlite where a benchmark allows it,
 * migrated, with the app's `Database` and — on PostgreSQL — a bare `pg` pool of the same size for the
 * baseline side.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { migrateDatabase, openDatabase, type Database } from '../server/src/db/connection.ts';

/**
 * A fresh PostgreSQL database next to `base` (a DATABASE_URL): its name, its URL, and how to drop it
 * (`keep`: leave it, saying so).
 */
export async function freshPostgresDatabase(base: string, prefix: string, keep = false): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(2).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  return {
    name,
    url: databaseUrl(base, name),
    drop: async () => {
      if (keep) return console.log(`kept database ${name}`);
      await run(`drop database if exists ${name} with (force)`);
    },
  };
}

/** `base` with its database replaced by `name`. */
function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface ScratchOptions {
  /** The database name's prefix (a time and a random suffix follow). */
  prefix: string;
  /** The app's pool size, and the bare pool's. */
  poolSize?: number;
  /** Leave the database after the run (its name is printed). */
  keep?: boolean;
  /** Measure an existing database kept by an earlier run instead of creating one (migrated, never dropped). */
  reuse?: string;
  /** Without DATABASE_URL, run on an in-memory PGlite instead of stopping. */
  pglite?: boolean;
}

export interface ScratchDatabase {
  kind: 'postgresql' | 'pglite (in memory)';
  /** The database's name (PostgreSQL). */
  name?: string;
  /** Its URL (PostgreSQL): for loadConfig, a child process, or a further pool. */
  url?: string;
  /** The app's database, migrated. */
  database: Database;
  /** A bare `pg` pool on the same database (PostgreSQL), for the baseline side; errors after `close` are ignored. */
  bare?: pg.Pool;
  /** Closes both pools and drops the database (unless kept or reused). */
  close(): Promise<void>;
  /**
   * CPU (ms, user + system) each server process connected to this database has spent, read from /proc
   * (PostgreSQL), or undefined where that cannot be read (a server on another machine, PGlite).
   */
  serverCpu(): Promise<Map<number, number> | undefined>;
}

/** CPU ms of a process from /proc/<pid>/stat (utime + stime, in clock ticks of 10 ms), or undefined. */
function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Opens the benchmark's scratch database and migrates it. Without DATABASE_URL it stops the process with
 * a message, unless `pglite` allows an in-memory PGlite.
 */
export async function scratchDatabase(options: ScratchOptions): Promise<ScratchDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    if (options.pglite) {
      const database = await openDatabase({});
      await migrateDatabase(database);
      return { kind: 'pglite (in memory)', database, close: () => database.close(), serverCpu: async () => undefined };
    }
    console.error('bench: set DATABASE_URL to a PostgreSQL server (a fresh database is created beside it), e.g.\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/<name>.ts');
    process.exit(2);
  }
  const poolSize = options.poolSize ?? 10;
  const fresh = options.reuse
    ? { name: options.reuse, url: databaseUrl(base, options.reuse), drop: async () => console.log(`kept database ${options.reuse}`) }
    : await freshPostgresDatabase(base, options.prefix, options.keep);
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize });
  const bare = new pg.Pool({ connectionString: fresh.url, max: poolSize });
  // Dropping the database at the end terminates connections a pool may still hold: not an error then.
  let closing = false;
  const onPoolError = (error: Error) => {
    if (!closing) console.error('pool error:', error.message);
  };
  bare.on('error', onPoolError);
  (database.db.$client as pg.Pool).on('error', onPoolError);
  const close = async () => {
    closing = true;
    await bare.end();
    await database.close();
    await fresh.drop();
  };
  try {
    await migrateDatabase(database);
  } catch (error) {
    await close();
    throw error;
  }
  const serverCpu = async () => {
    const pids = (await bare.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()')).rows.map((r) => r.pid);
    const cpu = new Map<number, number>();
    for (const pid of pids) {
      const ms = processCpuMs(pid);
      if (ms === undefined) return undefined;
      cpu.set(pid, ms);
    }
    return cpu;
  };
  return { kind: 'postgresql', name: fresh.name, url: fresh.url, database, bare, close, serverCpu };
}

/**
 * The real app on the scratch database, listening on a loopback port (request logging off), and a token of
 * `admin` signed in through the login route, as the measured requests carry it.
 */
export async function listeningApp(scratch: ScratchDatabase, admin: { name: string; password: string }) {
  const config = loadConfig({ databaseUrl: scratch.url, seedDemo: false, logLevel: 'silent', webDist: undefined });
  const app = await buildApp({ config, database: scratch.database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const login = await fetch(`${url}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  return { app, url, token };
}

/**
 * A benchmark's bare baseline: `statements` run over the scratch database's bare `pg` pool in one transaction
 * as the app role with the tenant set (RLS applies as it does to the app), nothing else around them.
 */
export async function bareTransaction(scratch: ScratchDatabase, tenantId: number, statements: ReadonlyArray<{ sql: string; params: unknown[] }>): Promise<void> {
  const client = await scratch.bare!.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'p8_app', true)`, [String(tenantId)]);
    for (const s of statements) await client.query(s.sql, s.params);
    await client.query('commit');
  } finally {
    client.release();
  }
}
