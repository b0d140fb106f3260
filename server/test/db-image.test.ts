import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migrationsKey, openDatabase, rows } from '../src/db/connection.ts';
import { ensureMigratedImage, migratedImagePath, openMigratedPglite } from '../src/db/image.ts';
import { createTestDatabase, TEST_DB } from './harness.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const tableNames = async (database: Awaited<ReturnType<typeof openMigratedPglite>>) =>
  (await rows<{ relname: string }>(database, sql`select relname from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`)).map((r) => r.relname);

describe('the migrated image of the embedded database', () => {
  it('is built once per set of migrations and named after them', async () => {
    const file = await ensureMigratedImage();
    expect(file).toBe(migratedImagePath());
    expect(path.basename(file)).toContain(migrationsKey());
    expect(existsSync(file)).toBe(true);
  });

  it('gives an in-memory database with every migration applied and the checks marked as passed', async () => {
    const database = await openMigratedPglite();
    try {
      expect(await tableNames(database)).toEqual(expect.arrayContaining(['tenant', 'admin', 'role', 'menu', 'material']));
      const checked = await rows<{ migrations_key: string }>(database, sql`select migrations_key from p8_schema_check`);
      expect(checked).toEqual([{ migrations_key: migrationsKey() }]);
      // RLS is forced on tenant tables in the image: the app role sees no tenant without app.tenant_id.
      const forced = await rows<{ relforcerowsecurity: boolean }>(database, sql`select relforcerowsecurity from pg_class where relname = 'admin'`);
      expect(forced).toEqual([{ relforcerowsecurity: true }]);
    } finally {
      await database.close();
    }
  });

  it('starts a fresh directory from the image and reopens it as it is on a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p8-image-'));
    dirs.push(dir);
    const first = await openMigratedPglite(path.join(dir, 'pglite'));
    await first.db.execute(sql`insert into tenant (name) values ('kept across restarts')`);
    await first.close();
    const again = await openMigratedPglite(path.join(dir, 'pglite'));
    try {
      expect(await rows(again, sql`select name from tenant`)).toEqual([{ name: 'kept across restarts' }]);
    } finally {
      await again.close();
    }
  });

  it('runs the full migration and checks again when the database was checked for other migrations', async () => {
    const database = await openMigratedPglite();
    try {
      await database.db.execute(sql`update p8_schema_check set migrations_key = 'older-migrations'`);
      await database.db.execute(sql`alter table admin no force row level security`);
      await migrateDatabase(database);
      expect(await rows(database, sql`select migrations_key from p8_schema_check`)).toEqual([{ migrations_key: migrationsKey() }]);
      expect(await rows(database, sql`select relforcerowsecurity from pg_class where relname = 'admin'`)).toEqual([{ relforcerowsecurity: true }]);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(TEST_DB !== 'postgres')('migrations on PostgreSQL', () => {
  it('leave no advisory lock behind while other queries share the pool', async () => {
    const created = await createTestDatabase();
    const database = await openDatabase({ databaseUrl: created.databaseUrl, poolSize: 3 });
    try {
      await migrateDatabase(database);
      // Other work of the process keeps taking the pool's idle connections while the (already checked)
      // database is migrated again: lock and unlock must still run on one connection. (When they did not,
      // an unlock missed its lock and the next migration waited for it forever: this test timed out.)
      let busy = true;
      const others = Array.from({ length: 4 }, async () => {
        while (busy) await database.db.execute(sql`select 1`);
      });
      for (let i = 0; i < 20; i++) await migrateDatabase(database);
      busy = false;
      await Promise.all(others);
      const held = await rows<{ n: number }>(database, sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 884201 and database = (select oid from pg_database where datname = current_database())`);
      expect(held).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
      await created.drop();
    }
  }, 60_000);
});
