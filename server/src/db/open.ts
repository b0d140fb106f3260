import path from 'node:path';
import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { removeUnpublishedImports } from '../core/staged-import.ts';
import { migrateDatabase, openDatabase, type Database } from './connection.ts';
import { demoImagePath, isFreshPgliteDir, openMigratedPglite, saveImage } from './image.ts';
import { seedDemo } from './seed/demo.ts';
import { syncMenusForAllTenants } from './seed/sync.ts';

export interface OpenedDatabase {
  database: Database;
  /**
   * Set when this start created the embedded database from the migrated image and seeds the demo: once
   * the demo records are in too, `saveDemoImage` keeps a copy for the next fresh start.
   */
  demoImageToSave?: string;
}

/**
 * Opens the configured database, migrates it, keeps every tenant's menus in step, seeds the demo. A fresh
 * embedded database starts from the demo image when this code made one before (db/image.ts), else from
 * the migrated image (instead of running initdb and the migrations).
 */
export async function openConfiguredDatabase(config: Config, log: { info: (msg: string) => void }): Promise<OpenedDatabase> {
  let database: Database;
  let demoImageToSave: string | undefined;
  if (config.databaseUrl) {
    database = await openDatabase({ databaseUrl: config.databaseUrl });
    await migrateDatabase(database);
  } else {
    const dir = path.join(config.dataDir, 'pglite');
    const demoImage = config.seedDemo && isFreshPgliteDir(dir) ? demoImagePath() : undefined;
    if (demoImage && existsSync(demoImage)) {
      database = await openMigratedPglite(dir, demoImage);
      log.info('started from the demo image (demo tenants and records as seeded by this code before)');
    } else {
      database = await openMigratedPglite(dir);
      demoImageToSave = demoImage;
    }
  }
  // An import cut short by a crash or a kill left hidden rows (core/staged-import.ts): gone before serving.
  const leftovers = await removeUnpublishedImports(database);
  if (leftovers) log.info(`removed the leftovers of ${leftovers} interrupted import(s)`);
  const added = await syncMenusForAllTenants(database);
  if (added) log.info(`menu template: added ${added} menu entries to existing tenants`);
  const seeded = config.seedDemo && (await seedDemo(database));
  if (seeded) log.info('seeded the demo tenants (admin / admin123, admin2 / admin123)');
  if (database.kind === 'pglite') {
    // PGlite runs no autovacuum: without statistics the planner can pick a tenant_id-only index for
    // every lookup and keep that plan. The statistics are kept in the data directory, so a restart need
    // not wait for them: analyze now only after writing many rows, else a minute after start; then hourly.
    const analyze = () => database.db.execute(sql`analyze`).catch(() => {});
    if (seeded || added) await analyze();
    else setTimeout(() => void analyze(), 60_000).unref();
    // PGlite runs PostgreSQL single-user, with no checkpointer: no volume of WAL triggers a checkpoint
    // (max_wal_size is not looked at), so the WAL of every write since the start stays on disk and a crash
    // replays all of it (≈ 300 MB after a 100,000-row import). An hourly CHECKPOINT writes the dirty
    // buffers (at most the 16 MB of db/connection.ts) and lets the old segments go.
    setInterval(() => void analyze().then(() => database.db.execute(sql`checkpoint`).catch(() => {})), 3600_000).unref();
  }
  return { database, demoImageToSave };
}

/** Keeps the freshly seeded database as the demo image (analyzed first, so a copy needs no ANALYZE). */
export async function saveDemoImage(opened: OpenedDatabase): Promise<void> {
  if (!opened.demoImageToSave) return;
  await opened.database.db.execute(sql`analyze`);
  await saveImage(opened.database, opened.demoImageToSave);
}
