import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './tenancy.ts';

/*
 * Authentication tables are read before a tenant is known (a token or a captcha arrives without one),
 * so they are not tenant tables: only the server's system connection reads them (core/auth), never a
 * request's tenant transaction. They hold no business data.
 */

/** A signed-in session. The bearer token itself is never stored, only its SHA-256. */
export const session = pgTable(
  'session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('session_admin_idx').on(t.tenantId, t.adminId)],
);

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
