import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { BillTransitionView } from '@p8/contract/bills/api';
import { passesProgressOn } from '@p8/contract/bills/catalogue';
import { BILL_HEADER_COLUMNS, BILL_LINE_COLUMNS } from '@p8/contract/bills/fields';
import { headerFields, type BillTypeDecl } from '@p8/contract/bills/registry';
import { microNumber, toMicro } from '@p8/contract/bills/decimal';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { BizError, forbidden } from '../core/errors.ts';
import { distinct } from '../core/ids.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { type Tx } from '../db/connection.ts';
import { admin, bill, billLine, billTransition } from '../db/schema/index.ts';
import { billScope } from './list.ts';

/*
 * Reading and locking bills: a bill by id within the caller's data scope, its lines, its creator check, the
 * transition log, and the locks every operation that takes from other bills goes through (newest first).
 */

export type BillRow = typeof bill.$inferSelect;
/**
 * A stored line. The column `material_id` is null on lines of money (settlement, account, fee, staff); the
 * code that reads a line's material (stock, serials, push down of quantities) only ever meets material lines.
 */
export type LineRow = Omit<typeof billLine.$inferSelect, 'materialId'> & { materialId: number };

export const HEADER_COLUMNS = new Set<string>(BILL_HEADER_COLUMNS);
export const LINE_COLUMNS = new Set<string>(BILL_LINE_COLUMNS);
export const POSTED = new Set<string>(POSTED_STATUSES);

// ---------------------------------------------------------------- reading

/**
 * The bill of `decl`'s type with `id`, locked for the rest of the transaction when `lock`. Every read or write
 * of a bill by id goes through here: a bill outside the caller's data scope is answered as missing.
 */
export async function loadBill(ctx: ServiceContext, decl: BillTypeDecl, id: number, lock = false): Promise<BillRow> {
  const query = ctx.tx
    .select()
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, id), eq(bill.billType, decl.type), await billScope(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new BizError('BillNotExist', { additional: id });
  return row;
}

export async function loadLines(tx: Tx, tenantId: number, billId: number): Promise<LineRow[]> {
  return (await tx
    .select()
    .from(billLine)
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.billId, billId)))
    .orderBy(asc(billLine.lineNo), asc(billLine.id))) as LineRow[];
}

/**
 * Lines by their key, each with its bill, ordered by line id; a line whose bill is outside the caller's data
 * scope is left out (as the push-down picker leaves it out). `lock`: the lines are locked for the rest of the
 * transaction. Two key lookups rather than one join: on a database whose statistics still counted a handful of
 * bills (PostgreSQL without autovacuum, a tenant that just wrote its first large bill), the join was planned
 * from the bill side and walked every line of each candidate bill for the one asked — 17–56 ms a push down
 * from a 88,000-line MRP plan (bench/README.md "mrp"). By their keys the plan cannot go that way.
 */
export async function linesWithBills(ctx: ServiceContext, ids: ReadonlyArray<number>, lock = false): Promise<Array<{ line: LineRow; head: BillRow }>> {
  if (!ids.length) return [];
  const query = ctx.tx
    .select()
    .from(billLine)
    .where(and(eq(billLine.tenantId, ctx.tenantId), inArray(billLine.id, [...ids])))
    .orderBy(asc(billLine.id));
  const lines = (lock ? await query.for('update') : await query) as LineRow[];
  if (!lines.length) return [];
  const heads = new Map(
    (await ctx.tx
      .select()
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, distinct(lines.map((l) => l.billId))), await billScope(ctx)))).map((h) => [h.id, h]),
  );
  return lines.flatMap((line) => {
    const head = heads.get(line.billId);
    return head ? [{ line, head }] : [];
  });
}

/** Only the creator operates a bill (auditing and withdrawing an audit are reviewers' steps instead). */
export function assertCreator(ctx: ServiceContext, row: BillRow) {
  if (row.createdBy !== ctx.account.adminId) throw forbidden('OnlyCreatorCanOperate');
}

export async function accountName(ctx: ServiceContext): Promise<string> {
  return (await accountNames(ctx, [ctx.account.adminId]))[0] ?? '';
}

/** Display names (real name, else login name) of accounts of the tenant, in the order of `ids`. */
export async function accountNames(ctx: ServiceContext, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const found = await ctx.tx.select({ id: admin.id, name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), inArray(admin.id, ids)));
  const byId = new Map(found.map((row) => [row.id, row.realName || row.name]));
  return ids.map((id) => byId.get(id) ?? '');
}

/** Appends a step to the bill's timeline. */
export async function recordTransition(ctx: ServiceContext, billId: number, operation: BillTransitionView['operation'], from: string | null, to: string, reason = '') {
  await ctx.tx.insert(billTransition).values({ tenantId: ctx.tenantId, billId, operation, fromStatus: from, toStatus: to, reason, accountId: ctx.account.adminId, accountName: await accountName(ctx) });
}


/**
 * Locks bills for the rest of the transaction, newest first, and answers them. Every bill that takes from
 * others locks them through here — saving (push down, edit, merge, import), submitting, auditing and
 * withdrawing — and withdrawing an audit locks its own bill first, so the two are taken one after the other:
 * a withdrawal that comes second sees the downstream draft (and refuses), a save that comes second sees the
 * source withdrawn (and refuses). Newest first, because a source is always older than what takes from it:
 * an operation locks its own bill, then its sources, then theirs, and bills locked together go the same way,
 * so no two operations wait on each other in a circle.
 */
export async function lockBills(ctx: ServiceContext, ids: ReadonlyArray<number>): Promise<BillRow[]> {
  const wanted = distinct(ids.filter((id): id is number => typeof id === 'number' && id > 0));
  if (!wanted.length) return [];
  return ctx.tx
    .select()
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, wanted)))
    .orderBy(desc(bill.id))
    .for('update');
}

/** The bills a stored bill's lines take from (source lines' bills, settled bills). */
export async function sourceBillIdsOf(tx: Tx, tenantId: number, billId: number): Promise<number[]> {
  const found = await tx
    .selectDistinct({ id: billLine.sourceBillId })
    .from(billLine)
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.billId, billId), isNotNull(billLine.sourceBillId)));
  return found.map((f) => f.id!);
}

/**
 * The bills whose progress auditing or withdrawing `billId` changes: the bills it takes from, and theirs
 * where those pass progress on (a shipping notice to its sale order, `progressRollups`). Read unlocked: a
 * posted bill's lines do not change, and a source that has this bill downstream keeps its audit.
 */
export async function progressedBillIds(ctx: ServiceContext, billId: number): Promise<number[]> {
  const found: number[] = [];
  for (let ids = await sourceBillIdsOf(ctx.tx, ctx.tenantId, billId); ids.length; ) {
    found.push(...ids);
    const passing = await ctx.tx
      .select({ id: bill.id, billType: bill.billType })
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)));
    const next: number[] = [];
    for (const p of passing) if (passesProgressOn(p.billType)) next.push(...(await sourceBillIdsOf(ctx.tx, ctx.tenantId, p.id)));
    ids = distinct(next).filter((id) => !found.includes(id));
  }
  return found;
}

/**
 * Submit and audit: the bills this one takes from, locked (see `lockBills`; for an audit with the bills its
 * progress rolls up to), must still be posted — a withdrawn source would leave this bill's progress on a bill
 * whose own audit is gone.
 */
export async function lockPostedSources(ctx: ServiceContext, row: BillRow, withRollups = false): Promise<void> {
  const direct = await sourceBillIdsOf(ctx.tx, ctx.tenantId, row.id);
  const sources = await lockBills(ctx, withRollups ? await progressedBillIds(ctx, row.id) : direct);
  const withdrawn = sources.find((s) => direct.includes(s.id) && !POSTED.has(s.billStatus));
  if (withdrawn) throw new BizError('SourceBillNotAudit', { additional: withdrawn.billCode });
}

/** Links a bill's lines to what they take from: source lines (material lines) or settled bills (settlement lines). */

/** A stored bill's header as a save payload (its type's editable fields). */
export function headerPayload(decl: BillTypeDecl, row: BillRow): Record<string, unknown> {
  const values = { ...row, ...(row.extra as Record<string, unknown>) } as Record<string, unknown>;
  return Object.fromEntries(headerFields(decl).filter((f) => !f.readOnly && f.key !== 'billCode').map((f) => [f.key, values[f.key] ?? undefined]));
}

/** A stored line as a save payload line. */
export function payloadLine(line: LineRow): Record<string, unknown> {
  const n = (v: string) => microNumber(toMicro(v));
  return {
    ...(line.extra as Record<string, unknown>),
    materialId: line.materialId,
    unitId: line.unitId,
    number: n(line.number),
    giftNumber: n(line.giftNumber),
    unitPrice: n(line.unitPrice),
    taxRate: n(line.taxRate),
    discountRate: n(line.discountRate),
    warehouseId: line.warehouseId,
    locationId: line.locationId,
    batchNumber: line.batchNumber,
    expirationDate: line.expirationDate,
    serialNumbers: line.serialNumbers,
    targetWarehouseId: line.targetWarehouseId,
    targetLocationId: line.targetLocationId,
    remark: line.remark,
    sourceLineId: line.sourceLineId,
  };
}
