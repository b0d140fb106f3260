import { sql } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';

/**
 * Takes a transaction-scoped advisory lock named by `key` (hashed to the lock's number): work that must not
 * run twice at once for the same thing — a salary period, a cost period, a tenant's maintenance plans — takes
 * it first and holds it until its transaction ends, in every server process alike (PostgreSQL; PGlite has
 * one connection, where it is taken at once). `shared`: many holders at once, none beside an exclusive one
 * (bills audited into a cost period share its lock; the run takes it alone). Keys name their subject and
 * tenant: `salary:<tenant>:<period>`.
 */
export async function lockKey(tx: Tx, key: string, { shared = false }: { shared?: boolean } = {}): Promise<void> {
  await tx.execute(shared ? sql`select pg_advisory_xact_lock_shared(hashtext(${key}))` : sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}
