import { sql } from 'drizzle-orm';
import { bigint, boolean, date, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { material, warehouse } from './basic.ts';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/*
 * The bill engine's tables (server/src/bills/): every bill type of the registry
 * (packages/contract/src/bills) in one header table and one line table, typed columns for the common
 * fields and `extra` jsonb for a type's own; the transitions of every bill (its timeline); the stock
 * ledger (append-only) and the valuation beside the balance (basic.ts's stock_balance); the sharded
 * per-status counts of the bill lists.
 *
 * Quantities and amounts are numeric(20,6), read as strings and computed exactly (contract decimal.ts).
 */

const quantity = (name: string) => numeric(name, { precision: 20, scale: 6 });
const ref = (name: string) => bigint(name, { mode: 'number' });
const day = (name: string) => date(name, { mode: 'string' });

export const bill = pgTable(
  'bill',
  {
    tenantId: tenantId(),
    id: id(),
    /** The registry's type ('PurchaseOrder'). */
    billType: text('bill_type').notNull(),
    billCode: text('bill_code').notNull(),
    billDate: day('bill_date').notNull(),
    billStatus: text('bill_status').notNull().default('Saved'),
    supplierId: ref('supplier_id'),
    customerId: ref('customer_id'),
    warehouseId: ref('warehouse_id'),
    targetWarehouseId: ref('target_warehouse_id'),
    handlerId: ref('handler_id'),
    deptId: ref('dept_id'),
    deliveryDate: day('delivery_date'),
    deliveryWarnDays: integer('delivery_warn_days'),
    payDate: day('pay_date'),
    payWarnDays: integer('pay_warn_days'),
    receiptDate: day('receipt_date'),
    receiptWarnDays: integer('receipt_warn_days'),
    refundType: text('refund_type'),
    /** Types with the delivery button, once audited: null (not sent), InDelivery, Arrived. */
    deliveryStatus: text('delivery_status'),
    number: quantity('number').notNull().default('0'),
    priceTotal: quantity('price_total').notNull().default('0'),
    taxPriceTotal: quantity('tax_price_total').notNull().default('0'),
    remark: text('remark').notNull().default(''),
    attachments: text('attachments').array().notNull().default(sql`'{}'`),
    /** The type's own header fields (those without a column). */
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    /** Header progress states by kind ({ instock: 'PartialInStock' }), kept as downstream bills change. */
    progress: jsonb('progress').$type<Record<string, string>>().notNull().default({}),
    /** The bill this one was merged into (status Merged). */
    mergedInto: ref('merged_into'),
    createdBy: ref('created_by').notNull(),
    /** The creator's department when the bill was created: the department the data scope "own department" reads (not `deptId`, a business field the user picks). */
    ownerDeptId: ref('owner_dept_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    auditBy: ref('audit_by'),
    auditTime: timestamp('audit_time', { withTimezone: true, mode: 'date' }),
    rejectReason: text('reject_reason'),
    /** How many times the bill has been printed (through a print template). */
    printCount: integer('print_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('bill_code_uq').on(t.tenantId, t.billType, t.billCode),
    // The list's default order and its status tabs; both end in id so a page is stable. The status tabs' index
    // carries the data scope's columns after its order: a tab counted under a department's scope reads the
    // index alone, not a heap page per bill (bench/bills.ts: 33,333 of 125,000 bills, 24,000 pages).
    index('bill_type_date_idx').on(t.tenantId, t.billType, t.billDate, t.id),
    index('bill_type_status_idx').on(t.tenantId, t.billType, t.billStatus, t.billDate, t.id, t.ownerDeptId, t.createdBy),
    // The list's filters by partner, warehouse or handler, within a type and by date (bench/bills.ts: a
    // supplier's quarter among 500,000 orders); their leading (tenant, id) also serves the "in use" checks.
    index('bill_supplier_idx').on(t.tenantId, t.supplierId, t.billType, t.billDate, t.id).where(sql`${t.supplierId} is not null`),
    index('bill_customer_idx').on(t.tenantId, t.customerId, t.billType, t.billDate, t.id).where(sql`${t.customerId} is not null`),
    index('bill_warehouse_idx').on(t.tenantId, t.warehouseId, t.billType, t.billDate, t.id).where(sql`${t.warehouseId} is not null`),
    index('bill_handler_idx').on(t.tenantId, t.handlerId, t.billType, t.billDate, t.id).where(sql`${t.handlerId} is not null`),
    index('bill_created_by_idx').on(t.tenantId, t.createdBy),
    // The lists of a caller limited to their own department (data scope Dept / Custom).
    index('bill_owner_dept_idx').on(t.tenantId, t.ownerDeptId, t.billType, t.billDate, t.id).where(sql`${t.ownerDeptId} is not null`),
    // The early warning (early-warning.ts): open posted bills by each date that warns.
    index('bill_delivery_warn_idx').on(t.tenantId, t.deliveryDate).where(sql`${t.deliveryDate} is not null and ${t.billStatus} in ('Audit', 'Partially')`),
    index('bill_pay_warn_idx').on(t.tenantId, t.payDate).where(sql`${t.payDate} is not null and ${t.billStatus} in ('Audit', 'Partially')`),
    index('bill_receipt_warn_idx').on(t.tenantId, t.receiptDate).where(sql`${t.receiptDate} is not null and ${t.billStatus} in ('Audit', 'Partially')`),
    tenantPolicy('bill'),
  ],
).enableRLS();

export const billLine = pgTable(
  'bill_line',
  {
    tenantId: tenantId(),
    id: id(),
    billId: ref('bill_id').notNull(),
    lineNo: integer('line_no').notNull(),
    /** Material lines only (a type's line kind: contract registry.ts LINE_KINDS); null on lines of money. */
    materialId: ref('material_id'),
    unitId: ref('unit_id'),
    /** In the line's unit. */
    number: quantity('number').notNull(),
    /** In the material's main unit (number × the unit's ratio): what stock counts. */
    baseNumber: quantity('base_number').notNull(),
    giftNumber: quantity('gift_number').notNull().default('0'),
    unitPrice: quantity('unit_price').notNull().default('0'),
    taxRate: quantity('tax_rate').notNull().default('0'),
    taxUnitPrice: quantity('tax_unit_price').notNull().default('0'),
    discountRate: quantity('discount_rate').notNull().default('0'),
    priceTotal: quantity('price_total').notNull().default('0'),
    taxPriceTotal: quantity('tax_price_total').notNull().default('0'),
    warehouseId: ref('warehouse_id'),
    locationId: ref('location_id'),
    batchNumber: text('batch_number').notNull().default(''),
    expirationDate: day('expiration_date'),
    serialNumbers: text('serial_numbers').array().notNull().default(sql`'{}'`),
    targetWarehouseId: ref('target_warehouse_id'),
    targetLocationId: ref('target_location_id'),
    remark: text('remark').notNull().default(''),
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    /** Push down: the source line this one takes from (one source line per line). */
    sourceLineId: ref('source_line_id'),
    sourceBillId: ref('source_bill_id'),
    /** Closed by manual completion: nothing more is open on it. */
    closed: boolean('closed').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('bill_line_bill_idx').on(t.tenantId, t.billId, t.lineNo),
    index('bill_line_material_idx').on(t.tenantId, t.materialId),
    index('bill_line_source_idx').on(t.tenantId, t.sourceLineId).where(sql`${t.sourceLineId} is not null`),
    index('bill_line_source_bill_idx').on(t.tenantId, t.sourceBillId).where(sql`${t.sourceBillId} is not null`),
    index('bill_line_warehouse_idx').on(t.tenantId, t.warehouseId),
    index('bill_line_unit_idx').on(t.tenantId, t.unitId),
    // The staff member of a staff line (salaries): the "in use" check of a staff account reads it.
    index('bill_line_staff_idx').on(t.tenantId, sql`((${t.extra}->>'staffId')::bigint)`).where(sql`${t.extra} ? 'staffId'`),
    // The machine of a dispatch's or report's line: the hours of use a maintenance plan counts, the "in use" check.
    index('bill_line_equipment_idx').on(t.tenantId, sql`((${t.extra}->>'equipmentId')::bigint)`).where(sql`${t.extra} ? 'equipmentId'`),
    foreignKey({ columns: [t.tenantId, t.billId], foreignColumns: [bill.tenantId, bill.id], name: 'bill_line_bill_fk' }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'bill_line_material_fk' }),
    tenantPolicy('bill_line'),
  ],
).enableRLS();

/** Every change of a bill's status (and its creation and edits): the timeline. */
export const billTransition = pgTable(
  'bill_transition',
  {
    tenantId: tenantId(),
    id: id(),
    billId: ref('bill_id').notNull(),
    /** create | update | submit | audit | refuse | abandonAudit | merge | manualCompletion | progress | review */
    operation: text('operation').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason').notNull().default(''),
    accountId: ref('account_id'),
    accountName: text('account_name').notNull().default(''),
    at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('bill_transition_bill_idx').on(t.tenantId, t.billId, t.id),
    foreignKey({ columns: [t.tenantId, t.billId], foreignColumns: [bill.tenantId, bill.id], name: 'bill_transition_bill_fk' }).onDelete('cascade'),
    tenantPolicy('bill_transition'),
  ],
).enableRLS();

/**
 * The stock ledger: one row per movement of a posted bill, never updated or deleted (a trigger refuses
 * it). Abandoning an audit appends reversal rows (`reversal` true). Quantities in the main unit.
 */
export const stockLedger = pgTable(
  'stock_ledger',
  {
    tenantId: tenantId(),
    id: id(),
    billId: ref('bill_id').notNull(),
    billLineId: ref('bill_line_id').notNull(),
    billType: text('bill_type').notNull(),
    billCode: text('bill_code').notNull(),
    billDate: day('bill_date').notNull(),
    materialId: ref('material_id').notNull(),
    warehouseId: ref('warehouse_id').notNull(),
    locationId: ref('location_id'),
    batchNumber: text('batch_number').notNull().default(''),
    serialNumber: text('serial_number').notNull().default(''),
    expirationDate: day('expiration_date'),
    quantity: quantity('quantity').notNull(),
    unitCost: quantity('unit_cost').notNull(),
    amount: quantity('amount').notNull(),
    reversal: boolean('reversal').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('stock_ledger_material_idx').on(t.tenantId, t.materialId, t.warehouseId, t.id),
    index('stock_ledger_bill_idx').on(t.tenantId, t.billId),
    index('stock_ledger_date_idx').on(t.tenantId, t.billDate, t.id),
    index('stock_ledger_warehouse_idx').on(t.tenantId, t.warehouseId),
    tenantPolicy('stock_ledger'),
  ],
).enableRLS();

/** Moving-average valuation per material and warehouse: quantity on hand and its total value. */
export const stockValuation = pgTable(
  'stock_valuation',
  {
    tenantId: tenantId(),
    materialId: ref('material_id').notNull(),
    warehouseId: ref('warehouse_id').notNull(),
    quantity: quantity('quantity').notNull().default('0'),
    amount: quantity('amount').notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.materialId, t.warehouseId] }),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'stock_valuation_material_fk' }),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [warehouse.tenantId, warehouse.id], name: 'stock_valuation_warehouse_fk' }),
    tenantPolicy('stock_valuation'),
  ],
).enableRLS();

/**
 * The batches of a material: its expiry date, set by the first in-stock of the batch that names one
 * (stock.ts, as it posts). First-expiry-first-out suggestions and the early warning read it.
 */
export const stockBatch = pgTable(
  'stock_batch',
  {
    tenantId: tenantId(),
    materialId: ref('material_id').notNull(),
    batchNumber: text('batch_number').notNull(),
    expirationDate: day('expiration_date'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.materialId, t.batchNumber] }),
    index('stock_batch_expiry_idx').on(t.tenantId, t.expirationDate).where(sql`${t.expirationDate} is not null`),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'stock_batch_material_fk' }),
    tenantPolicy('stock_batch'),
  ],
).enableRLS();

/**
 * Bills per type and status, in 16 shards: a trigger on `bill` adds and subtracts in the shard picked by
 * the writing transaction's id, so concurrent writers of one type rarely wait for each other (one
 * counter row would queue every save of the tenant). A list's status tabs and unfiltered total are the
 * sum of the shards (docs/decisions.md, "Bill lists under concurrent writers").
 */
export const billCount = pgTable(
  'bill_count',
  {
    tenantId: tenantId(),
    billType: text('bill_type').notNull(),
    billStatus: text('bill_status').notNull(),
    shard: integer('shard').notNull(),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    /** Sums of the bills' header totals, so that an unfiltered list's statistics are a read of ≤ 16 rows too. */
    number: quantity('number').notNull().default('0'),
    priceTotal: quantity('price_total').notNull().default('0'),
    taxPriceTotal: quantity('tax_price_total').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.billType, t.billStatus, t.shard] }), tenantPolicy('bill_count')],
).enableRLS();

/**
 * The version of a tenant's bills of one type, in 16 shards like `bill_count`: every statement that writes
 * bills gives the (tenant, type) row of its transaction's shard a new random uuid (statement triggers on
 * `bill`, migration 0032), so a count, sum or tab count of a bill list can be remembered until the next write
 * of that type (core/list-query.ts, bills/list.ts) without every writer of the tenant queueing on one row.
 * The version is the shards' uuids together; a tenant with no row yet has none and is counted each time.
 */
export const billVersion = pgTable(
  'bill_version',
  {
    tenantId: tenantId(),
    billType: text('bill_type').notNull(),
    shard: integer('shard').notNull(),
    version: uuid('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.billType, t.shard] }), tenantPolicy('bill_version')],
).enableRLS();
