import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../db/connection.ts';
import { BizError } from './errors.ts';

/** Ids of a request body, without repeats (a client may send the same row twice). */
export const distinct = <T>(ids: readonly T[]): T[] => [...new Set(ids)];

/** Throws `key` naming the first requested id that is not among the rows found (unknown or another tenant's). */
export function assertAllFound(ids: readonly number[], found: ReadonlyArray<{ id: number }>, key: ErrorKey) {
  const seen = new Set(found.map((f) => f.id));
  const missing = ids.find((id) => !seen.has(id));
  if (missing !== undefined) throw new BizError(key, { additional: missing });
}

/** A tenant table with an `id` (nearly every table). */
export type IdTable = PgTable & { tenantId: AnyPgColumn; id: AnyPgColumn };

/** Checks that every id (nulls and repeats skipped) is a row of the tenant in `table`, else throws `key` naming the first missing. */
export async function assertIdsExist(tx: Tx, table: IdTable, tenantId: number, ids: Array<number | null | undefined>, key: ErrorKey) {
  const wanted = distinct(ids.filter((i): i is number => typeof i === 'number'));
  if (wanted.length) await assertAllVisible(tx, table, [eq(table.tenantId, tenantId)], wanted, key);
}

/**
 * Checks that every id is a row matching `visible`: the record's own conditions (tenant, kind, and the
 * assignment range of `assignmentRangeWhere`, as its list and detail use them). Writes by id (delete,
 * enable/disable) call this first, so a record the caller cannot see answers the detail's `…NotExist`
 * and nothing is changed.
 */
export async function assertAllVisible(tx: Tx, table: IdTable, visible: Array<SQL | undefined>, ids: number[], key: ErrorKey) {
  const found = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(...visible, inArray(table.id, ids)));
  assertAllFound(ids, found.map((row) => ({ id: Number(row.id) })), key);
}
