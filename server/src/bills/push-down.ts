import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { BillSourceBill, BillSourceLine, SourceLineMaterial } from '@p8/contract/bills/api';
import { downstreamTypes, lineCountsFor, passesProgressOn, progressRollups, billType as findBillType } from '@p8/contract/bills/catalogue';
import { div, microNumber, microText, mul, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { lineKindOf, meets, offeredBase, type BillTypeDecl, type SourceDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES, PROGRESS_STATES, type BillStatus, type ProgressKind } from '@p8/contract/bills/status';
import { BizError } from '../core/errors.ts';
import { distinct } from '../core/ids.ts';
import { idArray } from '../core/tree.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { readTenantConfig } from '../core/tenant-config.ts';
import { rows, type Tx } from '../db/connection.ts';
import { bill, billLine } from '../db/schema/index.ts';
import { billScope } from './list.ts';
import { openQuantity, overallProgress } from './progress.ts';
import { allows, progressStatus } from './state-machine.ts';
import { localDay } from './stock-rules.ts';
import { openSourceBills, settlementPushLines, settlementState } from './settlement-lines.ts';
import { type LineRow, POSTED, linesWithBills, loadLines, recordTransition, sourceBillIdsOf, headerPayload, payloadLine } from './bill-rows.ts';
import { assertSourceMeets, conditionSql, createBill, drivingSql, loadMaterials, sharingTypes, switchedOffLineKeys, takenBySource } from './bill-save.ts';
import { inspectedOpen } from './inspection.ts';

/*
 * Push down and progress: new drafts from open lines of audited bills, what downstream bills took of each
 * source line (rolled up through intermediate bills), and the push-down picker's open source lines.
 */

// ---------------------------------------------------------------- push down and progress

/**
 * The header fields a pushed-down draft takes from its source: the declared ones, and the currency when both
 * types are commercial bills (docs/cross-border.md) — not the rate: the new bill takes its own date's.
 */
function copiedHeader(decl: BillTypeDecl, sourceDecl: BillTypeDecl, source: SourceDecl): readonly string[] {
  return decl.currency && sourceDecl.currency ? [...source.header, 'currencyId'] : source.header;
}

/**
 * POST {target path}/pushDown: a new draft of `decl` from open lines of audited `sourceType` bills, each
 * taking its open quantity (in the source line's unit) or the quantity asked for in `numbers`, with the
 * fields the declaration copies.
 */
export async function pushDown(
  ctx: ServiceContext,
  decl: BillTypeDecl,
  sourceType: string,
  sourceLineIds: number[],
  numbers: ReadonlyArray<{ sourceLineId: number; number: number }> = [],
): Promise<{ id: number; billCode: string }> {
  const wanted = new Map(numbers.map((n) => [n.sourceLineId, n.number]));
  const source = decl.sources.find((s) => s.type === sourceType);
  if (!source) throw new BizError('SourceBillNotExist', { additional: sourceType });
  const sourceDecl = findBillType(sourceType)!;
  const ids = distinct(sourceLineIds);
  if (lineKindOf(decl) === 'settlement') {
    // Settlement lines take whole bills: the ids are the source bills', each line settles what is open of one.
    const { heads, lines } = await settlementPushLines(ctx, sourceType, ids);
    for (const key of source.header) if (new Set(heads.map((h) => (h as Record<string, unknown>)[key])).size > 1) throw new BizError(key === 'supplierId' ? 'MergeBillDifferentSupplier' : 'MergeBillDifferentCustomer');
    // One payment or receipt settles bills of one currency (docs/cross-border.md).
    if (new Set(heads.map((h) => (h.extra as Record<string, unknown>).currencyId ?? null)).size > 1) throw new BizError('SettleCurrencyMismatch');
    const copied = headerPayload(sourceDecl, heads[0]);
    return createBill(ctx, decl, { ...source.defaults, ...Object.fromEntries(copiedHeader(decl, sourceDecl, source).map((key) => [key, copied[key]])), billDate: localDay(), lines });
  }
  // By their keys (linesWithBills), in the source bills' line order.
  const found = (await linesWithBills(ctx, ids)).filter((f) => f.head.billType === sourceType).sort((a, b) => a.line.billId - b.line.billId || a.line.lineNo - b.line.lineNo);
  if (found.length !== ids.length) throw new BizError('SourceBillNotExist', { additional: ids.find((id) => !found.some((f) => f.line.id === id)) });
  // Lines of a role this type does not take (a production order's products, for a pick) are not its source.
  const other = found.find((f) => !meets(source.fromLines, f.line.extra as Record<string, unknown>));
  if (other) throw new BizError('SourceBillNotExist', { additional: other.line.id });
  const heads = new Map(found.map((f) => [f.head.id, f.head]));
  for (const head of heads.values()) {
    if (!allows(head.billStatus as BillStatus, 'pushDown')) throw new BizError(POSTED.has(head.billStatus) ? (source.closedRefusal ?? 'BillAllPushed') : 'SourceBillNotAudit', { additional: head.billCode });
    assertSourceMeets(source, head);
  }
  const first = found[0].head;
  const copied = headerPayload(sourceDecl, first);
  for (const key of ['supplierId', 'customerId'] as const) {
    if (source.header.includes(key) && new Set(found.map((f) => f.head[key])).size > 1) throw new BizError(key === 'supplierId' ? 'MergeBillDifferentSupplier' : 'MergeBillDifferentCustomer');
  }
  const taken = await takenBySource(ctx.tx, ctx.tenantId, ids, sharingTypes(decl, sourceType));
  const materials = await loadMaterials(ctx.tx, ctx.tenantId, distinct(found.map((f) => f.line.materialId)));
  // A field switched off since the source was made (its storage location) is not carried into the new bill.
  const off = switchedOffLineKeys(decl, await readTenantConfig(ctx.tx, ctx.tenantId));
  const copiedKeys = source.lines.filter((key) => !off.has(key));
  // Goods that wait for their inspection: no more than it accepted (with none accepted, the open quantity — the
  // save then says what is missing).
  const inspected = await inspectedOpen(ctx.tx, ctx.tenantId, decl, sourceType, found.map((f) => ({ id: f.line.id, materialId: f.line.materialId })));
  const lines: Array<Record<string, unknown>> = [];
  for (const { line } of found) {
    const whole = openQuantity(offeredBase(source, { ...line, extra: line.extra as Record<string, unknown> }), taken.get(line.id) ?? 0n, line.closed);
    if (whole <= 0n) continue;
    const accepted = inspected.get(line.id);
    const open = accepted !== undefined && accepted > 0n && accepted < whole ? accepted : whole;
    const ratio = (line.unitId !== null && materials.get(line.materialId)?.ratios.get(line.unitId)) || toMicro(1);
    const stored = payloadLine(line);
    lines.push({
      materialId: line.materialId,
      unitId: line.unitId,
      // The quantity the user asked for, checked against the open quantity as any save is (linkSources).
      number: wanted.get(line.id) ?? microNumber(div(open, ratio)),
      sourceLineId: line.id,
      ...source.lineDefaults,
      ...Object.fromEntries(copiedKeys.map((key) => [key, stored[key]])),
    });
  }
  if (!lines.length) throw new BizError('BillAllPushed', { additional: first.billCode });
  const header = Object.fromEntries(copiedHeader(decl, sourceDecl, source).map((key) => [key, copied[key]]));
  const paired = decl.pairedLines;
  if (paired) {
    // Each line taken (the goods exchanged) with its twin beside it (the replacement), which takes nothing.
    const twins = lines.flatMap((line) => [{ ...line, [paired.field]: paired.taking }, { ...line, [paired.field]: paired.twin, sourceLineId: null }]);
    return createBill(ctx, decl, { ...source.defaults, ...header, billDate: localDay(), lines: twins });
  }
  return createBill(ctx, decl, { ...source.defaults, ...header, billDate: localDay(), lines });
}

/**
 * Recomputes the progress of every source bill `lines` take from: per progress kind, the states of its
 * lines and its header, and its status (Audit ↔ Partially ↔ Complete by its first progress kind). A source
 * that passes progress on (`progressRollups`) has its own sources recomputed after it.
 */
export async function refreshSources(ctx: ServiceContext, lines: LineRow[]) {
  const pending = new Set(lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null));
  const refreshed = new Set<number>();
  while (pending.size) {
    // Newest first, as lockBills takes them: a source's own sources are older than it.
    const sourceBillId = Math.max(...pending);
    pending.delete(sourceBillId);
    if (refreshed.has(sourceBillId)) continue;
    refreshed.add(sourceBillId);
    const [head] = await ctx.tx
      .select()
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, sourceBillId)))
      .for('update');
    const decl = head && findBillType(head.billType);
    if (!decl) continue;
    if (passesProgressOn(decl.type)) for (const id of await sourceBillIdsOf(ctx.tx, ctx.tenantId, head.id)) pending.add(id);
    const ownLines = await loadLines(ctx.tx, ctx.tenantId, head.id);
    const progress = await lineProgress(ctx.tx, ctx.tenantId, decl, ownLines);
    const headerProgress: Record<string, string> = {};
    let primary: 'none' | 'partial' | 'all' = 'none';
    // Kinds no downstream bill type drives keep what their module wrote. Kinds driven by settlement lines
    // (a payment settling an in-stock) go by amount, and never move the bill's status.
    const downstream = downstreamTypes(decl.type);
    const drives = (byAmount: boolean) => downstream.filter((d) => (lineKindOf(d) === 'settlement') === byAmount).flatMap((d) => d.sources.filter((s) => s.type === decl.type).map((s) => s.drives));
    // Kinds rolled up through intermediate bills are driven too (a sale order's out-stocks through its notices).
    const driven = new Set([...drives(false), ...progressRollups(decl.type).map((r) => r.kind)]);
    const byAmount = new Set(drives(true));
    const amountState = byAmount.size ? await settlementState(ctx.tx, ctx.tenantId, head) : undefined;
    decl.progress.forEach((kind, index) => {
      if (byAmount.has(kind) && !driven.has(kind)) {
        headerProgress[kind] = amountState!;
        return;
      }
      if (!driven.has(kind) && head.progress[kind]) {
        headerProgress[kind] = head.progress[kind];
        return;
      }
      // Over the lines the kind counts on (a production order's products for in-stock, its materials for picking),
      // and of a kind counting a field of theirs, the lines offering any (a report's lines with scrap, for waste).
      const counted = progress.filter((p, i) => lineCountsFor(decl.type, kind, ownLines[i].extra as Record<string, unknown>) && (p.offered[kind] ?? 1n) > 0n);
      // No line for it (an order without process steps has nothing to report): no state.
      if (!counted.length) return;
      const overall = overallProgress(counted.map((p) => ({ number: p.offered[kind] ?? p.number, done: p.kinds[kind]?.done ?? 0n })));
      headerProgress[kind] = PROGRESS_STATES[kind][overall === 'none' ? 0 : overall === 'partial' ? 1 : 2];
      if (index === 0) primary = overall;
    });
    const to = progressStatus(head.billStatus as BillStatus, primary);
    await ctx.tx
      .update(bill)
      .set({ progress: headerProgress, billStatus: to })
      .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, head.id)));
    if (to !== head.billStatus) await recordTransition(ctx, head.id, 'progress', head.billStatus, to);
  }
}

interface LineProgress {
  lineId: number;
  number: Micro;
  /** What the line offers a kind when it is not its quantity (`SourceDecl.offers`: a report's scrap for `waste`). */
  offered: Partial<Record<ProgressKind, Micro>>;
  kinds: Partial<Record<ProgressKind, { done: Micro; taken: Micro }>>;
}

/** The downstream sources onto `decl` that offer their own field, by the kind they drive. */
const offeringSources = (decl: BillTypeDecl) => downstreamTypes(decl.type).flatMap((d) => d.sources.filter((s) => s.type === decl.type && s.offers));

/** Per line of a bill and per progress kind of its type: main-unit quantities taken and done downstream. */
export async function lineProgress(tx: Tx, tenantId: number, decl: BillTypeDecl, lines: LineRow[]): Promise<LineProgress[]> {
  const offering = offeringSources(decl);
  const offeredOf = (line: LineRow) => Object.fromEntries(offering.map((s) => [s.drives, offeredBase(s, { ...line, extra: line.extra as Record<string, unknown> })]));
  if (!lines.length || !decl.progress.length) return lines.map((l) => ({ lineId: l.id, number: toMicro(l.baseNumber), offered: offeredOf(l), kinds: {} }));
  const found = await tx
    .select({
      sourceLineId: billLine.sourceLineId,
      billType: bill.billType,
      taken: sql<string>`sum(${billLine.baseNumber})::text`,
      done: sql<string>`coalesce(sum(${billLine.baseNumber}) filter (where ${inArray(bill.billStatus, [...POSTED_STATUSES])} and ${drivingSql(decl.type, '"bill"')}), 0)::text`,
    })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), sql`${billLine.sourceLineId} = any(${idArray(lines.map((l) => l.id))})`, ne(bill.billStatus, 'Merged')))
    .groupBy(billLine.sourceLineId, bill.billType);
  // By line, looked up rather than searched per line: an MRP plan's 88,000 lines against what a thousand bills
  // took of them would be 88 million comparisons at every audit of one of those bills.
  const byLine = new Map<number, Array<{ kind: ProgressKind; done: Micro; taken: Micro }>>();
  const put = (lineId: number, entry: { kind: ProgressKind; done: Micro; taken: Micro }) => {
    const list = byLine.get(lineId);
    if (list) list.push(entry);
    else byLine.set(lineId, [entry]);
  };
  for (const f of found) {
    const kind = findBillType(f.billType)?.sources.find((s) => s.type === decl.type)?.drives;
    if (kind) put(Number(f.sourceLineId), { kind, done: toMicro(f.done), taken: toMicro(f.taken) });
  }
  for (const r of await rolledUpProgress(tx, tenantId, decl, lines.map((l) => l.id))) put(r.sourceLineId, r);
  return lines.map((line) => {
    const kinds: LineProgress['kinds'] = {};
    for (const { kind, done, taken } of byLine.get(line.id) ?? []) {
      const was = kinds[kind] ?? { done: 0n, taken: 0n };
      kinds[kind] = { done: was.done + done, taken: was.taken + taken };
    }
    return { lineId: line.id, number: toMicro(line.baseNumber), offered: offeredOf(line), kinds };
  });
}

/**
 * The figures downstream types tally on a bill's lines (`SourceDecl.tallies`), per line id and field, in each
 * line's unit: the sums of the declared fields over the posted downstream lines made from it (each in the main
 * unit, as an offered field is: scaled by the downstream line's ratio), brought back to the line's unit. A line
 * the tallying type does not take from (`fromLines`) gets none; one it does, every declared field (0 when none).
 */
export async function lineTallies(tx: Tx, tenantId: number, decl: BillTypeDecl, lines: LineRow[]): Promise<Map<number, Record<string, number>>> {
  const out = new Map<number, Record<string, number>>();
  const tallying = downstreamTypes(decl.type).flatMap((d) => d.sources.filter((s) => s.type === decl.type && s.tallies).map((s) => ({ type: d.type, source: s })));
  for (const { type, source } of tallying) {
    const taking = lines.filter((l) => meets(source.fromLines, l.extra as Record<string, unknown>));
    if (!taking.length) continue;
    const entries = Object.entries(source.tallies!);
    const base = (field: string) =>
      field === 'number' ? sql`d.base_number` : sql`coalesce((d.extra ->> ${field})::numeric * d.base_number / nullif(d.number, 0), (d.extra ->> ${field})::numeric, 0)`;
    const found = await rows<Record<string, string>>(
      tx,
      sql`select d.source_line_id::text as line, ${sql.join(entries.map(([, field], i) => sql`sum(${base(field)})::text as ${sql.identifier(`t${i}`)}`), sql`, `)}
          from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
          where d.tenant_id = ${tenantId} and db.bill_type = ${type} and db.bill_status in (${sql.join(POSTED_STATUSES.map((st) => sql`${st}`), sql`, `)})
            and d.source_line_id = any(${idArray(taking.map((l) => l.id))})
          group by d.source_line_id`,
    );
    const byLine = new Map(found.map((r) => [Number(r.line), r]));
    for (const line of taking) {
      const sums = byLine.get(line.id);
      const [number, lineBase] = [toMicro(line.number), toMicro(line.baseNumber)];
      // Back to the line's unit: × its quantity ÷ its main-unit quantity (the same unit: as it is).
      const inUnit = (main: Micro) => (lineBase === 0n || number === lineBase ? main : div(mul(main, number), lineBase));
      const figures = Object.fromEntries(entries.map(([key], i) => [key, microNumber(inUnit(toMicro(sums?.[`t${i}`] ?? '0')))]));
      out.set(line.id, { ...out.get(line.id), ...figures });
    }
  }
  return out;
}

/**
 * Per line of a bill of `decl`'s type: what bills further down did through intermediate bills, by the
 * roll-ups declared onto the type (`progressRollups`: the out-stocks of a sale order's shipping notices).
 * Each roll-up follows its chain of source lines, `t` the lines at its end, `v0` the intermediate lines made
 * from the bill's own lines.
 */
async function rolledUpProgress(tx: Tx, tenantId: number, decl: BillTypeDecl, lineIds: number[]) {
  const out: Array<{ sourceLineId: number; kind: ProgressKind; done: Micro; taken: Micro }> = [];
  if (!lineIds.length) return out;
  for (const r of progressRollups(decl.type)) {
    const chain = r.via.map((type, i) => {
      const [v, vb, from] = [`v${i}`, `vb${i}`, i === r.via.length - 1 ? 't' : `v${i + 1}`];
      return sql.raw(`join bill_line ${v} on ${v}.tenant_id = t.tenant_id and ${v}.id = ${from}.source_line_id
        join bill ${vb} on ${vb}.tenant_id = t.tenant_id and ${vb}.id = ${v}.bill_id and ${vb}.bill_type = `).append(sql`${type}`);
    });
    const found = await rows<{ source_line_id: string; taken: string; done: string }>(
      tx,
      sql`select v0.source_line_id, sum(t.base_number)::text as taken,
                 coalesce(sum(t.base_number) filter (where tb.bill_status in (${sql.join(POSTED_STATUSES.map((s) => sql`${s}`), sql`, `)})
                   and ${drivingSql(r.via[r.via.length - 1], 'tb')}), 0)::text as done
          from bill_line t
          join bill tb on tb.tenant_id = t.tenant_id and tb.id = t.bill_id and tb.bill_type = ${r.by} and tb.bill_status <> 'Merged'
          ${sql.join(chain, sql` `)}
          where t.tenant_id = ${tenantId} and v0.source_line_id = any(${idArray(lineIds)})
          group by v0.source_line_id`,
    );
    for (const f of found) out.push({ sourceLineId: Number(f.source_line_id), kind: r.kind, done: toMicro(f.done), taken: toMicro(f.taken) });
  }
  return out;
}


/** The `onlyWhen` of `decl`'s source `sourceType` as SQL on its bills aliased `b` (true without one). */
const onlyWhenSql = (decl: BillTypeDecl, sourceType: string): SQL => {
  const onlyWhen = decl.sources.find((s) => s.type === sourceType)?.onlyWhen;
  return onlyWhen ? conditionSql(onlyWhen, 'b') : sql`true`;
};

/**
 * A source line's material and unit (`SourceLineMaterial`) in SQL, for the line aliased `line`: the joins (its
 * material as `m`, its unit as `u`, which a keyword filter may name), the columns they give, and their row as
 * the API answers it — the push-down picker's, and the shop floor's step list (modules/production/floor.ts).
 */
export const sourceLineMaterialSql = (line: string) => ({
  joins: sql.raw(`join material m on m.tenant_id = ${line}.tenant_id and m.id = ${line}.material_id
          left join unit u on u.tenant_id = ${line}.tenant_id and u.id = ${line}.unit_id`),
  columns: sql.raw(`${line}.material_id, m.code as material_code, m.name as material_name, m.specification, ${line}.unit_id, u.name as unit_name`),
});

export const sourceLineMaterial = (r: Record<string, string | null>): SourceLineMaterial => ({
  materialId: Number(r.material_id),
  materialCode: r.material_code!,
  materialName: r.material_name!,
  specification: r.specification ?? '',
  unitId: r.unit_id === null ? null : Number(r.unit_id),
  unitName: r.unit_name,
});

/** GET {target path}/sources: open lines of audited bills of a source type, for the push-down picker. */
export async function openSourceLines(
  ctx: ServiceContext,
  decl: BillTypeDecl,
  input: { sourceType?: string; keyword?: string; partnerId?: number; current: number; pageSize: number },
): Promise<{ data: BillSourceLine[] | BillSourceBill[]; pagination: { current: number; pageSize: number; total: number } }> {
  const query = { ...input, sourceType: input.sourceType ?? decl.sources[0]?.type };
  if (!decl.sources.some((s) => s.type === query.sourceType)) throw new BizError('SourceBillNotExist', { additional: query.sourceType });
  if (lineKindOf(decl) === 'settlement') return openSourceBills(ctx, decl, query, onlyWhenSql);
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const { onlyWhen, fromLines, offers } = decl.sources.find((s) => s.type === query.sourceType)!;
  // What each line offers (offeredBase): its quantity, or the declared field (a report's scrapped pieces).
  const offeredNumber = offers ? sql`coalesce((l.extra ->> ${offers})::numeric, 0)` : sql`l.number`;
  // (A line without a quantity — of another type, before the filters apply — offers the field as it is.)
  const offered = offers ? sql`coalesce(${offeredNumber} * l.base_number / nullif(l.number, 0), ${offeredNumber})` : sql`l.base_number`;
  const scope = await billScope(ctx, 'b');
  const where = sql`b.tenant_id = ${ctx.tenantId} and b.bill_type = ${query.sourceType} and b.bill_status in ('Audit', 'Partially') and not l.closed
    ${scope ? sql`and ${scope}` : sql``}
    ${onlyWhen ? sql`and ${conditionSql(onlyWhen, 'b')}` : sql``}
    ${fromLines ? sql`and ${conditionSql(fromLines, 'l', billLine)}` : sql``}
    ${query.partnerId ? sql`and coalesce(b.supplier_id, b.customer_id) = ${query.partnerId}` : sql``}
    ${keyword ? sql`and (b.bill_code ilike ${keyword} or m.code ilike ${keyword} or m.name ilike ${keyword})` : sql``}`;
  const open = sql`${offered} - coalesce((select sum(d.base_number) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
      where d.tenant_id = l.tenant_id and d.source_line_id = l.id and db.bill_status <> 'Merged'
        and db.bill_type in (${sql.join(sharingTypes(decl, query.sourceType!).map((t) => sql`${t}`), sql`, `)})), 0)`;
  const material = sourceLineMaterialSql('l');
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select * from (
          select b.id as source_bill_id, b.bill_code, b.bill_date::text, p.name as partner_name, l.id as source_line_id, ${material.columns},
                 (${offeredNumber})::text as number, (${offered})::text as base_number, (${open})::text as open_base,
                 count(*) over () as total
          from bill_line l
          join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          ${material.joins}
          left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
          where ${where} and (${open}) > 0
        ) o order by o.bill_date, o.source_bill_id, o.source_line_id
        limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  const materials = await loadMaterials(ctx.tx, ctx.tenantId, distinct(found.map((r) => Number(r.material_id))));
  // Goods that wait for their inspection offer what it accepted and nothing was taken of yet.
  const inspected = await inspectedOpen(ctx.tx, ctx.tenantId, decl, query.sourceType!, found.map((r) => ({ id: Number(r.source_line_id), materialId: Number(r.material_id) })));
  return {
    data: found.map((r) => {
      const ratio = (r.unit_id !== null && materials.get(Number(r.material_id))?.ratios.get(Number(r.unit_id))) || toMicro(1);
      const accepted = inspected.get(Number(r.source_line_id));
      const wholeOpen = toMicro(r.open_base!);
      const openBase = accepted !== undefined && accepted < wholeOpen ? accepted : wholeOpen;
      return {
        sourceBillId: Number(r.source_bill_id),
        sourceBillCode: r.bill_code!,
        sourceBillDate: r.bill_date!,
        partnerName: r.partner_name,
        sourceLineId: Number(r.source_line_id),
        ...sourceLineMaterial(r),
        number: microText(toMicro(r.number!)),
        takenNumber: microText(div(toMicro(r.base_number!) - wholeOpen, ratio)),
        openNumber: microText(div(openBase, ratio)),
      };
    }),
    pagination: { current: query.current, pageSize: query.pageSize, total: Number(found[0]?.total ?? 0) },
  };
}
