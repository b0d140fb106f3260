import { sql } from 'drizzle-orm';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { divRound, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import type { SourceDecl } from '@p8/contract/bills/registry';
import type { ApplicableTemplate, InspectionItem, InspectionKind, ItemValueKind, Sampling } from '@p8/contract/quality';
import { refusal } from '../core/errors.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { idArray, textList } from '../core/tree.ts';
import { rows, type Tx } from '../db/connection.ts';

/*
 * Inspections in the engine (docs/quality.md): which template applies to a material at an inspection, and the
 * rule every bill whose source declares `inspectedBy` obeys — where that template says the goods wait for it,
 * a line takes at most what audited inspections of its source line accepted (accepted + concession).
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
  billId: number;
  source: SourceDecl;
}

/**
 * What audited inspections of `inspectionType` accepted of each source line (accepted + concession, in the
 * main unit: the line's own quantities scaled by its unit's ratio), leaving out the bill `exceptBillId`.
 */
export async function acceptedBySource(tx: Tx, tenantId: number, inspectionType: string, sourceLineIds: readonly number[], exceptBillId = 0): Promise<Map<number, Micro>> {
  if (!sourceLineIds.length) return new Map();
  const found = await rows<{ source_line_id: string; number: string; base_number: string; accepted: string | null; concession: string | null }>(
    tx,
    sql`select l.source_line_id, l.number::text, l.base_number::text, l.extra ->> 'acceptedNumber' as accepted, l.extra ->> 'concessionNumber' as concession
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and l.source_line_id = any(${idArray(sourceLineIds)}) and b.bill_type = ${inspectionType}
          and b.bill_status in (${textList(POSTED_STATUSES)}) and b.id <> ${exceptBillId}`,
  );
  const accepted = new Map<number, Micro>();
  for (const r of found) {
    const own = toMicro(r.accepted ?? '0') + toMicro(r.concession ?? '0');
    const number = toMicro(r.number);
    const base = number === 0n ? own : divRound(own * toMicro(r.base_number), number);
    accepted.set(Number(r.source_line_id), (accepted.get(Number(r.source_line_id)) ?? 0n) + base);
  }
  return accepted;
}

/** The materials among `materialIds` whose goods wait for an inspection of `kind` (its template `gates`). */
export async function gatedMaterials(tx: Tx, tenantId: number, kind: InspectionKind, materialIds: readonly number[]): Promise<Set<number>> {
  const templates = await applicableTemplates(tx, tenantId, kind, [...new Set(materialIds)]);
  return new Set([...templates].filter(([, t]) => t.gates).map(([id]) => id));
}

/**
 * The inspection rule of a save (after its source lines are locked and taken): each line of a gated material
 * takes, with everything else that took from its source line (`taken`: all of it, this bill's lines included),
 * at most what audited inspections accepted of that line.
 */
export async function assertInspected(ctx: ServiceContext, takes: readonly InspectedTake[], taken: ReadonlyMap<number, Micro>): Promise<void> {
  const byInspection = new Map<string, InspectedTake[]>();
  for (const take of takes) byInspection.set(take.source.inspectedBy!, [...(byInspection.get(take.source.inspectedBy!) ?? []), take]);
  for (const [inspectionType, group] of byInspection) {
    const kind = billType(inspectionType)!.inspection!;
    const gated = await gatedMaterials(ctx.tx, ctx.tenantId, kind, group.map((t) => t.materialId));
    const waiting = group.filter((t) => gated.has(t.materialId));
    if (!waiting.length) continue;
    const accepted = await acceptedBySource(ctx.tx, ctx.tenantId, inspectionType, waiting.map((t) => t.sourceLineId));
    for (const take of waiting) {
      const have = accepted.get(take.sourceLineId) ?? 0n;
      const refs = { materialId: take.materialId };
      if (have === 0n) throw refusal('InspectionReportNotAudit', refs, { line: take.lineNo });
      const need = taken.get(take.sourceLineId) ?? 0n;
      if (need > have) throw refusal('NumberExceedInspected', refs, { line: take.lineNo, need, have });
    }
  }
}

/** The types whose lines from a `sourceType` bill wait for `inspectionType` (their source declares it `inspectedBy`). */
export const waitingTypes = (inspectionType: string, sourceType: string): string[] =>
  BILL_TYPES.filter((d) => d.sources.some((s) => s.type === sourceType && s.inspectedBy === inspectionType)).map((d) => d.type);
