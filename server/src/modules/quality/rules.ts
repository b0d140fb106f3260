import { sql } from 'drizzle-orm';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { microNumber, toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { BillPayload, BillTypeDecl } from '@p8/contract/bills/registry';
import { sampleSize, unreadBlockingItems, verdictOf, type ApplicableTemplate, type Reading } from '@p8/contract/quality';
import type { AbandonAuditBlockers } from '../../core/abandon-audit-blockers.ts';
import { refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { packingComplete } from './boxes.ts';
import { applicableTemplates, gatedMaterials, inspectedBySource, takenByPurpose, waitingTypes } from '../../bills/inspection.ts';
import type { BillRules } from '../../bills/rules.ts';

/*
 * The inspection reports' own rules (docs/quality.md), one set for every type declaring `inspection`:
 * - each line follows the template that applies to its material (and process): none, `InspectionTemplateMissing`;
 *   its readings name the template's items; the verdict is the readings' (a blocking item failed: Fail);
 * - the lot is split into accepted + rejected + concession (left out: all accepted when it passes, all rejected
 *   when it fails); a failed lot accepts nothing (it may be taken on concession); the sample is the template's
 *   sampling of the lot unless given, never more than the lot;
 * - submitted and audited only once every blocking item of every line is read;
 * - an audited inspection keeps its audit while later bills hold what it accepted.
 */

type Line = BillPayload['lines'][number];
const quantity = (value: unknown): Micro => toMicro(String(value ?? 0) || '0');

/** The template of each line's material, by the line's process (0: none) — one lookup per process the lines name. */
async function templatesByProcess(ctx: ServiceContext, decl: BillTypeDecl, lines: ReadonlyArray<{ materialId: number; processId: number }>): Promise<Map<number, Map<number, ApplicableTemplate>>> {
  const byProcess = new Map<number, Map<number, ApplicableTemplate>>();
  for (const processId of new Set(lines.map((l) => l.processId))) {
    const materials = lines.filter((l) => l.processId === processId).map((l) => l.materialId);
    byProcess.set(processId, await applicableTemplates(ctx.tx, ctx.tenantId, decl.inspection!, materials, processId || null));
  }
  return byProcess;
}

async function inspectionLines(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']> {
  const byProcess = await templatesByProcess(ctx, decl, payload.lines.map((l) => ({ materialId: Number(l.materialId), processId: Number(l.processId ?? 0) })));
  return payload.lines.map((line: Line, index) => {
    const at = { line: index + 1 };
    const template = byProcess.get(Number(line.processId ?? 0))?.get(Number(line.materialId));
    if (!template) throw refusal('InspectionTemplateMissing', { materialId: Number(line.materialId) }, at);
    const readings = (line.readings as Reading[] | null | undefined) ?? [];
    if (readings.some((r) => !template.items.some((i) => i.item === r.item))) throw refusal('InspectionItemNotInTemplate', {}, at);
    const verdict = verdictOf(template.items, readings);
    const lot = quantity(line.number);
    const given = [line.acceptedNumber, line.rejectedNumber, line.concessionNumber].some((v) => v !== undefined && v !== null);
    const split = given
      ? { acceptedNumber: line.acceptedNumber ?? 0, rejectedNumber: line.rejectedNumber ?? 0, concessionNumber: line.concessionNumber ?? 0 }
      : { acceptedNumber: verdict === 'Pass' ? line.number : 0, rejectedNumber: verdict === 'Pass' ? 0 : line.number, concessionNumber: 0 };
    const total = quantity(split.acceptedNumber) + quantity(split.rejectedNumber) + quantity(split.concessionNumber);
    if (total !== lot) throw refusal('InspectionQuantitiesMismatch', {}, { ...at, need: lot, have: total });
    if (verdict === 'Fail' && quantity(split.acceptedNumber) > 0n) throw refusal('InspectionFailedNoAccepted', {}, at);
    const sample = line.sampleNumber ?? sampleSize(template.sampling, template.sampleValue, Number(line.number ?? 0));
    if (quantity(sample) > lot) throw refusal('InspectionSampleExceeds', {}, { ...at, need: quantity(sample), have: lot });
    return { ...line, ...split, sampleNumber: microNumber(quantity(sample)), readings, verdict, templateId: template.id };
  });
}

/** Submit and audit: every blocking item of every line has its reading. */
async function blockingItemsRead(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>): Promise<void> {
  const lines = await rows<{ line_no: number; material_id: string; process_id: string | null; readings: Reading[] | null }>(
    ctx.tx,
    sql`select line_no, material_id, extra ->> 'processId' as process_id, extra -> 'readings' as readings from bill_line
        where tenant_id = ${ctx.tenantId} and bill_id = ${Number(header.id)} order by line_no`,
  );
  const byProcess = await templatesByProcess(ctx, decl, lines.map((l) => ({ materialId: Number(l.material_id), processId: Number(l.process_id ?? 0) })));
  for (const line of lines) {
    const template = byProcess.get(Number(line.process_id ?? 0))?.get(Number(line.material_id));
    if (!template) throw refusal('InspectionTemplateMissing', { materialId: Number(line.material_id) }, { line: line.line_no });
    if (unreadBlockingItems(template.items, line.readings ?? []).length) throw refusal('InspectionReadingMissing', { materialId: Number(line.material_id) }, { line: line.line_no });
  }
}

/**
 * Whether withdrawing inspection `billId`'s audit would leave a bill that waits for it holding more of a gated
 * line than the other audited inspections accepted (or rejected, into a reject warehouse).
 */
async function relied(tx: Tx, tenantId: number, decl: BillTypeDecl, billId: number): Promise<boolean> {
  const lines = await rows<{ source_line_id: string; material_id: string; source_type: string }>(
    tx,
    sql`select distinct l.source_line_id, l.material_id, s.bill_type as source_type from bill_line l
        join bill s on s.tenant_id = l.tenant_id and s.id = l.source_bill_id
        where l.tenant_id = ${tenantId} and l.bill_id = ${billId} and l.source_line_id is not null`,
  );
  const gated = await gatedMaterials(tx, tenantId, decl.inspection!, lines.map((l) => Number(l.material_id)));
  const waiting = lines.filter((l) => gated.has(Number(l.material_id)));
  if (!waiting.length) return false;
  const remaining = await inspectedBySource(tx, tenantId, decl.type, waiting.map((l) => Number(l.source_line_id)), billId);
  for (const sourceType of new Set(waiting.map((l) => l.source_type))) {
    const ids = waiting.filter((l) => l.source_type === sourceType).map((l) => Number(l.source_line_id));
    const taken = await takenByPurpose(tx, tenantId, waitingTypes(decl.type, sourceType), ids);
    const left = (id: number) => remaining.get(id) ?? { accepted: 0n, rejected: 0n };
    if (ids.some((id) => (taken.get(id)?.good ?? 0n) > left(id).accepted || (taken.get(id)?.rejects ?? 0n) > left(id).rejected)) return true;
  }
  return false;
}

const INSPECTION_TYPES = BILL_TYPES.filter((decl) => decl.inspection);

export function registerQualityRules(rules: BillRules): void {
  for (const decl of INSPECTION_TYPES) {
    rules.register(decl.type, {
      completeLines: inspectionLines,
      async completing(ctx, decl, header) {
        await blockingItemsRead(ctx, decl, header);
        if (decl.packs) await packingComplete(ctx, Number(header.id));
      },
    });
  }
}

export function registerQualityBlockers(blockers: AbandonAuditBlockers): void {
  blockers.register('quality: accepted goods taken', async (tx, tenantId, billId) => {
    const [row] = await rows<{ bill_type: string }>(tx, sql`select bill_type from bill where tenant_id = ${tenantId} and id = ${billId}`);
    const decl = row && billType(row.bill_type);
    if (!decl?.inspection) return undefined;
    return (await relied(tx, tenantId, decl, billId)) ? 'InspectionReliedProhibitAbandonAudit' : undefined;
  });
}
