import { and, eq } from 'drizzle-orm';
import type { RefusalDetails } from '@p8/contract/refusals';
import type { Tx } from '../db/connection.ts';
import { bill, billLine, finFundAccount, location, material, partner, warehouse } from '../db/schema/index.ts';
import { BizError } from './errors.ts';

/**
 * Refusals that name what they refuse (the contract's refusals.ts). A raising site knows ids and figures;
 * it throws `refusal(key, refs, values)` (errors.ts), and the unit of work (service-context.ts) names the ids in its own
 * transaction before rolling back (`nameRefusal`) — the bill line's number, the material's code and name,
 * the warehouse's, location's, fund account's and partner's names, the bill's code — so the envelope's
 * `details` carry names and decimal text only, and pure code (stock-math.ts, progress.ts) can refuse too.
 */
const one = async <T>(found: Promise<T[]>): Promise<T | undefined> => (await found)[0];

/** Fills `error.details` with the names of its `refs`, read in `tx` (the refusing unit's own transaction). */
export async function nameRefusal(tx: Tx, tenantId: number, error: BizError): Promise<void> {
  const refs = error.refs;
  if (!refs) return;
  error.refs = undefined;
  const named: RefusalDetails = {};
  if (refs.lineId !== undefined) {
    const line = await one(tx.select({ lineNo: billLine.lineNo }).from(billLine).where(and(eq(billLine.tenantId, tenantId), eq(billLine.id, refs.lineId))));
    if (line) named.line = line.lineNo;
  }
  if (refs.billId !== undefined) {
    const head = await one(tx.select({ code: bill.billCode }).from(bill).where(and(eq(bill.tenantId, tenantId), eq(bill.id, refs.billId))));
    if (head) named.bill = head.code;
  }
  if (refs.materialId) {
    const m = await one(tx.select({ code: material.code, name: material.name }).from(material).where(and(eq(material.tenantId, tenantId), eq(material.id, refs.materialId))));
    if (m) named.material = m;
  }
  if (refs.warehouseId) {
    const w = await one(tx.select({ name: warehouse.name }).from(warehouse).where(and(eq(warehouse.tenantId, tenantId), eq(warehouse.id, refs.warehouseId))));
    if (w) named.warehouse = w.name;
  }
  if (refs.locationId) {
    const l = await one(tx.select({ name: location.name }).from(location).where(and(eq(location.tenantId, tenantId), eq(location.id, refs.locationId))));
    if (l) named.location = l.name;
  }
  if (refs.fundAccountId !== undefined) {
    const a = await one(tx.select({ name: finFundAccount.name }).from(finFundAccount).where(and(eq(finFundAccount.tenantId, tenantId), eq(finFundAccount.id, refs.fundAccountId))));
    if (a) named.account = a.name;
  }
  if (refs.partnerId) {
    const p = await one(tx.select({ name: partner.name }).from(partner).where(and(eq(partner.tenantId, tenantId), eq(partner.id, refs.partnerId))));
    if (p) named.partner = p.name;
  }
  // What the raising site named itself stays (a line number it counted, a bill code it had at hand).
  error.details = { ...named, ...error.details };
}
