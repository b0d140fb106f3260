/**
 * The values a refusal carries. A catalogued error that is about a bill line, a material, a warehouse or
 * storage location, a fund account, a partner or a quantity / amount names them in the envelope's `details`
 * — names and codes, never ids, and figures as exact decimal text — and the client writes them after the
 * catalogue's text in the user's language, the figures rounded to the tenant's decimal places like the
 * lists show them (web/src/app/refusal-text.ts). Every key that carries values declares here which ones it
 * always has (`refusalShapes`); a test walks the catalogue and the server's raising sites against it.
 */
import type { ErrorKey } from './errors.ts';
import type { CatalogueText } from './errors-first.ts';

export interface RefusalDetails {
  /** The bill line, numbered from 1 as the bill shows it. */
  line?: number;
  /** A bill's code (the bill the refusal is about, e.g. the one settled). */
  bill?: string;
  material?: { code: string; name: string };
  warehouse?: string;
  location?: string;
  batch?: string;
  /** A fund account's name. */
  account?: string;
  /** A supplier's or customer's name. */
  partner?: string;
  /** A shop product (and its spec values). */
  product?: string;
  /** What was asked for, as decimal text. */
  need?: string;
  /** What there is (on hand, open, left in the balance), as decimal text. */
  have?: string;
  /** Which decimal places `need` and `have` show with: the tenant's quantity or amount places, or none (a count). */
  measure?: RefusalMeasure;
}

export type RefusalMeasure = 'number' | 'amount' | 'count';

export type RefusalField = Exclude<keyof RefusalDetails, 'measure'>;

/** The fields a refusal lists, in the order it lists them. */
export const REFUSAL_FIELDS: readonly RefusalField[] = ['line', 'bill', 'partner', 'account', 'material', 'product', 'warehouse', 'location', 'batch', 'need', 'have'];

export interface RefusalShape {
  /** What every refusal of the key names. */
  fields: readonly RefusalField[];
  /** Which decimal places its figures take. */
  measure?: RefusalMeasure;
}

const stock: RefusalShape = { fields: ['line', 'material', 'warehouse', 'need', 'have'], measure: 'number' };
const settled: RefusalShape = { fields: ['bill', 'partner', 'need', 'have'], measure: 'amount' };
const balance: RefusalShape = { fields: ['partner', 'need', 'have'], measure: 'amount' };

/** Every catalogued error that carries values, with the values it carries. */
export const refusalShapes = {
  InsufficientInventory: stock,
  BatchNumberInsufficientInventory: { fields: [...stock.fields, 'batch'], measure: 'number' },
  NumberExceedSourceBill: { fields: ['line', 'material', 'bill', 'need', 'have'], measure: 'number' },
  // A process report beyond what the order's previous step passed.
  NumberExceedReportable: { fields: ['line', 'material', 'need', 'have'], measure: 'number' },
  // A bill after an inspection beyond what audited inspections accepted of its source line.
  NumberExceedInspected: { fields: ['line', 'material', 'need', 'have'], measure: 'number' },
  NumberExceedRejected: { fields: ['line', 'material', 'need', 'have'], measure: 'number' },
  PackageExceedsAccepted: { fields: ['line', 'need', 'have'], measure: 'number' },
  PackageResultIncomplete: { fields: ['line', 'need', 'have'], measure: 'number' },
  InspectionReportNotAudit: { fields: ['line', 'material'] },
  InspectionSampleExceeds: { fields: ['line', 'need', 'have'], measure: 'number' },
  InspectionQuantitiesMismatch: { fields: ['line', 'need', 'have'], measure: 'number' },
  InspectionTemplateMissing: { fields: ['line', 'material'] },
  // What an outsourcing order's supplier holds of a material is less than a receipt consumes or a return takes back.
  OutsourcingMaterialShort: { fields: ['bill', 'material', 'need', 'have'], measure: 'number' },
  AccountBalanceInsufficient: { fields: ['account', 'need', 'have'], measure: 'amount' },
  PayAmountExceedUnpaid: settled,
  ReceiptAmountExceedUnreceived: settled,
  SettlementAmountExceedUnsettled: settled,
  DeductionAmountExceedUnsettled: settled,
  InvoiceAmountExceedUninvoiced: { fields: ['line', 'bill', 'need', 'have'], measure: 'amount' },
  PrepaidAmountExceedBalance: balance,
  AdvanceAmountExceedBalance: balance,
  BillAllSettled: { fields: ['bill'] },
  MallStockInsufficient: { fields: ['product', 'need', 'have'], measure: 'count' },
  MallRefundAmountExceed: { fields: ['need', 'have'], measure: 'amount' },
  MallDiscountExceed: { fields: ['need', 'have'], measure: 'amount' },
} as const satisfies Partial<Record<ErrorKey, RefusalShape>>;

export type RefusalKey = keyof typeof refusalShapes;

export function isRefusalKey(key: string): key is RefusalKey {
  return Object.prototype.hasOwnProperty.call(refusalShapes, key);
}

/**
 * Catalogue keys whose text reads like a comparison ("insufficient", "cannot exceed") but that carry no
 * values, with why: the walker (refusals.test.ts) holds every other such key to a declared shape.
 */
export const VALUE_FREE_REFUSALS: Partial<Record<ErrorKey, string>> = {
  LocationInsufficientInventory: 'not raised: a location shortage is InsufficientInventory naming the location',
  NumberExceedClaimable: 'not raised: push-down takes are NumberExceedSourceBill',
  NumberExceedInspectable: 'not raised: push-down takes are NumberExceedSourceBill',
  NumberExceedInstock: 'not raised: push-down takes are NumberExceedSourceBill',
  NumberExceedOutstock: 'not raised: push-down takes are NumberExceedSourceBill',
  NumberExceedRefundable: 'not raised: push-down takes are NumberExceedSourceBill',
  DiscountAmountExceedTotal: 'not raised',
  PictureSearchCountInsufficient: 'names the indexed and the required count of pictures in additional',
  ReplacementTimeLimitExceeded: 'a time limit, no figure of the user',
  ReplacementMonthlyCountExceeded: 'a count of the month, no figure of the user',
  UploadSizeExceeded: 'names the limit itself (e.g. 10MB) in additional',
  UploadCountExceeded: 'names the limit itself in additional',
  UploadImageCountExceeded: 'names the limit itself in additional',
  ImportRowLimitExceeded: 'names the limit itself in additional',
  ImportUnpackedSizeExceeded: 'names the limit itself in additional',
  BillDateTooFarAhead: 'names the latest date allowed in additional',
  DashboardRangeTooLong: 'names the limit itself in additional',
};

/** The words a refusal's values are written with, in both languages. */
export const refusalLabels = {
  line: { zh: '第 {value} 行', en: 'line {value}' },
  bill: { zh: '单据 {value}', en: 'bill {value}' },
  partner: { zh: '往来单位 {value}', en: 'partner {value}' },
  account: { zh: '账户 {value}', en: 'account {value}' },
  material: { zh: '物料 {value}', en: 'material {value}' },
  product: { zh: '商品 {value}', en: 'product {value}' },
  warehouse: { zh: '仓库 {value}', en: 'warehouse {value}' },
  location: { zh: '库位 {value}', en: 'location {value}' },
  batch: { zh: '批次 {value}', en: 'batch {value}' },
  need: { zh: '本次 {value}', en: 'asked {value}' },
  have: { zh: '可用 {value}', en: 'available {value}' },
} as const satisfies Record<RefusalField, CatalogueText>;
