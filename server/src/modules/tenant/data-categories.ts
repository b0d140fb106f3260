import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/connection.ts';
import {
  attribute,
  bom,
  bomLine,
  brand,
  category,
  district,
  feeType,
  location,
  material,
  materialUnit,
  partner,
  partnerAddress,
  partnerContact,
  payType,
  recordAssignment,
  stockBalance,
  unit,
  warehouse,
} from '../../db/schema/index.ts';

/**
 * Which tables "clear data" empties (header menu: clear business data / clear basic data). Each module
 * that adds tenant tables lists them here: business = bills, ledgers and orders; basic = the basic
 * records (materials, partners, warehouses…). System tables (users, roles, departments, menus, config)
 * are never cleared. Tables are deleted in the listed order, so list children before parents.
 */
export const TENANT_DATA: Record<'business' | 'basic', PgTable[]> = {
  business: [stockBalance],
  // Balances go with the materials and warehouses they count.
  basic: [
    recordAssignment,
    bomLine,
    bom,
    materialUnit,
    stockBalance,
    material,
    partnerAddress,
    partnerContact,
    partner,
    location,
    warehouse,
    category,
    district,
    attribute,
    feeType,
    payType,
    unit,
    brand,
  ],
};

export async function clearTenantData(tx: Tx, tenantId: number, type: 'business' | 'basic'): Promise<number> {
  let cleared = 0;
  for (const table of TENANT_DATA[type]) {
    const result = await tx.delete(table).where(eq((table as unknown as { tenantId: never }).tenantId, tenantId));
    cleared += (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as unknown as { affectedRows?: number }).affectedRows ?? 0;
  }
  return cleared;
}
