import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { migrateDatabase, openDatabase, type Database } from './connection.ts';
import { openMigratedPglite } from './image.ts';
import { seedDemo } from './seed/demo.ts';
import { syncMenusForAllTenants } from './seed/sync.ts';

/**
 * Opens the configured database, migrates it, keeps every tenant's menus in step, seeds the demo. A fresh
 * embedded database starts from the migrated image (db/image.ts) instead of running initdb and the migrations.
 */
export async function openConfiguredDatabase(config: Config, log: { info: (msg: string) => void }): Promise<Database> {
  let database: Database;
  if (config.databaseUrl) {
    database = await openDatabase({ databaseUrl: config.databaseUrl });
    await migrateDatabase(database);
  } else {
    database = await openMigratedPglite(path.join(config.dataDir, 'pglite'));
  }
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
    setInterval(() => void analyze(), 3600_000).unref();
  }
  return database;
}
