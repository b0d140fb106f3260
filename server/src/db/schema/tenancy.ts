import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgPolicy, pgRole, pgTable, primaryKey, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The role every request runs as. It is neither the tables' owner nor a superuser, so
 * row-level security applies to it. The role is cluster-wide on PostgreSQL, so it is created by
 * `migrateDatabase` (db/connection.ts) before the migrations run rather than by a migration (which would fail on the second
 * database of the same server).
 */
export const APP_ROLE = 'p8_app';
export const appRole = pgRole(APP_ROLE).existing();

/** The tenant of the current transaction, set by `withTenant`; NULL (so: no rows) when unset. */
export const currentTenant = sql`nullif(current_setting('app.tenant_id', true), '')::bigint`;

/** `tenant_id`, the leading column of every tenant table's keys. */
export const tenantId = () => bigint('tenant_id', { mode: 'number' }).notNull();
export const id = () => bigint('id', { mode: 'number' }).generatedByDefaultAsIdentity();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** The isolation policy every tenant table carries: rows of the current tenant only, read and write. */
export function tenantPolicy(table: string, column = sql`tenant_id`) {
  return pgPolicy(`${table}_tenant_isolation`, {
    as: 'permissive',
    for: 'all',
    to: appRole,
    using: sql`${column} = ${currentTenant}`,
    withCheck: sql`${column} = ${currentTenant}`,
  });
}

/**
 * One row per tenant and counted table, whose `version` changes (a random uuid, so versions never repeat
 * across databases) with every statement that writes to that table, through statement-level triggers that
 * a migration installs with `select p8_count_table('<table>')` (migration 0004). The list-query helper keys
 * its cache of exact totals by it, so paging through 100,000 rows does not count them again on every
 * page, and any write makes the next page count afresh.
 */
export const listVersion = pgTable(
  'list_version',
  {
    tenantId: tenantId(),
    tableName: text('table_name').notNull(),
    version: uuid('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tableName] }), tenantPolicy('list_version')],
).enableRLS();

/**
 * The tenant's numbering counters (core/code-generator.ts): one row per kind of number (`material`,
 * `customer`, a bill type…) and period ('' for record codes that never restart; a day `20260315` for bill
 * codes that restart daily). `last_value` is the last number handed out. An upsert that adds to it locks
 * the row until the transaction ends, so parallel creates of one kind wait for each other and never draw
 * the same number; a rolled-back create gives its number back.
 */
export const codeSequence = pgTable(
  'code_sequence',
  {
    tenantId: tenantId(),
    kind: text('kind').notNull(),
    period: text('period').notNull().default(''),
    lastValue: bigint('last_value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.period] }), tenantPolicy('code_sequence')],
).enableRLS();

/**
 * A bulk import written in several transactions (core/staged-import.ts): its rows carry the job's id in
 * their `import_job` column and stay hidden from every reader but the import itself (a restrictive RLS
 * policy on each such table) until `published` turns true in one short transaction. Jobs left unpublished
 * by a crash are removed, rows and all, at the next start.
 */
export const importJob = pgTable(
  'import_job',
  {
    tenantId: tenantId(),
    id: id(),
    entity: text('entity').notNull(),
    published: boolean('published').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('import_job')],
).enableRLS();

/** The import job a transaction writes for (core/staged-import.ts sets `app.import_job`); NULL outside one. */
const currentImportJob = sql`nullif(current_setting('app.import_job', true), '')::bigint`;

/**
 * The column that hides a row of a staged import until its job is published (null: an ordinary row). Its
 * default is the job of the writing transaction, so a service that inserts the row marks it without knowing
 * it runs for an import (the per-row importers call the same services as the screens).
 */
export const importJobMarker = () => bigint('import_job', { mode: 'number' }).default(currentImportJob);

/** The partial index a staged import's publishing and clean-up read the job's rows by. */
export const importJobIndex = (table: string, t: { tenantId: AnyPgColumn; importJob: AnyPgColumn }) =>
  index(`${table}_import_job_idx`).on(t.tenantId, t.importJob).where(sql`${t.importJob} is not null`);

/**
 * Hides a staged import's rows from every reader but the import itself until its job is published.
 * Restrictive: it narrows what the tenant policy allows, for every reader, and for updates and deletes too
 * (they read the rows they change). Ordinary rows pass at the first test; the published jobs are read once
 * per statement (an InitPlan), not per row (a function with a subquery per row cost ≈ 1 ms a row on PGlite).
 */
export const importHiddenPolicy = (table: string) =>
  pgPolicy(`${table}_import_hidden`, {
    as: 'restrictive',
    for: 'select',
    to: appRole,
    using: sql`import_job is null or import_job = ${currentImportJob} or import_job = any (array(select j.id from import_job j where j.published))`,
  });
