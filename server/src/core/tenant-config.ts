import { eq } from 'drizzle-orm';
import { tenantConfigSchema, type TenantConfig } from '@p8/contract/tenant-config';
import type { Tx } from '../db/connection.ts';
import { tenant } from '../db/schema/index.ts';

/** A tenant's switches and settings, validated and defaulted (the stored JSON may predate newer fields). */
export async function readTenantConfig(tx: Tx, tenantId: number): Promise<TenantConfig> {
  const [row] = await tx.select({ config: tenant.config }).from(tenant).where(eq(tenant.id, tenantId));
  return parseTenantConfig(row?.config);
}

/** The stored config column as a TenantConfig (for queries that read it along with other columns). */
export const parseTenantConfig = (stored: unknown): TenantConfig => tenantConfigSchema.parse(stored ?? {});
