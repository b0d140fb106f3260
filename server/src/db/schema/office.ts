import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';
import type { Notice } from '@p8/contract/notices';
import type { PrintLayout } from '@p8/contract/print/template';
import type { LabelKind, LabelLayout } from '@p8/contract/print/label';
import { sql } from 'drizzle-orm';

/** Who changed what, when: every administrative change (issue 3), viewable by administrators. */
export const auditLog = pgTable(
  'audit_log',
  {
    tenantId: tenantId(),
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }),
    adminName: text('admin_name').notNull().default(''),
    /** create | update | delete | enable | disable | copy | reset-password | … */
    action: text('action').notNull(),
    /** The business name of what changed: role, dept, menu, staff, tenant-config… */
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** Before/after or the payload, for the viewer. */
    detail: jsonb('detail'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('audit_log_time_idx').on(t.tenantId, t.createdAt), tenantPolicy('audit_log')],
).enableRLS();

/**
 * Messages of the message center: between staff of a tenant (sender ≠ receiver) and notices of the system
 * (contract notices.ts; no sender when the system itself sends them). Only the sender deletes a message;
 * the receiver hides it from their inbox (the sender's sent view keeps it).
 */
export const message = pgTable(
  'message',
  {
    tenantId: tenantId(),
    id: id(),
    /** Null: the system sent it (a scheduled notice such as an attendance anomaly), no one acting. */
    senderId: bigint('sender_id', { mode: 'number' }),
    receiverId: bigint('receiver_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    /** A message the system sent (contract notices.ts): written out in the reader's language when read; title and content keep its Chinese text. */
    notice: jsonb('notice').$type<Notice>(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    /** When the receiver hid it: gone from their inbox and unread count, still in the sender's sent view. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    /** A notice sent once per receiver and this key (an attendance day's anomalies): a second send is dropped. */
    onceKey: text('once_key'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('message_receiver_idx').on(t.tenantId, t.receiverId, t.createdAt),
    uniqueIndex('message_once_key_uq').on(t.tenantId, t.receiverId, t.onceKey).where(sql`${t.onceKey} is not null`),
    index('message_sender_idx').on(t.tenantId, t.senderId, t.createdAt),
    tenantPolicy('message'),
  ],
).enableRLS();

/** Cloud receipt printers registered with a provider. */
export const printer = pgTable(
  'printer',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    /** Provider key, e.g. feie, yilianyun. */
    provider: text('provider').notNull(),
    /** The printer's serial number at the provider. */
    sn: text('sn').notNull(),
    /** The printer's key at the provider (never sent back to the client in full). */
    printerKey: text('printer_key').notNull().default(''),
    copies: integer('copies').notNull().default(1),
    remark: text('remark'),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('printer_sn_uq').on(t.tenantId, t.provider, t.sn), tenantPolicy('printer')],
).enableRLS();

/**
 * Print templates of a bill type (contract print/template.ts): the layout as the designer saved it. Names are
 * unique per type; at most one template per type is its default.
 */
export const printTemplate = pgTable(
  'print_template',
  {
    tenantId: tenantId(),
    id: id(),
    billType: text('bill_type').notNull(),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    layout: jsonb('layout').$type<PrintLayout>().notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('print_template_name_uq').on(t.tenantId, t.billType, t.name),
    uniqueIndex('print_template_default_uq').on(t.tenantId, t.billType).where(sql`${t.isDefault}`),
    tenantPolicy('print_template'),
  ],
).enableRLS();

/** Label templates (materials, storage locations, boxes): a sheet of N-up labels and what each shows. */
export const labelTemplate = pgTable(
  'label_template',
  {
    tenantId: tenantId(),
    id: id(),
    kind: text('kind').$type<LabelKind>().notNull(),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    layout: jsonb('layout').$type<LabelLayout>().notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('label_template_name_uq').on(t.tenantId, t.kind, t.name),
    uniqueIndex('label_template_default_uq').on(t.tenantId, t.kind).where(sql`${t.isDefault}`),
    tenantPolicy('label_template'),
  ],
).enableRLS();

/** Joint review configuration: which bill type needs review, by whom, in which mode. */
export const verifyRule = pgTable(
  'verify_rule',
  {
    tenantId: tenantId(),
    id: id(),
    billType: text('bill_type').notNull(),
    /** AnyVerify | AllVerify */
    auditType: text('audit_type').notNull(),
    /** Reviewers must review in their listed order. */
    sequential: boolean('sequential').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('verify_rule_bill_type_uq').on(t.tenantId, t.billType), tenantPolicy('verify_rule')],
).enableRLS();

export const verifyRuleReviewer = pgTable(
  'verify_rule_reviewer',
  {
    tenantId: tenantId(),
    ruleId: bigint('rule_id', { mode: 'number' }).notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.ruleId, t.adminId] }), tenantPolicy('verify_rule_reviewer')],
).enableRLS();

/** List column settings per tenant and list type (prop, isShow, priority, disabled). */
export const tableColumnSetting = pgTable(
  'table_column_setting',
  {
    tenantId: tenantId(),
    type: text('type').notNull(),
    columns: jsonb('columns').$type<Array<{ prop: string; isShow: boolean; priority: number; disabled: boolean }>>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.type] }), tenantPolicy('table_column_setting')],
).enableRLS();

/** Tenant-level system settings (GET/PUT /admin/system/setting), one row per key. */
export const systemSetting = pgTable(
  'system_setting',
  {
    tenantId: tenantId(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), tenantPolicy('system_setting')],
).enableRLS();

/** Files uploaded to our own server ('location' upload type), served by their stored name only. */
export const uploadFile = pgTable(
  'upload_file',
  {
    tenantId: tenantId(),
    id: id(),
    /** img | file | video | attachment | logo | excel */
    kind: text('kind').notNull(),
    originalName: text('original_name').notNull(),
    /** Random name on disk: `<uuid>.<ext>` — never derived from the client's name. */
    storedName: text('stored_name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('upload_file_stored_uq').on(t.tenantId, t.storedName), tenantPolicy('upload_file')],
).enableRLS();
