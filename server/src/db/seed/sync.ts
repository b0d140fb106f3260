import type { Database } from '../connection.ts';
import { tenant } from '../schema/index.ts';
import { syncMenuTemplate } from './menus.ts';

export async function syncMenusForAllTenants(database: Database): Promise<number> {
  const tenants = await database.db.select({ id: tenant.id }).from(tenant);
  let added = 0;
  for (const t of tenants) added += await database.withTenant(t.id, (tx) => syncMenuTemplate(tx, t.id));
  return added;
}
