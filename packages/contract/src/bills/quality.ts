import { z } from 'zod';
import { HEADER, quantitySchema, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillTypeDecl, type SourceDecl } from './registry.ts';
import { PRODUCTION_LINES } from './production.ts';
import { OUTSOURCING_LINES } from './outsourcing.ts';
import { INSPECTION_KIND_LABELS, readingsSchema, Verdict, VERDICT_LABELS, type InspectionKind } from '../quality.ts';

/**
 * The inspection reports (质量管理 / Quality, docs/quality.md): six bill types, one mechanism. Each is pushed down
 * from the lines it inspects — the goods a purchase order brings, a sale's goods before they leave, a production
 * order's steps and products, a process report's good pieces — and records per line the lot inspected, the
 * sample, each item's reading (against the template that applies to the material: the quality module finds it
 * and refuses a line without one, `InspectionTemplateMissing`), the verdict those readings give, and how much of
 * the lot is accepted, rejected or taken on concession. Inspecting takes nothing of what the source may pass on
 * (`apart`); partial and staged inspections of one line add up to at most the line (progress `inspection`).
 *
 * Where the template says the goods wait for it (`gates`), the bill after the inspection takes at most the
 * accepted and concession quantities of the audited inspections of its source line — declared on that bill's
 * source as `inspectedBy` (the engine's rule, every type that declares it).
 */

/** The template an inspection line follows (found by the server from the material, the category and the process). */
const template: FieldDecl = { key: 'templateId', label: { zh: '检验方案', en: 'Template' }, kind: 'record', ref: 'inspectionTemplate', schema: z.number().int().positive(), readOnly: true, width: 160 };
const quantity = (key: string, zh: string, en: string): FieldDecl => ({ key, label: { zh, en }, kind: 'quantity', schema: quantitySchema, width: 100 });
const processStep: FieldDecl = { key: 'processId', label: { zh: '工序', en: 'Process' }, kind: 'record', ref: 'process', schema: z.number().int().positive(), width: 130 };

/** The line fields of every inspection: the lot is the line's quantity. */
export const INSPECTION_LINE_FIELDS = {
  sampleNumber: quantity('sampleNumber', '抽样数', 'Sampled'),
  acceptedNumber: quantity('acceptedNumber', '合格数', 'Accepted'),
  rejectedNumber: quantity('rejectedNumber', '不合格数', 'Rejected'),
  concessionNumber: quantity('concessionNumber', '让步接收数', 'Concession'),
  readings: { key: 'readings', label: { zh: '检验记录', en: 'Readings' }, kind: 'readings', schema: readingsSchema, width: 130 } satisfies FieldDecl,
  verdict: {
    key: 'verdict',
    label: { zh: '检验结果', en: 'Verdict' },
    kind: 'enum',
    schema: z.enum(Verdict),
    options: Verdict.map((value) => ({ value, label: VERDICT_LABELS[value] })),
    readOnly: true,
    width: 90,
  } satisfies FieldDecl,
} as const;

const inspector: FieldDecl = { ...HEADER.handlerId, label: { zh: '检验员', en: 'Inspector' } };
const workshop: FieldDecl = { ...HEADER.deptId, label: { zh: '生产车间', en: 'Workshop' }, list: true };

interface InspectionSpec {
  kind: InspectionKind;
  type: string;
  route: string;
  codePrefix: string;
  icon: string;
  header: readonly FieldDecl[];
  /** A process step on the line (process, first-article, patrol). */
  process?: boolean;
  /** Its accepted goods are packed into boxes (finished products, shipments). */
  packs?: true;
  sources: ReadonlyArray<Pick<SourceDecl, 'type' | 'header' | 'lines' | 'fromLines' | 'closedRefusal'>>;
}

function inspectionType(spec: InspectionSpec): BillTypeDecl {
  const f = INSPECTION_LINE_FIELDS;
  return {
    type: spec.type,
    label: INSPECTION_KIND_LABELS[spec.kind],
    area: 'quality',
    route: spec.route,
    codePrefix: spec.codePrefix,
    icon: spec.icon,
    inspection: spec.kind,
    ...(spec.packs ? { packs: true as const } : {}),
    // The date it is due by: the early warning lists it from its warning days before until it is audited.
    header: [...spec.header, inspector, { ...HEADER.deliveryDate, label: { zh: '检验期限', en: 'Inspect by' } }, { ...HEADER.deliveryWarnDays, label: { zh: '提前预警天数', en: 'Warn days before' } }],
    dueUntilAudited: true,
    lines: [...(spec.process ? [processStep] : []), template, f.sampleNumber, f.readings, f.verdict, f.acceptedNumber, f.rejectedNumber, f.concessionNumber],
    sources: spec.sources.map((s) => ({ ...s, drives: 'inspection', apart: true })),
    sourceRequired: true,
    stock: 'none',
    postings: POSTS_NOTHING,
    progress: [],
    switches: [],
    actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'],
  };
}

const PRODUCTS = { type: 'ProductionOrder', fromLines: PRODUCTION_LINES.products, closedRefusal: 'ProductionOrderCompleted', header: ['deptId'], lines: [] } as const;
const STEPS = { type: 'ProductionOrder', fromLines: PRODUCTION_LINES.processes, closedRefusal: 'ProductionOrderCompleted', header: ['deptId'], lines: ['processId'] } as const;

export const IncomingInspection = inspectionType({
  kind: 'Incoming',
  type: 'IncomingInspection',
  route: 'incoming',
  codePrefix: 'LLJY',
  icon: 'SecurityScanOutlined',
  header: [{ ...HEADER.supplierId, required: undefined }],
  sources: [
    { type: 'PurchaseOrder', header: ['supplierId'], lines: [] },
    // What a supplier made for us: the outsourcing order's product line.
    { type: 'OutsourcingOrder', fromLines: OUTSOURCING_LINES.products, header: ['supplierId'], lines: [] },
  ],
});

export const ShipmentInspection = inspectionType({
  kind: 'Shipment',
  type: 'ShipmentInspection',
  route: 'shipment',
  codePrefix: 'CHJY',
  icon: 'CarOutlined',
  header: [{ ...HEADER.customerId, required: undefined }],
  packs: true,
  sources: [
    { type: 'SaleOrder', header: ['customerId'], lines: [] },
    { type: 'SaleShip', header: ['customerId'], lines: [] },
  ],
});

export const FirstArticleInspection = inspectionType({ kind: 'FirstArticle', type: 'FirstArticleInspection', route: 'firstArticle', codePrefix: 'SJJY', icon: 'ExperimentOutlined', header: [workshop], process: true, sources: [STEPS] });
export const PatrolInspection = inspectionType({ kind: 'Patrol', type: 'PatrolInspection', route: 'patrol', codePrefix: 'XJJY', icon: 'ScanOutlined', header: [workshop], process: true, sources: [STEPS] });
export const ProcessInspection = inspectionType({
  kind: 'Process',
  type: 'ProcessInspection',
  route: 'process',
  codePrefix: 'GXJY',
  icon: 'NodeIndexOutlined',
  header: [workshop],
  process: true,
  sources: [{ type: 'ProcessReport', header: ['deptId'], lines: ['processId'] }],
});
export const FinishedInspection = inspectionType({ kind: 'Finished', type: 'FinishedInspection', route: 'finished', codePrefix: 'CPJY', icon: 'SafetyCertificateOutlined', header: [workshop], packs: true, sources: [PRODUCTS] });

export const QUALITY_BILLS: readonly BillTypeDecl[] = [IncomingInspection, ShipmentInspection, FirstArticleInspection, PatrolInspection, ProcessInspection, FinishedInspection];
