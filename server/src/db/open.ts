import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { migrateDatabase, openDatabase, type Database } from './connection.ts';
import { seedDemo } from './seed/demo.ts';
import { syncMenusForAllTenants } from './seed/sync.ts';

/** Opens the configured database, migrates it, keeps every tenant's menus in step, seeds the demo. */
export async function openConfiguredDatabase(config: Config, log: { info: (msg: string) => void }): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'pglite') },
  );
  await migrateDatabase(database);
  const added = await syncMenusForAllTenants(database);
  if (added) log.info(`menu template: added ${added} menu entries to existing tenants`);
  if (config.seedDemo && (await seedDemo(database))) log.info('seeded the demo tenants (admin / admin123, admin2 / admin123)');
  if (database.kind === 'pglite') {
    // PGlite runs no autovacuum: without statistics the planner can pick a tenant_id-only index for
    // every lookup and keep that plan. Analyze on start and then hourly.
    await database.db.execute(sql`analyze`);
    setInterval(() => void database.db.execute(sql`analyze`).catch(() => {}), 3600_000).unref();
  }
  return database;
}
