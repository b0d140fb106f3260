import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorKey } from '@p8/contract/errors';
import type { Tx } from '../../db/connection.ts';
import { stockBalance } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { idList } from '../../core/tree.ts';

/** Shared pieces of the basic-record routes: lookups, prohibitions, Excel cell parsing. */

/** A record table that keeps who created each row (materials, partners, warehouses). */
type OwnedTable = PgTable & { id: AnyPgColumn; tenantId: AnyPgColumn; createdBy: AnyPgColumn; createdAt: AnyPgColumn };

/**
 * Ids of the rows of `table` the caller created in the current transaction (an import): `created_at`
 * defaults to now(), which PostgreSQL fixes at the start of the transaction, so the rows of this import
 * carry exactly that value, and rows of earlier imports never do.
 */
export async function createdInThisTransaction(ctx: ServiceContext, table: OwnedTable, extra?: SQL): Promise<number[]> {
  const found = await ctx.tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, ctx.tenantId), eq(table.createdBy, ctx.account.adminId), sql`${table.createdAt} = now()`, extra));
  return found.map((r) => Number(r.id));
}

/**
 * Ids of the rows of `table` an import wrote, read in its last transaction: those of its staged job
 * (`importJob`, core/staged-import.ts), or those created in this one transaction.
 */
export const importedRows = (ctx: ServiceContext, table: OwnedTable & { importJob: AnyPgColumn }, importJob: number | null, extra?: SQL) =>
  importJob === null ? createdInThisTransaction(ctx, table, extra) : importedBy(ctx, table, importJob, extra);

/** Ids of the rows of `table` a staged import wrote (core/staged-import.ts), read in its publishing transaction. */
async function importedBy(ctx: ServiceContext, table: OwnedTable & { importJob: AnyPgColumn }, importJob: number, extra?: SQL): Promise<number[]> {
  const found = await ctx.tx.select({ id: table.id }).from(table).where(and(eq(table.tenantId, ctx.tenantId), eq(table.importJob, importJob), extra));
  return found.map((r) => Number(r.id));
}

/**
 * Ids among `ids` that still hold stock: a non-zero balance in the stock_balance table (which the bill
 * engine writes). A record holding stock cannot be deleted or disabled.
 */
export async function idsHoldingStock(tx: Tx, tenantId: number, column: 'materialId' | 'warehouseId' | 'locationId', ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const col = stockBalance[column];
  const found = await tx
    .selectDistinct({ id: col })
    .from(stockBalance)
    .where(and(eq(stockBalance.tenantId, tenantId), inArray(col, ids), sql`${stockBalance.quantity} <> 0`));
  return found.map((f) => Number(f.id));
}

export async function refuseIfHoldingStock(tx: Tx, tenantId: number, column: 'materialId' | 'warehouseId' | 'locationId', ids: number[], key: ErrorKey) {
  const holding = await idsHoldingStock(tx, tenantId, column, ids);
  if (holding.length) throw new BizError(key, { additional: holding[0] });
}

/** Condition "column is one of these categories or below them" as a subquery (no round trip). */
export function inCategorySubtree(tenantId: number, column: AnyPgColumn, categoryIds: number[]): SQL {
  return sql`${column} in (with recursive sub(id) as (
      select id from category where tenant_id = ${tenantId} and id in (${idList(categoryIds)})
      union
      select c.id from category c join sub on c.parent_id = sub.id where c.tenant_id = ${tenantId}
    ) select id from sub)`;
}

/**
 * A column named with its table, for correlated subqueries in a select list: Drizzle leaves columns of a
 * single-table select unqualified, which a subquery over another table with the same column names
 * (tenant_id, id) would take for its own.
 */
export const q = (table: string, column: string) => sql.raw(`"${table}"."${column}"`);

// The list query of an export and its cap, shared by every export.
export { exportQuery, EXPORT_MAX_ROWS } from '../../core/excel.ts';
