import { z } from 'zod';
import type { ErrorKey } from '../errors.ts';
import type { TenantConfig } from '../tenant-config.ts';
import { storableText } from '../text.ts';
import { AssemblyType, ASSEMBLY_TYPE_LABELS, ExchangeType, EXCHANGE_TYPE_LABELS, RefundType, REFUND_TYPE_LABELS, type Label } from './status.ts';

/**
 * Bill fields, declared once. A field declaration says everything the engine and the web kit need to
 * know about one header or line field: its key, its zh/en label, what kind of value it is (which decides
 * the web control and the list column), its zod schema in a save payload, whether it is required, and
 * whether lists show, filter, sort or sum it. The server derives its payload schemas and list
 * specifications from these; the web kit derives its form controls, line-grid columns, list columns and
 * search form. A bill type (registry.ts) lists the fields it has.
 *
 * Storage: the engine's tables have typed columns for the common fields (`BILL_HEADER_COLUMNS`,
 * `BILL_LINE_COLUMNS` below); any other field a type declares is kept in the row's `extra` jsonb.
 */

/**
 * The kind of value, which decides the web control:
 * text / textarea / number (plain) / quantity (tenant's number digits) / price and amount (tenant's
 * amount digits) / percent / date / month (`YYYY-MM`) / enum (one of `options`) / record (the id of a record of
 * the kind `ref` names: a supplier, a warehouse, a fund account, a process…) / batch (a batch number text) /
 * serials (a list of serial numbers) / attachments (uploaded file urls) / bill (a bill this line settles,
 * chosen by push down) / readings (an inspection line's reading per item of its template) / richText (HTML
 * written in the rich-text editor) / staffList (several staff ids).
 */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'quantity'
  | 'price'
  | 'amount'
  | 'percent'
  | 'date'
  | 'month'
  | 'enum'
  /** The id of another record: which kind, `ref` says (records/references.ts). */
  | 'record'
  | 'batch'
  | 'serials'
  | 'attachments'
  | 'bill'
  /** An inspection line's readings: one per item of its template (quality's `Reading`). */
  | 'readings'
  /** Rich text (sanitised HTML, the web's rich-text editor): a task's content. */
  | 'richText'
  /** Several staff members by id, chosen in one select: a task's assignees (checked by its type's rules). */
  | 'staffList';

/** The key beside a record field's id that carries the record's name, in answers (`supplierId` → `supplierName`). */
export const nameKey = (key: string) => key.replace(/Id$/, 'Name');

/** The key beside a `staffList` field that carries the staff's names, in answers (`assigneeIds` → `assigneeNames`). */
export const staffListNamesKey = (key: string) => key.replace(/Ids$/, 'Names');

/** How a list filters by the field: exact value, contains-text, one of several ids, or a date range. */
export type FieldSearch = 'eq' | 'contains' | 'in' | 'dateRange';

export interface FieldOption {
  value: string;
  label: Label;
}

export interface FieldDecl {
  key: string;
  label: Label;
  kind: FieldKind;
  /**
   * With kind `record`: the record kind the id names (a key of `RECORD_REFS`, records/references.ts), which
   * decides its picker, the name shown beside it, how an import matches it and what refuses a missing one.
   */
  ref?: string;
  /**
   * With a `ref` that belongs to a parent kind (a location in a warehouse): the field of the same values that
   * names the parent, else the header's field of that key. An id outside that parent is refused as missing.
   */
  within?: string;
  /** The value's schema in a save payload (without `.optional()`: `required` decides). */
  schema: z.ZodType;
  /** Required in a save payload; the key names the catalogue message a missing value answers. */
  required?: ErrorKey;
  /** The values of an `enum` field. */
  options?: readonly FieldOption[];
  /** Computed by the server (amounts, the main-unit quantity…): shown, never sent. */
  readOnly?: boolean;
  /** Shown only when this tenant switch is on (tax rate: openTaxRate). */
  switch?: keyof TenantConfig;
  /**
   * With `switch`: a value sent while the switch is off is refused with this message (a storage location
   * while locations are off: `ShelvesNotOpen`). Without it the bill engine ignores such a value (a tax rate
   * while tax is off counts as none).
   */
  offRefusal?: ErrorKey;
  /** A list column (header fields) — lines show every field. */
  list?: boolean;
  search?: FieldSearch;
  sortable?: boolean;
  /** Summed in the list's statistics row (and the line grid's totals). */
  sum?: boolean;
  /** Column width in px at 1440 px; the kit picks one from the kind when absent. */
  width?: number;
  /** With kind `number`: the decimal places it takes (an exchange rate's six); whole numbers without. */
  precision?: number;
  /** A valid value, for a text field whose values have a shape of their own (a clock time): the form's placeholder and the tests' sample. */
  example?: string;
  /**
   * A header field that applies only for some values of another (an opening balance's customer for a
   * receivable, its supplier for a payable): the form hides it otherwise and does not send it.
   */
  shownWhen?: { field: string; values: readonly string[] };
  /**
   * A line field naming another line of the same bill by its material (a production order's material line names
   * the product it is for): its value is the `materialId` of one of the bill's lines whose field `lines.field` is one
   * of `lines.values`. The grid offers those lines' materials; the engine refuses any other value with `refusal`.
   */
  ofLines?: { lines: { field: string; values: readonly string[] }; refusal: ErrorKey };
}

// ---------------------------------------------------------------- value schemas

const id = z.number().int().positive();
/** Fits numeric(20,6). Each refusal names its catalogue key: the bill form checks a value by the same schema before sending. */
export const quantitySchema = z.number().finite({ message: 'AmountOutOfRange' }).min(0, { message: 'NumberMustNotBeNegative' }).max(1e13, { message: 'AmountOutOfRange' });
const signedQuantity = z.number().finite({ message: 'AmountOutOfRange' }).min(-1e13, { message: 'AmountOutOfRange' }).max(1e13, { message: 'AmountOutOfRange' });
/**
 * A signed amount of money: a number or decimal text ("12.50"), read as exact millionths by the server
 * (never through a float); fits numeric(20,6). Settlement lines of refund bills are negative.
 */
export const moneyAmountSchema = z
  .union([z.number().finite(), storableText().trim().regex(/^-?\d{1,14}(\.\d{1,6})?$/, { message: 'ParamError' })])
  .refine((v) => Math.abs(Number(v)) < 1e14, { message: 'ParamError' });
const percentSchema = z.number().finite({ message: 'PercentOutOfRange' }).min(0, { message: 'PercentOutOfRange' }).max(100, { message: 'PercentOutOfRange' });
const text = (max: number) => storableText().trim().max(max);
/** A bill date or other calendar date, `YYYY-MM-DD` within 1900–9999. */
export const dateSchema = storableText()
  .regex(/^(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: 'DateOutOfRange' })
  .refine(isCalendarDay, { message: 'DateOutOfRange' });

/** Whether `YYYY-MM-DD` names a day of the calendar (not 2026-02-30, which the database refuses). */
export function isCalendarDay(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
const warnDays = z.number().int({ message: 'WarnDaysOutOfRange' }).min(0, { message: 'WarnDaysOutOfRange' }).max(3650, { message: 'WarnDaysOutOfRange' });
/** Serial numbers of one line: distinct, non-empty. */
const serials = z
  .array(storableText().trim().min(1).max(100))
  .max(100_000)
  .refine((list) => new Set(list).size === list.length, { message: 'SerialNumberRepeat' });

const options = <T extends string>(values: readonly T[], labels: Record<T, Label>): FieldOption[] => values.map((value) => ({ value, label: labels[value] }));

// ---------------------------------------------------------------- common header fields

/**
 * Header fields every bill may have (the spec's common bill fields). A bill type picks the ones it has;
 * `billCode`, `billDate`, `billStatus`, `remark` and `attachments` every type has (registry.ts adds them).
 */
export const HEADER = {
  billCode: { key: 'billCode', label: { zh: '单据编号', en: 'Bill code' }, kind: 'text', schema: text(50), list: true, search: 'contains', sortable: true, width: 170 },
  billDate: { key: 'billDate', label: { zh: '单据日期', en: 'Bill date' }, kind: 'date', schema: dateSchema, required: 'PleaseSelectBillDate', list: true, search: 'dateRange', sortable: true, width: 120 },
  supplierId: { key: 'supplierId', label: { zh: '供应商', en: 'Supplier' }, kind: 'record', ref: 'supplier', schema: id, required: 'PleaseSelectSupplier', list: true, search: 'in', width: 180 },
  customerId: { key: 'customerId', label: { zh: '客户', en: 'Customer' }, kind: 'record', ref: 'customer', schema: id, required: 'PleaseSelectCustomer', list: true, search: 'in', width: 180 },
  /** The default warehouse of new lines (each line keeps its own). */
  warehouseId: { key: 'warehouseId', label: { zh: '仓库', en: 'Warehouse' }, kind: 'record', ref: 'warehouse', schema: id, list: true, search: 'in', width: 140 },
  /** Buyer, salesman or keeper: the staff member in charge. */
  handlerId: { key: 'handlerId', label: { zh: '经办人', en: 'Handled by' }, kind: 'record', ref: 'staff', schema: id, list: true, search: 'in', width: 110 },
  deptId: { key: 'deptId', label: { zh: '部门', en: 'Department' }, kind: 'record', ref: 'department', schema: id, search: 'in', width: 120 },
  deliveryDate: { key: 'deliveryDate', label: { zh: '交货日期', en: 'Delivery date' }, kind: 'date', schema: dateSchema, list: true, search: 'dateRange', sortable: true, width: 120 },
  deliveryWarnDays: { key: 'deliveryWarnDays', label: { zh: '交货预警天数', en: 'Delivery warning days' }, kind: 'number', schema: warnDays, width: 100 },
  payDate: { key: 'payDate', label: { zh: '付款日期', en: 'Payment date' }, kind: 'date', schema: dateSchema, list: true, sortable: true, width: 120 },
  payWarnDays: { key: 'payWarnDays', label: { zh: '付款预警天数', en: 'Payment warning days' }, kind: 'number', schema: warnDays, width: 100 },
  receiptDate: { key: 'receiptDate', label: { zh: '收款日期', en: 'Receipt date' }, kind: 'date', schema: dateSchema, list: true, sortable: true, width: 120 },
  receiptWarnDays: { key: 'receiptWarnDays', label: { zh: '收款预警天数', en: 'Receipt warning days' }, kind: 'number', schema: warnDays, width: 100 },
  refundType: {
    key: 'refundType',
    label: { zh: '退换类型', en: 'Refund type' },
    kind: 'enum',
    schema: z.enum(RefundType),
    required: 'PleaseSelectRefundType',
    options: options(RefundType, REFUND_TYPE_LABELS),
    list: true,
    search: 'eq',
    width: 110,
  },
  assemblyType: {
    key: 'assemblyType',
    label: { zh: '类型', en: 'Type' },
    kind: 'enum',
    schema: z.enum(AssemblyType, { error: 'PleaseSelectAssemblyType' }),
    required: 'PleaseSelectAssemblyType',
    options: options(AssemblyType, ASSEMBLY_TYPE_LABELS),
    list: true,
    search: 'eq',
    width: 100,
  },
  /** Transfer: the warehouse the goods go to (lines default to it). */
  targetWarehouseId: { key: 'targetWarehouseId', label: { zh: '调入仓库', en: 'Transfer-in warehouse' }, kind: 'record', ref: 'warehouse', schema: id, required: 'PleaseSelectTransferInWarehouse', list: true, search: 'in', width: 140 },
  /** Finance: the cash, bank or e-wallet account money moves through (kept in `extra`). */
  fundAccountId: { key: 'fundAccountId', label: { zh: '结算账户', en: 'Fund account' }, kind: 'record', ref: 'fundAccount', schema: id, list: true, width: 150 },
  /** Header amounts, computed from the lines. */
  number: { key: 'number', label: { zh: '数量', en: 'Quantity' }, kind: 'quantity', schema: quantitySchema, readOnly: true, list: true, sum: true, sortable: true, width: 110 },
  priceTotal: { key: 'priceTotal', label: { zh: '金额', en: 'Amount' }, kind: 'amount', schema: quantitySchema, readOnly: true, list: true, sum: true, sortable: true, width: 120 },
  taxPriceTotal: { key: 'taxPriceTotal', label: { zh: '含税金额', en: 'Amount incl. tax' }, kind: 'amount', schema: quantitySchema, readOnly: true, switch: 'openTaxRate', list: true, sum: true, sortable: true, width: 120 },
  remark: { key: 'remark', label: { zh: '备注', en: 'Remark' }, kind: 'textarea', schema: text(500), list: true, search: 'contains', width: 200 },
  attachments: { key: 'attachments', label: { zh: '附件', en: 'Attachments' }, kind: 'attachments', schema: z.array(text(500).min(1)).max(10) },
} as const satisfies Record<string, FieldDecl>;

// ---------------------------------------------------------------- common line fields

export const LINE = {
  materialId: { key: 'materialId', label: { zh: '物料', en: 'Material' }, kind: 'record', ref: 'material', schema: id, required: 'PleaseSelectMaterial', width: 220 },
  /** The unit the line is entered in; the engine converts to the material's main unit. */
  unitId: { key: 'unitId', label: { zh: '单位', en: 'Unit' }, kind: 'record', ref: 'unit', schema: id, width: 90 },
  number: { key: 'number', label: { zh: '数量', en: 'Quantity' }, kind: 'quantity', schema: quantitySchema.positive({ message: 'NumberMustGreaterThanZero' }), required: 'PleaseInputNumber', sum: true, width: 110 },
  /** The quantity in the material's main unit (what stock counts). */
  baseNumber: { key: 'baseNumber', label: { zh: '基本数量', en: 'Main-unit quantity' }, kind: 'quantity', schema: quantitySchema, readOnly: true, sum: true, width: 110 },
  giftNumber: { key: 'giftNumber', label: { zh: '赠品数量', en: 'Gift quantity' }, kind: 'quantity', schema: quantitySchema, sum: true, width: 100 },
  unitPrice: { key: 'unitPrice', label: { zh: '单价', en: 'Unit price' }, kind: 'price', schema: quantitySchema, width: 110 },
  taxRate: { key: 'taxRate', label: { zh: '税率(%)', en: 'Tax rate (%)' }, kind: 'percent', schema: percentSchema, switch: 'openTaxRate', width: 90 },
  taxUnitPrice: { key: 'taxUnitPrice', label: { zh: '含税单价', en: 'Unit price incl. tax' }, kind: 'price', schema: quantitySchema, readOnly: true, switch: 'openTaxRate', width: 110 },
  discountRate: { key: 'discountRate', label: { zh: '折扣(%)', en: 'Discount (%)' }, kind: 'percent', schema: percentSchema, switch: 'openDiscount', width: 90 },
  priceTotal: { key: 'priceTotal', label: { zh: '金额', en: 'Amount' }, kind: 'amount', schema: quantitySchema, readOnly: true, sum: true, width: 120 },
  taxPriceTotal: { key: 'taxPriceTotal', label: { zh: '含税金额', en: 'Amount incl. tax' }, kind: 'amount', schema: quantitySchema, readOnly: true, switch: 'openTaxRate', sum: true, width: 120 },
  /** Defaults to the header's warehouse; a stock-moving line without either is refused (PleaseSelectWarehouse). */
  warehouseId: { key: 'warehouseId', label: { zh: '仓库', en: 'Warehouse' }, kind: 'record', ref: 'warehouse', schema: id, width: 140 },
  /** Storage locations inside warehouses exist only while the tenant keeps them (`openShelves`). */
  locationId: { key: 'locationId', label: { zh: '库位', en: 'Location' }, kind: 'record', ref: 'location', within: 'warehouseId', schema: id, switch: 'openShelves', offRefusal: 'ShelvesNotOpen', width: 120 },
  batchNumber: { key: 'batchNumber', label: { zh: '批次号', en: 'Batch number' }, kind: 'batch', schema: text(100), switch: 'openBatchNumber', width: 130 },
  expirationDate: { key: 'expirationDate', label: { zh: '有效期至', en: 'Expires' }, kind: 'date', schema: dateSchema, switch: 'openBatchNumber', width: 110 },
  serialNumbers: { key: 'serialNumbers', label: { zh: '序列号', en: 'Serial numbers' }, kind: 'serials', schema: serials, switch: 'openSerialNumber', width: 160 },
  /** Transfer lines: where the goods go. */
  targetWarehouseId: { key: 'targetWarehouseId', label: { zh: '调入仓库', en: 'Transfer-in warehouse' }, kind: 'record', ref: 'warehouse', schema: id, width: 140 },
  targetLocationId: { key: 'targetLocationId', label: { zh: '调入库位', en: 'Transfer-in location' }, kind: 'record', ref: 'location', within: 'targetWarehouseId', schema: id, switch: 'openShelves', offRefusal: 'ShelvesNotOpen', width: 120 },
  /** Stock check lines: the counted quantity is `number`; the book quantity is read at save and audit. */
  bookNumber: { key: 'bookNumber', label: { zh: '账面数量', en: 'Book quantity' }, kind: 'quantity', schema: signedQuantity, readOnly: true, width: 110 },
  /** Assembly lines: the product comes in, the components go out (reversed for disassembly). */
  direction: {
    key: 'direction',
    label: { zh: '出入方向', en: 'Direction' },
    kind: 'enum',
    schema: z.enum(['in', 'out'], { error: 'PleaseSelectDirection' }),
    required: 'PleaseSelectDirection',
    options: [
      { value: 'in', label: { zh: '入库（成品）', en: 'In (product)' } },
      { value: 'out', label: { zh: '出库（组件）', en: 'Out (component)' } },
    ],
    width: 120,
  },
  /** Exchange lines: out of stock or into it (the goods exchanged and their replacements). */
  exchangeType: {
    key: 'exchangeType',
    label: { zh: '换货类型', en: 'Exchange side' },
    kind: 'enum',
    schema: z.enum(ExchangeType, { error: 'PleaseSelectExchangeSide' }),
    required: 'PleaseSelectExchangeSide',
    options: options(ExchangeType, EXCHANGE_TYPE_LABELS),
    width: 140,
  },
  remark: { key: 'remark', label: { zh: '备注', en: 'Remark' }, kind: 'text', schema: text(500), width: 160 },

  // Lines that are not material lines (their kinds: registry.ts LINE_KINDS).
  /** Settlement lines: the audited bill this line settles (chosen by push down; stored as the line's source bill). */
  sourceBillId: { key: 'sourceBillId', label: { zh: '源单', en: 'Source bill' }, kind: 'bill', schema: id, required: 'PleaseSelectSourceBill', width: 170 },
  /** Settlement lines: the settled bill's amount (signed: refunds negative), shown. */
  sourceAmount: { key: 'sourceAmount', label: { zh: '单据金额', en: 'Bill amount' }, kind: 'amount', schema: moneyAmountSchema, readOnly: true, width: 120 },
  /** Settlement lines: what was open on the bill before this line, shown. */
  openAmount: { key: 'openAmount', label: { zh: '未结金额', en: 'Open amount' }, kind: 'amount', schema: moneyAmountSchema, readOnly: true, width: 120 },
  /** The amount of a line that is not a material line (stored as its amount columns). */
  amount: { key: 'amount', label: { zh: '金额', en: 'Amount' }, kind: 'amount', schema: moneyAmountSchema, required: 'PleaseInputAmount', sum: true, width: 130 },
  fundAccountId: { key: 'fundAccountId', label: { zh: '结算账户', en: 'Fund account' }, kind: 'record', ref: 'fundAccount', schema: id, required: 'PleaseSelectAccount', width: 160 },
  feeTypeId: { key: 'feeTypeId', label: { zh: '费用类型', en: 'Fee type' }, kind: 'record', ref: 'fee', schema: id, required: 'PleaseSelectFeeType', width: 160 },
  staffId: { key: 'staffId', label: { zh: '员工', en: 'Staff member' }, kind: 'record', ref: 'staff', schema: id, required: 'PleaseSelectStaff', width: 140 },
} as const satisfies Record<string, FieldDecl>;

/** Header fields kept in typed columns of the bill table (the rest of a type's fields go to `extra`). */
export const BILL_HEADER_COLUMNS = [
  'billCode',
  'billDate',
  'supplierId',
  'customerId',
  'warehouseId',
  'targetWarehouseId',
  'handlerId',
  'deptId',
  'deliveryDate',
  'deliveryWarnDays',
  'payDate',
  'payWarnDays',
  'receiptDate',
  'receiptWarnDays',
  'refundType',
  'number',
  'priceTotal',
  'taxPriceTotal',
  'remark',
  'attachments',
] as const;

/** Line fields kept in typed columns of the bill line table. */
export const BILL_LINE_COLUMNS = [
  'materialId',
  'unitId',
  'number',
  'baseNumber',
  'giftNumber',
  'unitPrice',
  'taxRate',
  'taxUnitPrice',
  'discountRate',
  'priceTotal',
  'taxPriceTotal',
  'warehouseId',
  'locationId',
  'batchNumber',
  'expirationDate',
  'serialNumbers',
  'targetWarehouseId',
  'targetLocationId',
  'remark',
] as const;
