import { bigint, index, numeric, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy } from './tenancy.ts';

/*
 * Outsourcing (server/src/modules/outsourcing/, docs/outsourcing.md). The materials an outsourcing order sent
 * to its supplier are ours until a receipt consumes them: what a pick sent and a return brought back is in the
 * stock ledger (their bills are made from the order's lines), what receipts consumed is here — one row per
 * receipt line and material, written when the receipt is audited and deleted when its audit is withdrawn; a
 * refund of received goods gives its share back as negative rows. At the supplier = sent − returned − consumed,
 * per order and material, never below zero (the module checks it under the order's lock).
 */

const ref = (name: string) => bigint(name, { mode: 'number' });
const money = (name: string) => numeric(name, { precision: 20, scale: 6 });

export const outsourcingConsumption = pgTable(
  'outsourcing_consumption',
  {
    id: id(),
    tenantId: tenantId(),
    /** The outsourcing order whose materials were consumed. */
    orderId: ref('order_id').notNull(),
    /** The receipt (or refund) and its line that consumed them. */
    billId: ref('bill_id').notNull(),
    billLineId: ref('bill_line_id').notNull(),
    materialId: ref('material_id').notNull(),
    /** Main-unit quantity consumed (negative: given back by a refund). */
    quantity: money('quantity').notNull(),
    /** Their value at the order's cost of the material at the supplier. */
    amount: money('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('outsourcing_consumption_order_idx').on(t.tenantId, t.orderId, t.materialId), index('outsourcing_consumption_bill_idx').on(t.tenantId, t.billId), tenantPolicy('outsourcing_consumption')],
).enableRLS();
