import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/connection.ts';
import { sql } from 'drizzle-orm';
import {
  attribute,
  bill,
  billCount,
  billLine,
  billTransition,
  stockBatch,
  stockLedger,
  stockValuation,
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
  finAccountDay,
  finBillOpen,
  finFundAccount,
  finMoneyDoc,
  finPartnerBalance,
  finPosting,
  finPostingLine,
} from '../../db/schema/index.ts';

/**
 * Which tables "clear data" empties (header menu: clear business data / clear basic data). Each module
 * that adds tenant tables lists them here: business = bills, ledgers and orders; basic = the basic
 * records (materials, partners, warehouses…). System tables (users, roles, departments, menus, config)
 * are never cleared. Tables are deleted in the listed order, so list children before parents.
 */
/** The bill engine's tables: bills, their timelines and counts, the stock ledger and what it sums to. */
const BILL_DATA: PgTable[] = [
  // Finance hangs on bills: its ledger, settlements, money documents and fund accounts (whose opening
  // balances are postings) go first. The chart of accounts stays.
  finMoneyDoc,
  finFundAccount,
  finBillOpen,
  finPartnerBalance,
  finPostingLine,
  finAccountDay,
  finPosting,
  billTransition, billLine, bill, billCount, stockLedger, stockValuation, stockBalance, stockBatch];

export const TENANT_DATA: Record<'business' | 'basic', PgTable[]> = {
  business: BILL_DATA,
  // Balances go with the materials and warehouses they count; bills with the records they name.
  basic: [
    ...BILL_DATA,
    recordAssignment,
    bomLine,
    bom,
    materialUnit,
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
  // The stock ledger refuses deletes (append-only) unless the transaction says it is clearing data.
  await tx.execute(sql`select set_config('p8.clear_data', 'on', true)`);
  for (const table of TENANT_DATA[type]) {
    const result = await tx.delete(table).where(eq((table as unknown as { tenantId: never }).tenantId, tenantId));
    cleared += (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as unknown as { affectedRows?: number }).affectedRows ?? 0;
  }
  return cleared;
}
