import { and, eq, inArray, sql } from 'drizzle-orm';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { divRound, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import type { BillTypeDecl, SourceDecl } from '@p8/contract/bills/registry';
import type { ApplicableTemplate, InspectionItem, InspectionKind, ItemValueKind, Sampling } from '@p8/contract/quality';
import { BizError, refusal } from '../core/errors.ts';
import { inspectionBox } from '../db/schema/index.ts';
import { loadBill } from './bill-rows.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { idArray, textList } from '../core/tree.ts';
import { rows, type Tx } from '../db/connection.ts';

/*
 * Inspections in the engine (docs/quality.md): which template applies to a material at an inspection, and the
 * rule every bill whose source declares `inspectedBy` obeys — where that template says the goods wait for it,
 * a line takes at most what audited inspections of its source line accepted (accepted + concession), or, into a
 * reject warehouse, what they rejected.
 */

/**
 * The template that applies to each material at an inspection of `kind` (and, for the process inspections, at
 * `processId`): an enabled template naming the material, else one naming its category or the nearest category
 * above it, else a general one (naming neither); among those, one naming the process before one naming none,
 * then by sort and age.
 */
export async function applicableTemplates(tx: Tx, tenantId: number, kind: InspectionKind, materialIds: readonly number[], processId?: number | null): Promise<Map<number, ApplicableTemplate>> {
  if (!materialIds.length) return new Map();
  const found = await rows<{ material_id: string; id: string; code: string; name: string; sampling: string; sample_value: string | null; gates: boolean }>(
    tx,
    sql`with recursive up as (
          select m.id as material_id, m.category_id, 0 as depth from material m
          where m.tenant_id = ${tenantId} and m.id = any(${idArray(materialIds)}) and m.category_id is not null
          union all
          select up.material_id, c.parent_id, up.depth + 1 from up
          join category c on c.tenant_id = ${tenantId} and c.id = up.category_id
          where c.parent_id is not null and up.depth < 10
        )
        select distinct on (m.id) m.id as material_id, t.id, t.code, t.name, t.sampling, t.sample_value::text, t.gates
        from material m
        join inspection_template t on t.tenant_id = m.tenant_id and t.enabled and t.inspection_kind = ${kind}
          and (t.process_id is null or t.process_id = ${processId ?? null})
        left join up on up.material_id = m.id and up.category_id = t.category_id
        where m.tenant_id = ${tenantId} and m.id = any(${idArray(materialIds)})
          and (t.material_id = m.id or (t.material_id is null and (up.material_id is not null or t.category_id is null)))
        order by m.id, (t.material_id is not null) desc, (t.category_id is not null) desc, coalesce(up.depth, 0), (t.process_id is not null) desc, t.sort, t.id`,
  );
  if (!found.length) return new Map();
  const items = await rows<{ record_id: string; line_no: number; name: string; method: string | null; value_kind: string; standard: string | null; lower: string | null; upper: string | null; blocks: boolean }>(
    tx,
    sql`select record_id, line_no, name, method, value_kind, standard::text, lower::text, upper::text, blocks from inspection_template_item
        where tenant_id = ${tenantId} and record_id = any(${idArray([...new Set(found.map((f) => Number(f.id)))])}) order by record_id, line_no`,
  );
  const num = (v: string | null) => (v === null ? null : Number(v));
  const itemsOf = (id: number): InspectionItem[] =>
    items
      .filter((i) => Number(i.record_id) === id)
      .map((i) => ({ item: i.line_no, name: i.name, method: i.method, valueKind: i.value_kind as ItemValueKind, standard: num(i.standard), lower: num(i.lower), upper: num(i.upper), blocks: i.blocks }));
  return new Map(
    found.map((f) => [
      Number(f.material_id),
      { id: Number(f.id), code: f.code, name: f.name, sampling: f.sampling as Sampling, sampleValue: num(f.sample_value), gates: f.gates, items: itemsOf(Number(f.id)) },
    ]),
  );
}

/** A line of a bill whose source declares `inspectedBy`, as linking its sources found it. */
export interface InspectedTake {
  lineNo: number;
  sourceLineId: number;
  materialId: number;
  /** The line's quantity in the main unit. */
  baseNumber: Micro;
  /** Where the line's goods go (or come from): a reject warehouse takes rejects. */
  warehouseId: number | null;
  source: SourceDecl;
}

/** What audited inspections found of a source line, in the main unit: accepted (with concessions) and rejected. */
export interface Inspected {
  accepted: Micro;
  rejected: Micro;
}

/**
 * What audited inspections of `inspectionType` found of each source line (the lines' own quantities scaled to
 * the main unit by their unit's ratio), leaving out the bill `exceptBillId`.
 */
export async function inspectedBySource(tx: Tx, tenantId: number, inspectionType: string, sourceLineIds: readonly number[], exceptBillId = 0): Promise<Map<number, Inspected>> {
  if (!sourceLineIds.length) return new Map();
  const found = await rows<{ source_line_id: string; number: string; base_number: string; accepted: string | null; concession: string | null; rejected: string | null }>(
    tx,
    sql`select l.source_line_id, l.number::text, l.base_number::text, l.extra ->> 'acceptedNumber' as accepted, l.extra ->> 'concessionNumber' as concession,
          l.extra ->> 'rejectedNumber' as rejected
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and l.source_line_id = any(${idArray(sourceLineIds)}) and b.bill_type = ${inspectionType}
          and b.bill_status in (${textList(POSTED_STATUSES)}) and b.id <> ${exceptBillId}`,
  );
  const inspected = new Map<number, Inspected>();
  for (const r of found) {
    const number = toMicro(r.number);
    const base = (own: Micro) => (number === 0n ? own : divRound(own * toMicro(r.base_number), number));
    const sum = inspected.get(Number(r.source_line_id)) ?? { accepted: 0n, rejected: 0n };
    inspected.set(Number(r.source_line_id), {
      accepted: sum.accepted + base(toMicro(r.accepted ?? '0') + toMicro(r.concession ?? '0')),
      rejected: sum.rejected + base(toMicro(r.rejected ?? '0')),
    });
  }
  return inspected;
}

/** What bills took of a source line: good goods, and rejects (lines into or out of a reject warehouse). */
export interface TakenByPurpose {
  good: Micro;
  rejects: Micro;
}

/**
 * What bills of `types` (any status but Merged, leaving out `exceptBillId`) took of each source line, good goods
 * apart from rejects.
 */
export async function takenByPurpose(tx: Tx, tenantId: number, types: readonly string[], sourceLineIds: readonly number[], exceptBillId = 0): Promise<Map<number, TakenByPurpose>> {
  if (!sourceLineIds.length || !types.length) return new Map();
  const found = await rows<{ source_line_id: string; good: string; rejects: string }>(
    tx,
    sql`select l.source_line_id, coalesce(sum(l.base_number) filter (where w.rejects is not true), 0)::text as good,
          coalesce(sum(l.base_number) filter (where w.rejects), 0)::text as rejects
        from bill_line l
        join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        left join warehouse w on w.tenant_id = l.tenant_id and w.id = l.warehouse_id
        where l.tenant_id = ${tenantId} and l.source_line_id = any(${idArray(sourceLineIds)}) and b.bill_type in (${textList(types)})
          and b.bill_status <> 'Merged' and b.id <> ${exceptBillId}
        group by l.source_line_id`,
  );
  return new Map(found.map((r) => [Number(r.source_line_id), { good: toMicro(r.good), rejects: toMicro(r.rejects) }]));
}

/** The reject warehouses among `warehouseIds`. */
async function rejectWarehouses(tx: Tx, tenantId: number, warehouseIds: readonly (number | null)[]): Promise<Set<number>> {
  const ids = [...new Set(warehouseIds.filter((id): id is number => id !== null))];
  if (!ids.length) return new Set();
  const found = await rows<{ id: string }>(tx, sql`select id from warehouse where tenant_id = ${tenantId} and rejects and id = any(${idArray(ids)})`);
  return new Set(found.map((r) => Number(r.id)));
}

/** The materials among `materialIds` whose goods wait for an inspection of `kind` (its template `gates`). */
export async function gatedMaterials(tx: Tx, tenantId: number, kind: InspectionKind, materialIds: readonly number[]): Promise<Set<number>> {
  const templates = await applicableTemplates(tx, tenantId, kind, [...new Set(materialIds)]);
  return new Set([...templates].filter(([, t]) => t.gates).map(([id]) => id));
}

/**
 * The inspection rule of a save of bill `billId` (after its source lines are locked and taken): of a gated
 * material's source line, the bills waiting for its inspections take at most what audited inspections accepted
 * (with concessions) as good goods, and at most what they rejected into (or out of) reject warehouses.
 */
export async function assertInspected(ctx: ServiceContext, billId: number, takes: readonly InspectedTake[]): Promise<void> {
  const { tx, tenantId } = ctx;
  const rejectsIn = await rejectWarehouses(tx, tenantId, takes.map((t) => t.warehouseId));
  const intoRejects = (take: InspectedTake) => take.warehouseId !== null && rejectsIn.has(take.warehouseId);
  const groups = new Map<string, InspectedTake[]>();
  for (const take of takes) {
    const key = `${take.source.inspectedBy}|${take.source.type}`;
    groups.set(key, [...(groups.get(key) ?? []), take]);
  }
  for (const group of groups.values()) {
    const { inspectedBy: inspectionType, type: sourceType } = group[0].source;
    const gated = await gatedMaterials(tx, tenantId, billType(inspectionType!)!.inspection!, group.map((t) => t.materialId));
    const waiting = group.filter((t) => gated.has(t.materialId));
    if (!waiting.length) continue;
    const sourceLineIds = waiting.map((t) => t.sourceLineId);
    const inspected = await inspectedBySource(tx, tenantId, inspectionType!, sourceLineIds);
    const taken = await takenByPurpose(tx, tenantId, waitingTypes(inspectionType!, sourceType), sourceLineIds, billId);
    // This bill's own lines on top of what the others took.
    for (const take of waiting) {
      const sum = taken.get(take.sourceLineId) ?? { good: 0n, rejects: 0n };
      if (intoRejects(take)) sum.rejects += take.baseNumber;
      else sum.good += take.baseNumber;
      taken.set(take.sourceLineId, sum);
    }
    for (const take of waiting) {
      const found = inspected.get(take.sourceLineId);
      const refs = { materialId: take.materialId };
      if (!found) throw refusal('InspectionReportNotAudit', refs, { line: take.lineNo });
      const sum = taken.get(take.sourceLineId)!;
      if (intoRejects(take)) {
        if (sum.rejects > found.rejected) throw refusal('NumberExceedRejected', refs, { line: take.lineNo, need: sum.rejects, have: found.rejected });
      } else {
        if (found.accepted === 0n) throw refusal('InspectionReportNotAudit', refs, { line: take.lineNo });
        if (sum.good > found.accepted) throw refusal('NumberExceedInspected', refs, { line: take.lineNo, need: sum.good, have: found.accepted });
      }
    }
  }
}

/**
 * What lines of `decl` may still take as good goods from each of `sourceLines` (of `sourceType`) by their
 * inspections: for a source declaring `inspectedBy` and a gated material, what audited inspections accepted less
 * what waiting bills took as good goods (never below zero); lines whose goods do not wait are left out. The push-down
 * picker and push down offer no more than this.
 */
export async function inspectedOpen(tx: Tx, tenantId: number, decl: BillTypeDecl, sourceType: string, sourceLines: ReadonlyArray<{ id: number; materialId: number }>): Promise<Map<number, Micro>> {
  const inspectionType = decl.sources.find((s) => s.type === sourceType)?.inspectedBy;
  if (!inspectionType || !sourceLines.length) return new Map();
  const gated = await gatedMaterials(tx, tenantId, billType(inspectionType)!.inspection!, sourceLines.map((l) => l.materialId));
  const ids = sourceLines.filter((l) => gated.has(l.materialId)).map((l) => l.id);
  if (!ids.length) return new Map();
  const inspected = await inspectedBySource(tx, tenantId, inspectionType, ids);
  const taken = await takenByPurpose(tx, tenantId, waitingTypes(inspectionType, sourceType), ids);
  return new Map(
    ids.map((id) => {
      const left = (inspected.get(id)?.accepted ?? 0n) - (taken.get(id)?.good ?? 0n);
      return [id, left > 0n ? left : 0n];
    }),
  );
}

/** Boxes of inspections of `decl`'s type the caller may read (a box label print names them). */
export async function assertBoxesVisible(ctx: ServiceContext, decl: BillTypeDecl, ids: number[]): Promise<void> {
  const found = await ctx.tx
    .select({ id: inspectionBox.id, billId: inspectionBox.billId })
    .from(inspectionBox)
    .where(and(eq(inspectionBox.tenantId, ctx.tenantId), inArray(inspectionBox.id, ids)));
  if (found.length !== new Set(ids).size) throw new BizError('BoxNotExist', { additional: ids.find((id) => !found.some((f) => f.id === id)) });
  for (const billId of new Set(found.map((f) => f.billId))) await loadBill(ctx, decl, billId);
}

/** The types whose lines from a `sourceType` bill wait for `inspectionType` (their source declares it `inspectedBy`). */
export const waitingTypes = (inspectionType: string, sourceType: string): string[] =>
  BILL_TYPES.filter((d) => d.sources.some((s) => s.type === sourceType && s.inspectedBy === inspectionType)).map((d) => d.type);
