import { z } from 'zod';
import { idSchema, MAX_BATCH_IDS } from '../common.ts';
import { storableText } from '../text.ts';
import { dateSchema, quantitySchema } from './fields.ts';
import type { BillOperation, BillStatus, DeliveryOperation, DeliveryStatus, ProgressKind, ProgressState } from './status.ts';

/**
 * Requests and answers of the bill routes that every type shares (`/api/admin/<area>/<route>/...`); the
 * save payloads are per type (`billCreateSchema` in registry.ts).
 */

/** POST …/submit, …/audit, …/abandonAudit, …/manualCompletion: one bill. */
export const billIdSchema = z.object({ id: idSchema });
export type BillId = z.infer<typeof billIdSchema>;

/** POST …/refuse: the reason is required and shown on the timeline. */
export const billRefuseSchema = z.object({
  id: idSchema,
  reason: storableText({ error: 'PleaseInputRejectReason' }).trim().min(1, { message: 'PleaseInputRejectReason' }).max(500),
});
export type BillRefuse = z.infer<typeof billRefuseSchema>;

/** POST …/merge: at least two compatible drafts, folded into a new draft. */
export const billMergeSchema = z.object({
  ids: z.array(idSchema).min(2, { message: 'MergeBillAtLeastTwo' }).max(MAX_BATCH_IDS),
});
export type BillMerge = z.infer<typeof billMergeSchema>;

/**
 * POST {target path}/pushDown: a new draft of the target type from open lines of audited source bills of
 * one source type; each line takes its open quantity, which the user may lower before submitting.
 */
/**
 * POST {target path}/pushDown: open lines of audited source bills into a new draft. For a type whose lines
 * are settlement lines (a payment, a receipt) `sourceLineIds` name the source *bills*: each becomes a line
 * settling what is open of it.
 */
export const billPushDownSchema = z.object({
  sourceType: storableText().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/),
  sourceLineIds: z.array(idSchema, { error: 'PleaseSelectItem' }).min(1, { message: 'PleaseSelectItem' }).max(5000),
  /**
   * The quantity a line takes, in the source line's unit, where the user changed it in the push-down dialog
   * (default: its open quantity). Beyond the open quantity only with the source's `beyondSwitch` on.
   */
  numbers: z
    .array(z.object({ sourceLineId: idSchema, number: quantitySchema.positive({ message: 'NumberMustGreaterThanZero' }) }))
    .max(5000)
    .optional(),
});
export type BillPushDown = z.infer<typeof billPushDownSchema>;

/** GET {target path}/sources: open lines of audited bills of `sourceType` (default: the type's first source), for the push-down picker. */
export const billSourcesQuerySchema = z.object({
  sourceType: storableText().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/).optional(),
  /** Matches the source bill's code or the material's code or name. */
  keyword: storableText().trim().max(100).optional(),
  /** Open lines of one partner only (the supplier or customer of the bill being made). */
  partnerId: z.coerce.number().int().positive().optional(),
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type BillSourcesQuery = z.infer<typeof billSourcesQuerySchema>;

/**
 * One open bill of the push-down picker of a type with settlement lines: its amount (signed, refunds
 * negative), what downstream settlement lines took of it (any status) and what is open. Decimal strings.
 * `sourceLineId` repeats the bill's id (the picker's row key and what push down takes).
 */
export interface BillSourceBill {
  sourceBillId: number;
  sourceBillCode: string;
  sourceBillDate: string;
  sourceBillType: string;
  partnerName: string | null;
  sourceLineId: number;
  amount: string;
  takenAmount: string;
  openAmount: string;
}

/** A source line's material and unit, as the push-down picker and the shop floor's step list show them. */
export interface SourceLineMaterial {
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  unitId: number | null;
  unitName: string | null;
}

/** One open source line of the push-down picker. Quantities are decimal strings. */
export interface BillSourceLine extends SourceLineMaterial {
  sourceBillId: number;
  sourceBillCode: string;
  sourceBillDate: string;
  partnerName: string | null;
  sourceLineId: number;
  number: string;
  /** Taken by downstream bills of this kind (any status). */
  takenNumber: string;
  openNumber: string;
}

/** A bill as GET {path}/:id answers it. Quantities and amounts are numbers (rounded to 6 places). */
export interface BillView {
  id: number;
  billType: string;
  billCode: string;
  billDate: string;
  billStatus: BillStatus;
  /** Header fields of the type, by key (the common ones and the type's own). */
  [field: string]: unknown;
  createdBy: number;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
  auditBy: number | null;
  auditName: string | null;
  auditTime: string | null;
  rejectReason: string | null;
  /** Progress sets of the type (header level), e.g. { instock: 'PartialInStock' }. */
  progress: Partial<Record<ProgressKind, ProgressState>>;
  lines: BillLineView[];
}

export interface BillLineView {
  id: number;
  lineNo: number;
  [field: string]: unknown;
  materialCode: string;
  materialName: string;
  specification: string;
  unitName: string | null;
  sourceLineId: number | null;
  sourceBillId: number | null;
  sourceBillCode: string | null;
  sourceBillType: string | null;
  /** Quantities in the line's unit done (audited) and taken (any status) by downstream bills, per progress kind. */
  progress: Partial<Record<ProgressKind, { done: number; taken: number; state: ProgressState }>>;
}

/**
 * POST {path}/audit answers the bill's status after the approval. Under joint review (AllVerify) a
 * reviewer's approval may leave it in UnAudit: then `message` is the catalogued "wait for others" key and
 * `waitingFor` names the reviewers still to approve, in order.
 */
export interface BillAuditAnswer {
  billStatus: BillStatus;
  message?: 'WaitOthersVerify';
  waitingFor: string[];
}

/** One step of a bill's timeline (GET {path}/:id/timeline). */
export interface BillTransitionView {
  id: number;
  /** `deliver` / `arrive`: a delivery step (the bill's status does not change). */
  operation: BillOperation | DeliveryOperation | 'create' | 'update' | 'progress';
  fromStatus: BillStatus | null;
  toStatus: BillStatus;
  reason: string;
  accountId: number | null;
  accountName: string;
  at: string;
}

/**
 * POST /api/admin/stock/verify: balances (quantity per material, warehouse, location, batch, serial) and
 * valuations (`quantity / amount` per material and warehouse) that disagree with the sum of their ledger
 * entries.
 */
export interface StockDifference {
  kind: 'balance' | 'valuation';
  materialId: number;
  warehouseId: number;
  locationId: number | null;
  batchNumber: string;
  serialNumber: string;
  balance: string;
  ledger: string;
}

/** POST …/delivery: a bill with the `delivery` button confirmed as sent (`deliver`) or arrived (`arrive`). */
export const billDeliverySchema = z.object({ id: idSchema, operation: z.enum(['deliver', 'arrive'], { error: 'ParamError' }) });
export type BillDelivery = z.infer<typeof billDeliverySchema>;
export type { DeliveryStatus };

/**
 * GET /api/admin/stock/batches/suggest: the batches an out line should take, earliest expiry first
 * (batches without an expiry last, then by batch number), until `quantity` (main unit) is covered.
 */
export const batchSuggestQuerySchema = z.object({
  materialId: z.coerce.number().int().positive({ message: 'PleaseSelectMaterial' }),
  warehouseId: z.coerce.number().int().positive({ message: 'PleaseSelectWarehouse' }),
  locationId: z.coerce.number().int().positive().optional(),
  quantity: z.coerce.number().finite().positive({ message: 'NumberMustGreaterThanZero' }).max(1e13),
});
export type BatchSuggestQuery = z.infer<typeof batchSuggestQuerySchema>;

export interface BatchSuggestion {
  /** The batches to take, in order, with the quantity to take from each (decimal strings, main unit). */
  picks: Array<{ batchNumber: string; expirationDate: string | null; locationId: number | null; available: string; take: string }>;
  /** What the batches in stock cannot cover ('0' when they can). */
  short: string;
}

/** GET /api/admin/stock/warning: what needs attention soon (earlyWarning in server/src/bills/early-warning.ts). */
export const earlyWarningQuerySchema = z.object({
  /** Leave out for the database's today, the dashboard's day (tests pass a fixed day). */
  today: dateSchema.optional(),
  /** Most entries per list (each list is cut, never paged). */
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type EarlyWarningQuery = z.infer<typeof earlyWarningQuerySchema>;

/**
 * A bill whose delivery, payment or receipt date is within its warning days (or past), or a work order not yet
 * done by its date (`maintenance`: the types that declare `dueUntilAudited`), or an inspection not audited by the
 * date it is due (`inspection`: the types that declare `inspection`).
 */
export interface BillWarning {
  kind: 'delivery' | 'pay' | 'receipt' | 'maintenance' | 'inspection';
  billId: number;
  billType: string;
  billCode: string;
  /** What it concerns: the bill's partner; a maintenance's machine. */
  partnerName: string | null;
  date: string;
  warnDays: number;
  /** Days from today to the date: negative when overdue. */
  daysLeft: number;
}

/** A material whose stock (all warehouses) is below its safety stock. */
export interface LowStockWarning {
  materialId: number;
  materialCode: string;
  materialName: string;
  quantity: string;
  safetyStock: string;
}

/** A batch in stock that expires within its material's warning days (or has expired). */
export interface ExpiryWarning {
  materialId: number;
  materialCode: string;
  materialName: string;
  warehouseId: number;
  batchNumber: string;
  expirationDate: string;
  quantity: string;
  daysLeft: number;
}

export interface EarlyWarning {
  bills: BillWarning[];
  lowStock: LowStockWarning[];
  expiring: ExpiryWarning[];
}
