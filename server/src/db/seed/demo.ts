import { sql } from 'drizzle-orm';
import type { Database } from '../connection.ts';
import { admin } from '../schema/index.ts';
import { createTenant } from '../../modules/tenant/service.ts';

/**
 * Two demo tenants so that multi-tenancy can be seen (README: default logins). Only on the embedded
 * database by default; a PostgreSQL deployment seeds only when SEED_DEMO=1. Idempotent.
 */
export const DEMO_TENANTS = [
  // Its demo bills keep stock on storage locations, and its finance demo sells from stock without a sale
  // order before it: locations and direct out-stocks are on.
  { tenantName: '演示制造有限公司', adminName: 'admin', password: 'admin123', phone: '13800000001', realName: '管理员', config: { openShelves: true, openDirectOutstock: true, openConsumablesOutstock: true, openEntrustMachining: true } },
  { tenantName: '示范贸易有限公司', adminName: 'admin2', password: 'admin123', phone: '13800000002', realName: '管理员二' },
];

export async function seedDemo(database: Database): Promise<boolean> {
  const [existing] = await database.db.select({ id: admin.id }).from(admin).where(sql`lower(${admin.name}) = 'admin'`).limit(1);
  if (existing) return false;
  await database.withSystem(async (tx) => {
    for (const demo of DEMO_TENANTS) await createTenant(tx, demo);
  });
  return true;
}
