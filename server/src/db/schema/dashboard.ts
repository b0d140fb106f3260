import { bigint, date, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId, tenantPolicy } from './tenancy.ts';

/**
 * Orders per day of placing and current status, with their amount, for the home dashboard: the mall's
 * orders (`kind` mall, amount = what was paid) and the service orders (`kind` service, amount = the
 * service's amount). Triggers on `mall_order` and `service_order` (migration 0011) keep it (and `order_total`) in the order's
 * own transaction: a placed order adds one to its day and status, a status change moves it from one status
 * to the other, a delete takes it away. Like `bill_count`, each writing transaction adds to the shard of its
 * own transaction id, so concurrent orders of one tenant rarely wait on the same row. The day is the
 * order's `created_at` in the database's time zone; the dashboard sums the shards.
 */
export const orderDaily = pgTable(
  'order_daily',
  {
    tenantId: tenantId(),
    /** mall | service */
    kind: text('kind').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    shard: integer('shard').notNull(),
    orders: bigint('orders', { mode: 'number' }).notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.day, t.status, t.shard] }), tenantPolicy('order_daily')],
).enableRLS();

/**
 * Orders per status over all days, beside `order_daily` and kept by the same triggers: the dashboard's
 * "awaiting payment", "to ship", "all orders" read a few rows here instead of every day of order_daily.
 */
export const orderTotal = pgTable(
  'order_total',
  {
    tenantId: tenantId(),
    /** mall | service */
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    shard: integer('shard').notNull(),
    orders: bigint('orders', { mode: 'number' }).notNull().default(0),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.status, t.shard] }), tenantPolicy('order_total')],
).enableRLS();
