import { z } from 'zod';
import type { Label } from './bills/status.ts';

/*
 * Quality (质量管理, docs/quality.md): the kinds of inspection, how a template samples and judges, and the rules
 * the server and the web form share — the sample size a template asks of a lot, and how a line's readings
 * decide its verdict.
 */

/**
 * The six inspections, one bill type each, all on one mechanism: incoming (来料: goods a purchase or an
 * outsourcing order brings, before they are taken into stock), shipment (出货: before a sale's goods leave),
 * first-article (首件) and patrol (巡检) on a production order's product while it is made, process (工序: a
 * process report's good pieces), finished product (成品: before the completion in-stock).
 */
export const InspectionKind = ['Incoming', 'Shipment', 'FirstArticle', 'Patrol', 'Process', 'Finished'] as const;
export type InspectionKind = (typeof InspectionKind)[number];
export const INSPECTION_KIND_LABELS: Record<InspectionKind, Label> = {
  Incoming: { zh: '来料检验', en: 'Incoming inspection' },
  Shipment: { zh: '出货检验', en: 'Shipment inspection' },
  FirstArticle: { zh: '首件检验', en: 'First-article inspection' },
  Patrol: { zh: '巡检', en: 'Patrol inspection' },
  Process: { zh: '工序检验', en: 'Process inspection' },
  Finished: { zh: '成品检验', en: 'Finished-product inspection' },
};

/** How many pieces of a lot are inspected: all, a fixed number, or a percentage (rounded up). */
export const Sampling = ['All', 'Fixed', 'Percent'] as const;
export type Sampling = (typeof Sampling)[number];
export const SAMPLING_LABELS: Record<Sampling, Label> = {
  All: { zh: '全检', en: 'All pieces' },
  Fixed: { zh: '固定数量', en: 'Fixed number' },
  Percent: { zh: '按比例', en: 'Percentage' },
};

/** How an item is judged: a reading within its tolerance (min…max), or pass / fail by the inspector. */
export const ItemValueKind = ['Numeric', 'PassFail'] as const;
export type ItemValueKind = (typeof ItemValueKind)[number];
export const ITEM_VALUE_KIND_LABELS: Record<ItemValueKind, Label> = {
  Numeric: { zh: '数值(上下限)', en: 'Reading within limits' },
  PassFail: { zh: '合格/不合格', en: 'Pass / fail' },
};

/** A line's verdict: the lot passes, or a blocking item failed (then none of it is accepted; it may be taken on concession). */
export const Verdict = ['Pass', 'Fail'] as const;
export type Verdict = (typeof Verdict)[number];
export const VERDICT_LABELS: Record<Verdict, Label> = {
  Pass: { zh: '合格', en: 'Pass' },
  Fail: { zh: '不合格', en: 'Fail' },
};

/** An item of a template as the rules read it (its line of the template, 1-based, is `item`). */
export interface InspectionItem {
  item: number;
  name: string;
  method?: string | null;
  valueKind: ItemValueKind;
  standard?: number | null;
  lower?: number | null;
  upper?: number | null;
  blocks: boolean;
}

/** An item's reading on a report line: a number for a numeric item, passed or not for a pass / fail one. */
export const readingSchema = z.object({
  item: z.number().int().min(1).max(100),
  value: z.number().finite({ message: 'InspectionItemValueOutOfRange' }).min(-1e9, { message: 'InspectionItemValueOutOfRange' }).max(1e9, { message: 'InspectionItemValueOutOfRange' }).nullish(),
  passed: z.boolean().nullish(),
});
export type Reading = z.infer<typeof readingSchema>;
export const readingsSchema = z.array(readingSchema).max(100);

/** Whether a reading meets its item; undefined while it has no reading. */
export function readingPasses(item: InspectionItem, reading: Reading | undefined): boolean | undefined {
  if (!reading) return undefined;
  if (item.valueKind === 'PassFail') return reading.passed ?? undefined;
  if (reading.value === null || reading.value === undefined) return undefined;
  return (item.lower === null || item.lower === undefined || reading.value >= item.lower) && (item.upper === null || item.upper === undefined || reading.value <= item.upper);
}

/**
 * A line's verdict by its readings: Fail when a blocking item's reading fails it; Pass otherwise (an item not
 * read yet decides nothing — submitting asks every blocking item to be read). A failed non-blocking item is
 * recorded and shown, and does not fail the lot.
 */
export function verdictOf(items: readonly InspectionItem[], readings: readonly Reading[]): Verdict {
  const byItem = new Map(readings.map((r) => [r.item, r]));
  return items.some((item) => item.blocks && readingPasses(item, byItem.get(item.item)) === false) ? 'Fail' : 'Pass';
}

/** The blocking items a line has not read yet (submit refuses while there are any). */
export function unreadBlockingItems(items: readonly InspectionItem[], readings: readonly Reading[]): InspectionItem[] {
  const byItem = new Map(readings.map((r) => [r.item, r]));
  return items.filter((item) => item.blocks && readingPasses(item, byItem.get(item.item)) === undefined);
}

/** How many pieces a template samples of a lot of `lot` pieces: never more than the lot. */
export function sampleSize(sampling: Sampling, value: number | null | undefined, lot: number): number {
  if (sampling === 'Fixed') return Math.min(lot, Math.max(0, value ?? 0));
  if (sampling === 'Percent') return Math.min(lot, Math.ceil((lot * Math.max(0, value ?? 0)) / 100 - 1e-9));
  return lot;
}

/** GET /api/admin/quality/template/applicable: the template an inspection of a kind takes for a material (and process). */
export const applicableTemplateQuerySchema = z.object({
  inspectionKind: z.enum(InspectionKind),
  materialId: z.coerce.number().int().positive(),
  processId: z.coerce.number().int().positive().optional(),
});
export interface ApplicableTemplate {
  id: number;
  code: string;
  name: string;
  sampling: Sampling;
  sampleValue: number | null;
  gates: boolean;
  items: InspectionItem[];
}

/** What the pass-rate report groups audited inspection lines by. */
export const PassRateBy = ['supplier', 'material', 'process'] as const;
export type PassRateBy = (typeof PassRateBy)[number];
export const PASS_RATE_BY_LABELS: Record<PassRateBy, Label> = {
  supplier: { zh: '按供应商', en: 'By supplier' },
  material: { zh: '按物料', en: 'By material' },
  process: { zh: '按工序', en: 'By process' },
};

/**
 * GET /api/admin/quality/passRate: audited inspections of a period (bill dates `from`…`to`), grouped — by supplier
 * (incoming inspections), by material (all), by process (first-article, patrol and process inspections).
 */
export const passRateQuerySchema = z.object({
  by: z.enum(PassRateBy).default('supplier'),
  /** The period's first and last bill dates; left out, the 30 days to today. */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'DateOutOfRange' }).optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'DateOutOfRange' }).optional(),
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
});
export type PassRateQuery = z.infer<typeof passRateQuerySchema>;

/** One group's quantities (main units, decimal text) and its pass rate: (accepted + concession) ÷ inspected, in %. */
export interface PassRateRow {
  id: number;
  name: string;
  lines: number;
  inspected: string;
  accepted: string;
  concession: string;
  rejected: string;
  passRate: string;
}

/** The inspections whose rejects are goods to dispose of: into a reject warehouse, back to the supplier, or closed. */
export const DISPOSED_KINDS = ['Incoming', 'Shipment', 'Finished'] as const satisfies readonly InspectionKind[];

/**
 * GET /api/admin/quality/openRejects: what audited inspections rejected of source lines that are still open (their
 * bill neither complete nor completed by hand, the line not closed), less what bills waiting for those
 * inspections took into reject warehouses — the rejects nobody has dealt with yet, oldest first.
 */
export const openRejectsQuerySchema = z.object({
  inspectionKind: z.enum(DISPOSED_KINDS).optional(),
  materialId: z.coerce.number().int().positive().optional(),
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
});
export type OpenRejectsQuery = z.infer<typeof openRejectsQuerySchema>;

/** One source line's rejects (main units, decimal text). */
export interface OpenRejectRow {
  /** The inspected source line. */
  id: number;
  inspectionKind: InspectionKind;
  /** The audited inspections that rejected goods of the line, by code. */
  inspections: string;
  /** The last of their dates. */
  lastDate: string;
  sourceBillId: number;
  sourceBillType: string;
  sourceBillCode: string;
  /** The supplier or customer of the source bill, if it has one. */
  partnerName: string | null;
  materialId: number;
  materialCode: string;
  materialName: string;
  rejected: string;
  /** Taken into reject warehouses by audited bills. */
  intoRejects: string;
  open: string;
}

/** POST …/<inspection>/box: pack `quantity` of an inspection line (its line number) into a box, with its serials. */
export const boxCreateSchema = z.object({
  billId: z.number().int().positive(),
  lineNo: z.number().int().positive(),
  /** Left out: the inspection's code and the box's number (CPJY…-3). */
  code: z.string().trim().min(1).max(60).optional(),
  quantity: z.number({ error: 'PackageQuantityInvalid' }).positive({ message: 'PackageQuantityInvalid' }).max(1e12),
  serialNumbers: z.array(z.string().trim().min(1).max(100)).max(10_000).default([]),
});
export type BoxCreate = z.infer<typeof boxCreateSchema>;

export const boxListQuerySchema = z.object({ billId: z.coerce.number().int().positive() });

/** A box of an inspection (quantity in the line's unit, decimal text). */
export interface InspectionBox {
  id: number;
  code: string;
  billId: number;
  lineNo: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  quantity: string;
  serialNumbers: string[];
  createdAt: string;
}
