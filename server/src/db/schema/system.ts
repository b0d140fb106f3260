import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/** Bytes (a job's file): a Buffer from node-postgres, a Uint8Array from PGlite. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A tenant and its configuration; the config keys live in the contract. */
export const tenant = pgTable(
  'tenant',
  {
    id: id().primaryKey(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    isLogoff: boolean('is_logoff').notNull().default(false),
    initialAdminId: bigint('initial_admin_id', { mode: 'number' }),
    /** Tenant switches and settings; validated and defaulted by `tenantConfigSchema` of the contract. */
    config: jsonb('config').notNull().default({}),
    /** Licensed modules: [{ type, needCheck, expiresAt }]. */
    moduleList: jsonb('module_list').notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [tenantPolicy('tenant', sql`id`)],
).enableRLS();

export const department = pgTable(
  'department',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: bigint('parent_id', { mode: 'number' }),
    name: text('name').notNull(),
    leaderId: bigint('leader_id', { mode: 'number' }),
    phone: text('phone'),
    email: text('email'),
    remark: text('remark'),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('department_parent_idx').on(t.tenantId, t.parentId),
    tenantPolicy('department'),
  ],
).enableRLS();

export const role = pgTable(
  'role',
  {
    tenantId: tenantId(),
    id: id(),
    roleKey: text('role_key').notNull(),
    roleName: text('role_name').notNull(),
    /** The super administrator role holds every permission; its permissions cannot be set. */
    isSuper: boolean('is_super').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    /** All | Custom | Dept | Self (contract `DataScope`). */
    dataScope: text('data_scope').notNull().default('All'),
    /** Departments visible under the Custom data scope. */
    scopeDeptIds: bigint('scope_dept_ids', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    sort: integer('sort').notNull().default(0),
    remark: text('remark'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('role_key_uq').on(t.tenantId, t.roleKey),
    tenantPolicy('role'),
  ],
).enableRLS();

/**
 * A menu item. Directory and Menu items are screens; Button items are
 * permissions whose `name` is the button code (e.g. system_role_add). Each tenant has its own tree,
 * created from the template in `db/seed/menus.ts` and kept in step with it on start.
 */
export const menu = pgTable(
  'menu',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: bigint('parent_id', { mode: 'number' }),
    path: text('path').notNull().default(''),
    name: text('name').notNull(),
    redirect: text('redirect'),
    component: text('component'),
    metaIcon: text('meta_icon'),
    metaTitle: text('meta_title').notNull(),
    metaTitleEn: text('meta_title_en').notNull(),
    metaActiveMenu: text('meta_active_menu'),
    metaIsLink: text('meta_is_link'),
    metaIsHide: boolean('meta_is_hide').notNull().default(false),
    metaIsFull: boolean('meta_is_full').notNull().default(false),
    metaIsAffix: boolean('meta_is_affix').notNull().default(false),
    metaIsKeepAlive: boolean('meta_is_keep_alive').notNull().default(true),
    /** Directory | Menu | Button */
    menuType: text('menu_type').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    /** Created from the template (undeletable), as opposed to added by the tenant. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('menu_name_uq').on(t.tenantId, t.name),
    index('menu_parent_idx').on(t.tenantId, t.parentId),
    tenantPolicy('menu'),
  ],
).enableRLS();

export const roleMenu = pgTable(
  'role_menu',
  {
    tenantId: tenantId(),
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
    menuId: bigint('menu_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.roleId, t.menuId] }), tenantPolicy('role_menu')],
).enableRLS();

/** A staff account ("admin" in the spec's calls). */
export const admin = pgTable(
  'admin',
  {
    tenantId: tenantId(),
    id: id(),
    /** Login name, unique across all tenants because login happens before the tenant is known (`login_name`). */
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    realName: text('real_name').notNull().default(''),
    nickName: text('nick_name').notNull().default(''),
    phone: text('phone'),
    email: text('email'),
    /** 0 unknown, 1 male, 2 female */
    sex: integer('sex').notNull().default(0),
    avatar: text('avatar'),
    deptId: bigint('dept_id', { mode: 'number' }),
    enabled: boolean('enabled').notNull().default(true),
    /** Locked by an administrator (AdminIsLock) — distinct from the temporary lock after failed logins. */
    isLock: boolean('is_lock').notNull().default(false),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    isDefault: boolean('is_default').notNull().default(false),
    newOrderNotify: boolean('new_order_notify').notNull().default(false),
    smsNotify: boolean('sms_notify').notNull().default(false),
    /** Menu ids of the home page's common-menu area (at most 30). */
    commonMenus: jsonb('common_menus').$type<number[]>().notNull().default([]),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    /** Who created the account (the owner for the Self data scope). */
    createdBy: bigint('created_by', { mode: 'number' }),
    remark: text('remark'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('admin_dept_idx').on(t.tenantId, t.deptId),
    // The Self / Dept / Custom data scopes of the staff list filter on the creator.
    index('admin_created_by_idx').on(t.tenantId, t.createdBy),
    // One per sortable column of the staff list, ending in the id tie-breaker, so a page deep into a
    // sorted list is read from the index instead of sorting the tenant's staff (bench/staff-list.ts).
    index('admin_name_sort_idx').on(t.tenantId, t.name, t.id),
    index('admin_real_name_sort_idx').on(t.tenantId, t.realName, t.id),
    index('admin_phone_sort_idx').on(t.tenantId, t.phone, t.id),
    index('admin_created_at_sort_idx').on(t.tenantId, t.createdAt, t.id),
    index('admin_last_login_sort_idx').on(t.tenantId, t.lastLoginAt, t.id),
    // The list's contains-filters (`ilike '%…%'`), read through p8_contains() (migration 0004).
    index('admin_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('admin_real_name_trgm_idx').using('gin', t.realName.op('gin_trgm_ops')),
    index('admin_phone_trgm_idx').using('gin', t.phone.op('gin_trgm_ops')),
    tenantPolicy('admin'),
  ],
).enableRLS();

export const adminRole = pgTable(
  'admin_role',
  {
    tenantId: tenantId(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.adminId, t.roleId] }),
    index('admin_role_role_idx').on(t.tenantId, t.roleId),
    tenantPolicy('admin_role'),
  ],
).enableRLS();

/**
 * Background jobs (core/background-jobs.ts): long work a request starts and any server process runs — an
 * import, an export, later MRP and cost runs. `status` goes queued → running → succeeded | failed; a running
 * job is held by one runner (`locked_by`, attempt `attempts`) until `locked_until`, which the runner renews
 * while it works; a job whose runner died is taken again after that (or failed once its attempts are spent).
 * `result` is the kind's outcome (an import's summary, an export's stored upload name); `error_key` a
 * catalogued error.
 */
export const backgroundJob = pgTable(
  'background_job',
  {
    tenantId: tenantId(),
    id: id(),
    kind: text('kind').notNull(),
    /** What the job works on, for the list (the record or bill type of an import or export). */
    subject: text('subject').notNull().default(''),
    status: text('status').$type<'queued' | 'running' | 'succeeded' | 'failed'>().notNull().default('queued'),
    payload: jsonb('payload').notNull().default({}),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    result: jsonb('result'),
    errorKey: text('error_key'),
    /** A file the job made (an export's workbook), downloaded by its creator through the jobs' routes; its name. */
    file: bytea('file'),
    fileName: text('file_name'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(2),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The job list, newest first.
    index('background_job_list_idx').on(t.tenantId, t.createdAt, t.id),
    // What the runners claim: the few jobs not finished (every tenant's, on the owner connection).
    index('background_job_pending_idx').on(t.tenantId, t.id).where(sql`status in ('queued', 'running')`),
    tenantPolicy('background_job'),
  ],
).enableRLS();
