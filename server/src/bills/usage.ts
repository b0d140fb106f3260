import { and, eq, inArray, sql } from 'drizzle-orm';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { lineKindOf } from '@p8/contract/bills/registry';
import { heldBy, type RecordUsage, type UsageChecker } from '../core/record-usage.ts';
import { bill, billLine, stockLedger } from '../db/schema/index.ts';

/**
 * The basic records bills refer to cannot be deleted while a bill (or a ledger entry) names them: the
 * delete of a supplier, customer, material, warehouse, location or unit asks these checks (core/record-usage.ts),
 * and so does a staff account's (a staff member named by bills is disabled instead).
 * A fee type is in use while a fee line (line kind `fee`: fees and incomes) names it, drafts included.
 * No bill names a pay type or BOM yet; the production bills that do will register theirs.
 */
export function registerBillUsage(usage: RecordUsage) {
  usage.register('supplier', 'bills', heldBy(bill, bill.supplierId));
  usage.register('customer', 'bills', heldBy(bill, bill.customerId));
  usage.register('material', 'bill lines', heldBy(billLine, billLine.materialId));
  usage.register('material', 'stock ledger', heldBy(stockLedger, stockLedger.materialId));
  usage.register('unit', 'bill lines', heldBy(billLine, billLine.unitId));
  usage.register('stock', 'bills', heldBy(bill, bill.warehouseId));
  usage.register('stock', 'transfer bills', heldBy(bill, bill.targetWarehouseId));
  usage.register('stock', 'bill lines', heldBy(billLine, billLine.warehouseId));
  usage.register('stock', 'transfer lines', heldBy(billLine, billLine.targetWarehouseId));
  usage.register('stock', 'stock ledger', heldBy(stockLedger, stockLedger.warehouseId));
  usage.register('location', 'bill lines', heldBy(billLine, billLine.locationId));
  usage.register('location', 'transfer lines', heldBy(billLine, billLine.targetLocationId));
  usage.register('location', 'stock ledger', heldBy(stockLedger, stockLedger.locationId));
  usage.register('staff', 'bill creators', heldBy(bill, bill.createdBy));
  usage.register('staff', 'bill handlers', heldBy(bill, bill.handlerId));
  usage.register('staff', 'bill auditors', heldBy(bill, bill.auditBy));
  usage.register('fee', 'fee lines', feeLines);
}

/** The bill types whose lines are fee lines (their fee type id in the line's `extra.feeTypeId`). */
const FEE_LINE_TYPES = BILL_TYPES.filter((decl) => lineKindOf(decl) === 'fee').map((decl) => decl.type);

/** A fee type named by a line of a bill of those types (found through the bills of the types, which are few). */
const feeLines: UsageChecker = async (tx, tenantId, ids) => {
  const named = sql<string>`${billLine.extra}->>'feeTypeId'`;
  const [row] = await tx
    .select({ id: named })
    .from(bill)
    .innerJoin(billLine, and(eq(billLine.tenantId, bill.tenantId), eq(billLine.billId, bill.id)))
    .where(and(eq(bill.tenantId, tenantId), inArray(bill.billType, FEE_LINE_TYPES), inArray(named, ids.map(String))))
    .limit(1);
  return row ? { id: Number(row.id) } : undefined;
};
