import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../connection.ts';
import { tenant } from '../schema/index.ts';
import { MENU_TEMPLATE, syncMenuTemplate } from './menus.ts';

/** Where the database notes the version of the menu template every tenant was last brought to. */
const TEMPLATE_TABLE = 'p8_menu_template';

/** Identifies the menu template: a hash of its entries. */
export function menuTemplateKey(): string {
  return createHash('sha256').update(JSON.stringify(MENU_TEMPLATE)).digest('hex').slice(0, 16);
}

/** The advisory lock that lets one starting process at a time bring the menus up to date. */
const MENU_SYNC_LOCK = 884202;

/**
 * Adds the template entries every tenant lacks; returns how many were added. Walking every tenant's
 * menus costs a query per tenant at every start, so once all tenants have this version of the template
 * the database says so and the walk is skipped (tenants created later get the whole template anyway).
 * Several processes starting at once on one PostgreSQL database take turns (a transaction-scoped advisory
 * lock held on a connection of its own): two at once met in `create table if not exists` ("type already
 * exists") and would each have added the same entries; the one that comes second finds the key recorded.
 */
export async function syncMenusForAllTenants(database: Database): Promise<number> {
  // PGlite has one connection, and only this process opens its directory: nothing to take turns with.
  if (database.kind === 'pglite') return syncTemplate(database);
  return database.withSystem(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MENU_SYNC_LOCK})`);
    return syncTemplate(database);
  });
}

async function syncTemplate(database: Database): Promise<number> {
  const key = menuTemplateKey();
  await database.db.execute(sql.raw(`create table if not exists ${TEMPLATE_TABLE} (template_key text primary key, synced_at timestamptz not null default now())`));
  const [synced] = await rows<{ template_key: string }>(database, sql`select template_key from ${sql.raw(TEMPLATE_TABLE)} where template_key = ${key}`);
  if (synced) return 0;
  const tenants = await database.db.select({ id: tenant.id }).from(tenant);
  let added = 0;
  for (const t of tenants) added += await database.withTenant(t.id, (tx) => syncMenuTemplate(tx, t.id));
  await database.db.execute(sql`delete from ${sql.raw(TEMPLATE_TABLE)} where template_key <> ${key}`);
  await database.db.execute(sql`insert into ${sql.raw(TEMPLATE_TABLE)} (template_key) values (${key}) on conflict do nothing`);
  return added;
}
