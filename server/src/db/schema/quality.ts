import { bigint, foreignKey, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bill } from './bills.ts';
import { createdAt, id, tenantId, tenantPolicy } from './tenancy.ts';

/*
 * Inspection packing (检验装箱, server/src/modules/quality/boxes.ts, docs/quality.md): the boxes the accepted goods
 * of an inspection line are packed into while the inspection is still being written — a quantity, and for a
 * material with serial numbers the serials inside. A box belongs to its inspection (deleted with it); a boxed
 * serial leaves its place only with its whole box (the engine's serial rules).
 */

const ref = (name: string) => bigint(name, { mode: 'number' });

export const inspectionBox = pgTable(
  'inspection_box',
  {
    id: id(),
    tenantId: tenantId(),
    /** The box code printed on its label: unique in the tenant. */
    code: text('code').notNull(),
    billId: ref('bill_id').notNull(),
    /** The inspection line packed (its line number: lines keep their numbers when the bill is saved again). */
    lineNo: integer('line_no').notNull(),
    materialId: ref('material_id').notNull(),
    /** In the line's unit. */
    quantity: numeric('quantity', { precision: 20, scale: 6 }).notNull(),
    serialNumbers: text('serial_numbers').array().notNull().default([]),
    createdBy: ref('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('inspection_box_code_uq').on(t.tenantId, t.code),
    index('inspection_box_bill_idx').on(t.tenantId, t.billId, t.lineNo),
    // "Which box holds this serial": the serial rules look boxes up by material and serial.
    index('inspection_box_serials_idx').using('gin', t.serialNumbers),
    foreignKey({ columns: [t.tenantId, t.billId], foreignColumns: [bill.tenantId, bill.id], name: 'inspection_box_bill_fk' }).onDelete('cascade'),
    tenantPolicy('inspection_box'),
  ],
).enableRLS();
