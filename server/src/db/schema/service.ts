import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/*
 * Base content (swiper, agreements, business hours, appointment slots) and service orders with their
 * timeline and chat. The public system config of the installation is not a tenant's: `platform_config`.
 */

/** Carousel slides of the customer side. */
export const swiper = pgTable(
  'swiper',
  {
    tenantId: tenantId(),
    id: id(),
    title: text('title').notNull(),
    image: text('image').notNull(),
    link: text('link').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('swiper_sort_idx').on(t.tenantId, t.sort, t.id), tenantPolicy('swiper')],
).enableRLS();

/** The user agreement and the privacy policy, one row per kind (sanitised HTML). */
export const agreement = pgTable(
  'agreement',
  {
    tenantId: tenantId(),
    /** user | privacy */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    updatedBy: bigint('updated_by', { mode: 'number' }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind] }), tenantPolicy('agreement')],
).enableRLS();

/** Business hours per weekday (1 Monday … 7 Sunday); a missing day takes the default (open 09:00–18:00). */
export const businessHours = pgTable(
  'business_hours',
  {
    tenantId: tenantId(),
    weekday: integer('weekday').notNull(),
    open: boolean('open').notNull(),
    start: text('start').notNull(),
    end: text('end').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.weekday] }), tenantPolicy('business_hours')],
).enableRLS();

/** Appointment time slots of a day (`HH:mm`), each taking at most `capacity` appointments per day. */
export const timeSlot = pgTable(
  'time_slot',
  {
    tenantId: tenantId(),
    id: id(),
    start: text('start').notNull(),
    end: text('end').notNull(),
    capacity: integer('capacity').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('time_slot')],
).enableRLS();

/**
 * Appointments taken per day and slot. A booking is one conditional upsert (`booked + 1 where booked <
 * capacity`), which locks the row until the order's transaction ends: parallel bookings of the last place
 * wait for each other and exactly one gets it. A cancel gives its place back.
 */
export const slotBooking = pgTable(
  'slot_booking',
  {
    tenantId: tenantId(),
    slotDate: date('slot_date', { mode: 'string' }).notNull(),
    slotId: bigint('slot_id', { mode: 'number' }).notNull(),
    booked: integer('booked').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.slotDate, t.slotId] }), tenantPolicy('slot_booking')],
).enableRLS();

export const serviceOrder = pgTable(
  'service_order',
  {
    tenantId: tenantId(),
    id: id(),
    orderNo: text('order_no').notNull(),
    /** online | proxy */
    source: text('source').notNull(),
    /** Contract `ServiceOrderStatus`. */
    status: text('status').notNull(),
    serviceName: text('service_name').notNull(),
    customerName: text('customer_name').notNull(),
    customerPhone: text('customer_phone').notNull(),
    address: text('address').notNull(),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    appointmentDate: date('appointment_date', { mode: 'string' }),
    slotId: bigint('slot_id', { mode: 'number' }),
    /** The slot's times when booked (the slot may change later). */
    slotTime: text('slot_time'),
    staffId: bigint('staff_id', { mode: 'number' }),
    remark: text('remark'),
    cancelReason: text('cancel_reason'),
    createdBy: bigint('created_by', { mode: 'number' }),
    /** The placing staff member's department (a proxy order); none for an order the customer placed (data scope, docs/decisions.md). */
    ownerDeptId: bigint('owner_dept_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('service_order_no_uq').on(t.tenantId, t.orderNo),
    index('service_order_time_idx').on(t.tenantId, t.createdAt, t.id),
    index('service_order_status_idx').on(t.tenantId, t.status, t.createdAt),
    index('service_order_staff_idx').on(t.tenantId, t.staffId, t.createdAt),
    index('service_order_source_idx').on(t.tenantId, t.source, t.createdAt),
    tenantPolicy('service_order'),
  ],
).enableRLS();

/**
 * Service staff: the staff accounts orders are dispatched to, with the skills and areas they serve. Their
 * load is read from the orders. Once a tenant has any, dispatch offers and accepts only the enabled ones.
 */
export const serviceStaff = pgTable(
  'service_staff',
  {
    tenantId: tenantId(),
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    skills: text('skills').array().notNull().default(sql`'{}'`),
    areas: text('areas').array().notNull().default(sql`'{}'`),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('service_staff_admin_uq').on(t.tenantId, t.adminId), tenantPolicy('service_staff')],
).enableRLS();

/** The timeline of an order: every status change, who made it and why. */
export const serviceOrderLog = pgTable(
  'service_order_log',
  {
    tenantId: tenantId(),
    id: id(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    adminId: bigint('admin_id', { mode: 'number' }),
    remark: text('remark'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('service_order_log_order_idx').on(t.tenantId, t.orderId, t.id), tenantPolicy('service_order_log')],
).enableRLS();

/** Chat on an order between the staff working on it. */
export const serviceMessage = pgTable(
  'service_message',
  {
    tenantId: tenantId(),
    id: id(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    senderId: bigint('sender_id', { mode: 'number' }).notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('service_message_order_idx').on(t.tenantId, t.orderId, t.id), tenantPolicy('service_message')],
).enableRLS();

/**
 * The installation's public system config as the platform administrator set it (one row per key; a key
 * never set takes the installation's default). Not a tenant's: read and written on the owner connection.
 */
export const platformConfig = pgTable('platform_config', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  updatedAt: updatedAt(),
});
