import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { APP_ROLE } from './schema/tenancy.ts';

export type Schema = typeof schema;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- both drivers' result kinds
export type Db = PgDatabase<PgQueryResultHKT, Schema> & { $client: any };
/** A transaction handle, as passed to `withTenant` / `withSystem` callbacks. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Owner connection. Only core/auth, migrations and seeding use it directly. */
  db: Db;
  /** Runs `fn` in one transaction as the non-owner app role with `app.tenant_id` set: RLS applies. */
  withTenant<T>(tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction as the owner: for the few pre-tenant steps (login, register, sessions). */
  withSystem<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(import.meta.dirname, 'migrations');

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory of the embedded database; undefined = in memory (tests). */
  pgliteDir?: string;
  /** An existing PGlite instance (tests share one per worker). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  let db: Db;
  let kind: Database['kind'];
  let closeClient: () => Promise<void>;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client whose connection the server ends (restart, failover, admin command) emits 'error' on
    // the pool; without a listener Node treats it as uncaught and the process dies. The pool drops that
    // client and opens a new one on the next query.
    pool.on('error', (error) => console.warn(`database: idle connection lost (${error.message})`));
    db = drizzlePg({ client: pool, schema }) as unknown as Db;
    kind = 'postgres';
    closeClient = () => pool.end();
  } else {
    let client = options.pglite;
    if (!client) {
      if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
      // pg_trgm: the trigram indexes of the lists' contains-filters (migration 0004). PGlite loads no
      // extension without a data directory, hence 'memory://' for the in-memory database.
      client = new PGlite(options.pgliteDir ?? 'memory://', { extensions: { pg_trgm } });
    }
    db = drizzlePglite({ client, schema }) as unknown as Db;
    kind = 'pglite';
    closeClient = options.pglite ? async () => {} : () => client.close();
  }

  return {
    kind,
    db,
    withTenant(tenantId, fn) {
      if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error(`invalid tenant id ${tenantId}`);
      return db.transaction(async (tx) => {
        // Both settings are transaction-local (is_local = true), so a pooled connection carries nothing over.
        await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true), set_config('role', ${APP_ROLE}, true)`);
        return fn(tx);
      });
    },
    withSystem(fn) {
      return db.transaction(fn);
    },
    close: closeClient,
  };
}

/**
 * Brings the schema up to date: creates the app role if missing, applies the committed migrations,
 * then grants the app role its table rights and forces RLS on every tenant table. Refuses to start when
 * a table with a `tenant_id` column has no isolation policy, so a new table cannot forget one.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  const { db } = database;
  await db.execute(sql`select pg_advisory_lock(884201)`);
  try {
    await db.execute(sql.raw(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then create role ${APP_ROLE} nologin; end if;
    exception when duplicate_object then null; end $$`));
    // The connecting role must be able to SET ROLE to the app role (a no-op for a superuser).
    await db.execute(sql.raw(`do $$ begin execute format('grant ${APP_ROLE} to %I', current_user); exception when others then null; end $$`));
    if (database.kind === 'postgres') await migratePg(db as never, { migrationsFolder: MIGRATIONS });
    else await migratePglite(db as never, { migrationsFolder: MIGRATIONS });

    const tenantTables = await rows<{ table_name: string; has_policy: boolean }>(
      database,
      sql`select c.relname as table_name, exists (select 1 from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as has_policy
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'
            and (c.relname = 'tenant' or exists (select 1 from information_schema.columns col
                  where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'tenant_id'))
            and c.relname not in ('session', 'captcha')`,
    );
    const unprotected = tenantTables.filter((t) => !t.has_policy).map((t) => t.table_name);
    if (unprotected.length) throw new Error(`tenant tables without an RLS policy: ${unprotected.join(', ')}`);
    await db.execute(sql.raw(`grant usage on schema public to ${APP_ROLE}`));
    for (const { table_name } of tenantTables) {
      await db.execute(sql.raw(`alter table "${table_name}" force row level security`));
      await db.execute(sql.raw(`grant select, insert, update, delete on "${table_name}" to ${APP_ROLE}`));
    }
    await db.execute(sql.raw(`grant usage, select on all sequences in schema public to ${APP_ROLE}`));
  } finally {
    await db.execute(sql`select pg_advisory_unlock(884201)`);
  }
}

/** Rows of a raw query, for both drivers (node-postgres and PGlite both return `{ rows }`). */
export async function rows<T>(database: Pick<Database, 'db'> | Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  const target = 'db' in database ? database.db : database;
  const result = (await target.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
