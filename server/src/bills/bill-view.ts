import { and, asc, eq, sql } from 'drizzle-orm';
import type { BillTransitionView } from '@p8/contract/bills/api';
import { lineCountsFor } from '@p8/contract/bills/catalogue';
import { microNumber, microText, mul, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { nameKey, staffListNamesKey } from '@p8/contract/bills/fields';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { headerFields, lineKindOf, type BillTypeDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES, type BillStatus } from '@p8/contract/bills/status';
import { refNames } from '../core/record-refs.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { rows } from '../db/connection.ts';
import { admin, billLine, billTransition, material, unit } from '../db/schema/index.ts';
import { progressState } from './progress.ts';
import { settlementLineViews } from './settlement-lines.ts';
import { type BillRow, type LineRow, loadBill } from './bill-rows.ts';
import { namedRecordFields } from './bill-save.ts';
import { lineProgress, lineTallies } from './push-down.ts';

/*
 * What a bill answers: the detail with its lines, the names of the records it names, progress and book
 * quantities; and its timeline.
 */

// ---------------------------------------------------------------- views

const n = (value: string) => microNumber(toMicro(value));

/** GET {path}/:id: the bill with its lines, names and progress. */
export async function getBill(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id);
  const lines = await ctx.tx
    .select({
      line: billLine,
      materialCode: material.code,
      materialName: material.name,
      specification: material.specification,
      unitName: unit.name,
      // What export documents print of the material (types declaring `currency`, docs/cross-border.md).
      englishName: material.englishName,
      hsCode: material.hsCode,
      originCountry: material.originCountry,
      netWeightEach: sql<string | null>`${material.netWeight}::text`,
      grossWeightEach: sql<string | null>`${material.grossWeight}::text`,
      sourceBillCode: sql<string | null>`(select b.bill_code from bill b where b.tenant_id = ${billLine.tenantId} and b.id = ${billLine.sourceBillId})`,
      sourceBillType: sql<string | null>`(select b.bill_type from bill b where b.tenant_id = ${billLine.tenantId} and b.id = ${billLine.sourceBillId})`,
    })
    .from(billLine)
    .leftJoin(material, and(eq(material.tenantId, billLine.tenantId), eq(material.id, billLine.materialId)))
    .leftJoin(unit, and(eq(unit.tenantId, billLine.tenantId), eq(unit.id, billLine.unitId)))
    .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)))
    .orderBy(asc(billLine.lineNo));
  const settled = lineKindOf(decl) === 'settlement' ? await settlementLineViews(ctx, row.id, lines.map((l) => l.line)) : new Map<number, Record<string, unknown>>();
  const progress = new Map((await lineProgress(ctx.tx, ctx.tenantId, decl, lines.map((l) => l.line as LineRow))).map((p) => [p.lineId, p]));
  const tallies = await lineTallies(ctx.tx, ctx.tenantId, decl, lines.map((l) => l.line as LineRow));
  const book = decl.stock === 'check' ? await bookNumbers(ctx, row) : undefined;
  const [creator] = await ctx.tx.select({ name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, row.createdBy)));
  const [auditor] = row.auditBy ? await ctx.tx.select({ name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, row.auditBy))) : [];
  const { extra, tenantId: _tenant, ...header } = row;
  // The names beside the picked ids, so that the form shows them (supplierName, warehouseName, locationName…).
  const linesRows = lines.map((l) => l.line);
  const named = await namedRecords(ctx, decl, { ...(extra as Record<string, unknown>), ...row }, linesRows);
  return {
    ...header,
    ...(extra as Record<string, unknown>),
    ...named.header,
    ...(await staffListNames(ctx, decl, extra as Record<string, unknown>)),
    number: n(row.number),
    priceTotal: n(row.priceTotal),
    taxPriceTotal: n(row.taxPriceTotal),
    createdByName: creator ? creator.realName || creator.name : '',
    auditName: auditor ? auditor.realName || auditor.name : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    auditTime: row.auditTime?.toISOString() ?? null,
    lines: lines.map(({ line, englishName, hsCode, originCountry, netWeightEach, grossWeightEach, ...names }, index) => {
      const p = progress.get(line.id);
      const weight = (each: string | null) => (each === null ? null : microNumber(mul(toMicro(each), toMicro(line.baseNumber))));
      const exported = decl.currency ? { englishName, hsCode, originCountry, netWeight: weight(netWeightEach), grossWeight: weight(grossWeightEach) } : {};
      const { extra: lineExtra, tenantId: _t, billId: _b, ...rest } = line;
      return {
        ...rest,
        ...(lineExtra as Record<string, unknown>),
        ...named.lines[index],
        ...names,
        ...exported,
        number: n(line.number),
        baseNumber: n(line.baseNumber),
        giftNumber: n(line.giftNumber),
        unitPrice: n(line.unitPrice),
        taxRate: n(line.taxRate),
        taxUnitPrice: n(line.taxUnitPrice),
        discountRate: n(line.discountRate),
        priceTotal: n(line.priceTotal),
        taxPriceTotal: n(line.taxPriceTotal),
        ...(book ? { bookNumber: microNumber(book.get(Number(line.id)) ?? 0n) } : {}),
        // What downstream bills tallied on the line (a production order's step: its reports' good, scrap and rework).
        ...tallies.get(line.id),
        // Lines of money: their amount, and for settlement lines the bill settled with what was open of it.
        ...(lineKindOf(decl) === 'material' ? {} : { amount: microText(toMicro(line.priceTotal)), ...(line.sourceBillId ? settled.get(line.sourceBillId) : {}) }),
        progress: Object.fromEntries(
          // The kinds that count on this line (a production order's material shows its picking, not its completion).
          // A kind counting a field of the line shows only where the line offers any (a report line's scrap, for waste).
          decl.progress.filter((kind) => lineCountsFor(decl.type, kind, lineExtra as Record<string, unknown>) && (p?.offered[kind] ?? 1n) > 0n).map((kind) => {
            const k = p?.kinds[kind] ?? { done: 0n, taken: 0n };
            return [kind, { done: microNumber(k.done), taken: microNumber(k.taken), state: progressState(kind, p?.offered[kind] ?? toMicro(line.baseNumber), k.done) }];
          }),
        ),
      };
    }),
  };
}

/**
 * A stock check's book quantities (main unit), per line: what its place (material, warehouse, location, batch)
 * holds now while the check is open, and once posted what it held when the check was audited — the counted
 * quantity less what the audit moved (the line's ledger entries, a withdrawn audit's reversals included).
 */
async function bookNumbers(ctx: ServiceContext, row: BillRow): Promise<Map<number, Micro>> {
  const posted = POSTED_STATUSES.includes(row.billStatus as BillStatus);
  const found = await rows<{ id: number | string; book: string }>(
    ctx.tx,
    posted
      ? sql`select l.id, (l.base_number - coalesce((select sum(e.quantity) from stock_ledger e
                where e.tenant_id = l.tenant_id and e.bill_id = l.bill_id and e.bill_line_id = l.id), 0))::text as book
            from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${row.id}`
      : sql`select l.id, coalesce((select sum(b.quantity) from stock_balance b
                where b.tenant_id = l.tenant_id and b.material_id = l.material_id and b.warehouse_id = l.warehouse_id
                  and coalesce(b.location_id, 0) = coalesce(l.location_id, 0) and b.batch_number = l.batch_number), 0)::text as book
            from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${row.id}`,
  );
  return new Map(found.map((r) => [Number(r.id), toMicro(r.book)]));
}

/**
 * The names beside the ids a bill's fields of kind `record` hold (`supplierId` → `supplierName`), for its header
 * and each line, one query per kind named. A material line's material and unit come with its own join.
 */
async function namedRecords(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>, lines: ReadonlyArray<typeof billLine.$inferSelect>) {
  const { header: headRefs, lines: lineRefs } = namedRecordFields(decl);
  const lineValues = lines.map((l) => ({ ...(l.extra as Record<string, unknown>), ...l }) as Record<string, unknown>);
  const ids = new Map<string, unknown[]>();
  const want = (ref: string, id: unknown) => {
    const list = ids.get(ref);
    if (list) list.push(id);
    else ids.set(ref, [id]);
  };
  for (const f of headRefs) want(f.ref!, header[f.key]);
  for (const values of lineValues) for (const f of lineRefs) want(f.ref!, values[f.key]);
  const names = new Map<string, Map<number, string>>();
  for (const [ref, list] of ids) names.set(ref, await refNames(ctx.tx, ctx.tenantId, ref, list.filter((id): id is number => typeof id === 'number')));
  const nameOf = (f: FieldDecl, values: Record<string, unknown>): [string, string | null] => [nameKey(f.key), typeof values[f.key] === 'number' ? (names.get(f.ref!)?.get(values[f.key] as number) ?? null) : null];
  return {
    header: Object.fromEntries(headRefs.map((f) => nameOf(f, header))),
    lines: lineValues.map((values) => Object.fromEntries(lineRefs.map((f) => nameOf(f, values)))),
  };
}

/**
 * The names of the staff a `staffList` field names (a task's assignees), in its order, beside it: `assigneeIds` →
 * `assigneeNames` (the form's select shows them before any search lists them).
 */
async function staffListNames(ctx: ServiceContext, decl: BillTypeDecl, extra: Record<string, unknown>): Promise<Record<string, string[]>> {
  const answer: Record<string, string[]> = {};
  for (const f of headerFields(decl).filter((field) => field.kind === 'staffList')) {
    const ids = Array.isArray(extra[f.key]) ? (extra[f.key] as unknown[]).map(Number) : [];
    const names = await refNames(ctx.tx, ctx.tenantId, 'staff', ids);
    answer[staffListNamesKey(f.key)] = ids.map((id) => names.get(id) ?? '');
  }
  return answer;
}

/** GET {path}/:id/timeline */
export async function billTimeline(ctx: ServiceContext, decl: BillTypeDecl, id: number): Promise<BillTransitionView[]> {
  await loadBill(ctx, decl, id);
  const found = await ctx.tx
    .select()
    .from(billTransition)
    .where(and(eq(billTransition.tenantId, ctx.tenantId), eq(billTransition.billId, id)))
    .orderBy(asc(billTransition.id));
  return found.map((t) => ({
    id: t.id,
    operation: t.operation as BillTransitionView['operation'],
    fromStatus: t.fromStatus as BillStatus | null,
    toStatus: t.toStatus as BillStatus,
    reason: t.reason,
    accountId: t.accountId,
    accountName: t.accountName,
    at: t.at.toISOString(),
  }));
}
