import { bigint, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';
import { bill } from './bills.ts';

/*
 * Tasks (docs/office.md). A task is a bill of the engine (type `Task`); these tables keep what the engine does not:
 * its work state once audited and its progress notes (the reminders sent are once-keyed messages).
 */

/** A started task's work state: one row per task once it started (none: not started). */
export const officeTask = pgTable(
  'office_task',
  {
    tenantId: tenantId(),
    billId: bigint('bill_id', { mode: 'number' }).notNull(),
    /** InProgress | Completed | Terminated (contract tasks.ts TaskState). */
    state: text('state').notNull(),
    /** How far the work is (0–100), the last progress note's percentage; 100 when completed. */
    percent: integer('percent'),
    startedBy: bigint('started_by', { mode: 'number' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedBy: bigint('finished_by', { mode: 'number' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** Why it was terminated. */
    reason: text('reason'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.billId] }),
    foreignKey({ columns: [t.tenantId, t.billId], foreignColumns: [bill.tenantId, bill.id], name: 'office_task_bill_fk' }).onDelete('cascade'),
    tenantPolicy('office_task'),
  ],
).enableRLS();

/** Progress notes of a task in progress: who, when, what, and optionally how far (percent). */
export const officeTaskNote = pgTable(
  'office_task_note',
  {
    tenantId: tenantId(),
    id: id(),
    billId: bigint('bill_id', { mode: 'number' }).notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    text: text('text').notNull(),
    percent: integer('percent'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('office_task_note_bill_idx').on(t.tenantId, t.billId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.billId], foreignColumns: [bill.tenantId, bill.id], name: 'office_task_note_bill_fk' }).onDelete('cascade'),
    tenantPolicy('office_task_note'),
  ],
).enableRLS();
