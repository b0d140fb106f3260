import { heldBy, type RecordUsage } from '../core/record-usage.ts';
import { bill, billLine, stockLedger } from '../db/schema/index.ts';

/**
 * The basic records bills refer to cannot be deleted while a bill (or a ledger entry) names them: the
 * delete of a supplier, customer, material, warehouse, location or unit asks these checks (core/record-usage.ts),
 * and so does a staff account's (a staff member named by bills is disabled instead).
 * Supply-chain bills name no fee type, pay type or BOM; the finance and production bills that do will
 * register theirs.
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
}
