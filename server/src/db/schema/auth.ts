import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './tenancy.ts';

/*
 * Authentication tables are read before a tenant's transaction exists (a token or a sign-in name arrives
 * without one), so they carry no row-level-security policy: only the server's system connection reads them
 * (core/auth, modules/auth), never a request's tenant transaction. They hold no business data.
 */

/**
 * A signed-in session. The bearer token itself is never stored, only its SHA-256; the token starts with
 * its tenant's id (`<tenant>.<random>`, core/auth.ts), so a session is found by (tenant_id, token_hash) and
 * every key leads with the tenant like a tenant table's (docs/operations.md, "Distributing by tenant").
 */
export const session = pgTable(
  'session',
  {
    tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
    id: uuid('id').notNull().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('session_token_uq').on(t.tenantId, t.tokenHash),
    index('session_admin_idx').on(t.tenantId, t.adminId),
    // Tokens issued before tokens named their tenant are found by their hash alone until they expire
    // (core/access-cache.ts); not unique, so it stays within one node's shard. Goes with that lookup.
    index('session_legacy_token_idx').on(t.tokenHash),
  ],
);

/*
 * The installation's directory of sign-in names and phones. Sign-in by name or phone happens before the
 * tenant is known, so both are unique across tenants — a key that cannot lead with the tenant, so it does
 * not live on `admin` (a tenant table) but here, in shared tables keyed by the name or phone alone (reference
 * tables when distributed). Only the trigger on `admin` writes them (migration 0036: a row per account, kept
 * in step with its name and phone in the same transaction); a second account taking a name or phone breaks
 * the primary key, answered `AdminExist` / `PhoneIsRegistered` (core/errors.ts). Read on the owner connection.
 */

/** An account's sign-in name, lower-cased (names sign in case-insensitively). */
export const loginName = pgTable('login_name', {
  name: text('name').primaryKey(),
  tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
  adminId: bigint('admin_id', { mode: 'number' }).notNull(),
});

/** An account's phone (accounts without one have no row). */
export const loginPhone = pgTable('login_phone', {
  phone: text('phone').primaryKey(),
  tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
  adminId: bigint('admin_id', { mode: 'number' }).notNull(),
});

/** Picture captchas and SMS codes: single use, expiring, stored hashed. */
export const captcha = pgTable(
  'captcha',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** img | sms */
    kind: text('kind').notNull(),
    /** The phone an SMS code was sent to; empty for picture captchas. */
    target: text('target').notNull().default(''),
    /** login | register | forget (SMS only) */
    purpose: text('purpose').notNull().default(''),
    codeHash: text('code_hash').notNull(),
    /** Wrong answers so far; an SMS code dies after five. */
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('captcha_target_idx').on(t.kind, t.target, t.createdAt), index('captcha_ip_idx').on(t.kind, t.ip, t.createdAt)],
);
