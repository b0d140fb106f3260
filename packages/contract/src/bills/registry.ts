import { z } from 'zod';
import type { TenantConfig } from '../tenant-config.ts';
import { HEADER, LINE, type FieldDecl } from './fields.ts';
import { CURRENCY_FIELDS } from './currency.ts';
import type { ErrorKey } from '../errors.ts';
import type { PostingAccount } from '../finance.ts';
import type { InspectionKind } from '../quality.ts';
import type { MaterialTag } from '../basic.ts';
import type { BillOperation, Label, ProgressKind } from './status.ts';
import { divRound, roundTo, sum, toMicro, type Micro } from './decimal.ts';

/**
 * The bill-type registry: one declaration per bill type, from which everything else is derived — the
 * server's routes (`/api/admin/<area>/<route>`), payload schemas and list specifications, the menus and
 * button codes, the joint-review bill types, the web kit's columns, forms and line grid. A new bill type
 * is a declaration here plus, where it has them, its own rules in the server (see docs/bills.md).
 *
 * Where things are:
 *   fields.ts       the field declaration shape and the common header (`HEADER`) and line (`LINE`) fields
 *   registry.ts     this file: the bill-type declaration shape, names derived from it, save payload schemas
 *   supply-chain.ts the declarations of the purchasing, sales and stock bills
 *   catalogue.ts    `BILL_TYPES` (every declared type) and lookups by type, menu name and API path
 *   status.ts       statuses, operations, progress sets, refund / assembly / delivery types, with labels
 *   api.ts          the shared request and answer shapes of the bill routes
 *   amounts.ts      line amounts (tax, discount, rounding) shared by the server and the web kit
 *   decimal.ts      exact decimal arithmetic (millionths as bigint)
 *
 * A web screen for a type needs only its declaration: `headerFields(decl)` gives the form and the list
 * columns (`list`, `search`, `sum`), `lineFields(decl)` the line grid, `billButtons(decl)` the buttons with
 * their codes, `decl.sources` the push-down dialog's source types, `decl.progress` the progress columns.
 */

/** The menu areas bills live in; the first segment of their route and button codes. */
export const BillArea = ['purchase', 'sale', 'stock', 'production', 'outsourcing', 'quality', 'finance', 'people', 'office'] as const;
export type BillArea = (typeof BillArea)[number];
export const BILL_AREA_LABELS: Record<BillArea, Label> = {
  purchase: { zh: '采购管理', en: 'Purchasing' },
  sale: { zh: '销售管理', en: 'Sales' },
  stock: { zh: '库存管理', en: 'Stock' },
  production: { zh: '生产管理', en: 'Production' },
  outsourcing: { zh: '委外管理', en: 'Outsourcing' },
  quality: { zh: '质量管理', en: 'Quality' },
  finance: { zh: '财务管理', en: 'Finance' },
  people: { zh: '人事管理', en: 'People' },
  office: { zh: '办公协同', en: 'Office' },
};

/**
 * What a bill's lines are. Supply-chain bills have material lines (material, unit, quantity, prices,
 * stock placing); finance bills have lines of money:
 * - material: a material, its unit and quantity (the main-unit quantity is what stock and push down count);
 * - settlement: an audited bill this one settles (its source bill, chosen by push down), the bill's amount
 *   and what was open of it, and this line's amount, signed like the bill (refunds negative). Its progress
 *   on the source is by amount, not quantity: UnSettlement → PartialSettlement → AllSettlement;
 * - account: a fund account and an amount;
 * - fee: a fee type (basic records) and an amount;
 * - staff: a staff member and an amount (salary);
 * - none: no lines — the bill is its header, its amount the header field named by `extraAmount` (an
 *   opening balance).
 * `common` are the fields every line of the kind has, first; `minLines` how many lines a save needs (a
 * settlement bill may have none: an advance payment settles nothing, its own rules say when lines are needed).
 */
export const LineKind = ['material', 'settlement', 'account', 'fee', 'staff', 'none'] as const;
export type LineKind = (typeof LineKind)[number];
export const LINE_KINDS: Record<LineKind, { common: readonly FieldDecl[]; minLines: 0 | 1 }> = {
  material: { common: [LINE.materialId, LINE.unitId, LINE.number, LINE.baseNumber], minLines: 1 },
  settlement: { common: [LINE.sourceBillId, LINE.sourceAmount, LINE.openAmount, LINE.amount], minLines: 0 },
  account: { common: [LINE.fundAccountId, LINE.amount], minLines: 1 },
  fee: { common: [LINE.feeTypeId, LINE.amount], minLines: 1 },
  staff: { common: [LINE.staffId, LINE.amount], minLines: 1 },
  none: { common: [], minLines: 0 },
};

/** A type's line kind (material unless declared). */
export const lineKindOf = (decl: BillTypeDecl): LineKind => decl.lineKind ?? 'material';

/**
 * What auditing a bill does to stock (reversed by abandoning the audit):
 * - in / out: each line's main-unit quantity into / out of its warehouse (location, batch, serials);
 * - transfer: out of the line's warehouse, into its target warehouse, at the same cost;
 * - check: each line's counted quantity minus the book quantity, in (gain) or out (loss);
 * - assembly: each line by its own `direction` (the product in, the components out; disassembly reverses);
 * - exchange: each line by its own `exchangeType` (ExchangeOut out of stock, ExchangeIn into it);
 * - none: no stock (orders, quotations, requisitions, notices).
 * In assembly and exchange bills a line coming in without a price takes the cost of the lines going out.
 */
export type StockEffect = 'in' | 'out' | 'transfer' | 'check' | 'assembly' | 'exchange' | 'none';

/**
 * How a bill type values what its lines move (moving average), declared once per type so that every type
 * — and every type added later — says it, and the engine applies it (docs/bills.md, "Valuation"):
 *
 * Lines coming into stock (`in`):
 * - `price`: at the line's own amount ÷ its main-unit quantity (a purchase); a line without a price at the
 *   current average.
 * - `source`: at the cost the source line's goods moved at, read from the stock ledger (a customer's
 *   return comes back at the cost the sale took out, not at its selling price); a line without a source at
 *   the current average. The price stays what the bill is worth to the partner (revenue, receivable).
 * - `average`: at the current average.
 * - `taken`: at what the bill's outbound lines took (a transfer; an assembly's product; a disassembly's
 *   components, spread by their cost share), unless the line carries a price of its own.
 * - `workInProgress`: at the work in progress of the source bill the line comes from (a completion in-stock
 *   from its production order): what the order's picks took out of stock, less what its returns brought back
 *   and its earlier completions took in, spread over the quantity still to complete — the last completion
 *   takes all that is left. Nothing picked yet: the current average.
 * - `rule`: at the unit cost the type's own valuation rule gives each line (`BillTypeRules.valuing`, registered
 *   by the module the type belongs to): an outsourcing completion comes in at the materials it consumed at the
 *   supplier plus its processing fee. A line the rule gives no cost comes in at the current average.
 * - `nothing`: at no value — goods that are not the company's (a customer's materials received for entrusted
 *   machining, kept in that customer's warehouse).
 *
 * Lines going out of stock (`out`):
 * - `average`: at the current moving average.
 * - `source`: at the cost the source line's goods came in at (a return to the supplier leaves at what the
 *   purchase brought it in at); a line without a source at the current average.
 */
export const InboundCost = ['price', 'source', 'average', 'taken', 'workInProgress', 'rule', 'nothing'] as const;
export type InboundCost = (typeof InboundCost)[number];
export const OutboundCost = ['average', 'source'] as const;
export type OutboundCost = (typeof OutboundCost)[number];
export interface StockValuationDecl {
  in?: InboundCost;
  out?: OutboundCost;
}

/** The directions a stock effect moves goods in: each needs its valuation rule declared. */
export const STOCK_SIDES: Record<StockEffect, ReadonlyArray<'in' | 'out'>> = {
  in: ['in'],
  out: ['out'],
  transfer: ['in', 'out'],
  check: ['in', 'out'],
  assembly: ['in', 'out'],
  exchange: ['in', 'out'],
  none: [],
};

/** The line field that says in or out for the types whose lines go both ways, and its value for out. */
export const LINE_DIRECTION: Partial<Record<StockEffect, { field: string; out: string }>> = {
  assembly: { field: 'direction', out: 'out' },
  exchange: { field: 'exchangeType', out: 'ExchangeOut' },
};

/** Whether a line of a type whose lines go both ways (assembly, exchange) goes in or out; undefined for other types. */
export function lineDirection(decl: Pick<BillTypeDecl, 'stock'>, line: Record<string, unknown> | undefined): 'in' | 'out' | undefined {
  const rule = LINE_DIRECTION[decl.stock];
  if (!rule) return undefined;
  return line?.[rule.field] === rule.out ? 'out' : 'in';
}

/**
 * Lines of two sides (an exchange: the goods exchanged and their replacements). Lines whose `field` is
 * `taking` take from a source line, as any pushed-down line does; lines whose `field` is `twin` (the
 * replacements) never do — the source line named on one is dropped, and they stand in a pushed-down bill
 * without the "additional" switch. Push down adds beside each line it takes its twin (same material and
 * quantity, the other side), which the user may change.
 */
export interface PairedLines {
  field: string;
  taking: string;
  twin: string;
}

/**
 * Whether a line is a twin of the type's paired lines (an exchange's replacement). Twins take from no
 * source, and a bill's totals leave them out: a replacement stands for what its taking line takes, so
 * counting both sides would count the goods exchanged twice.
 */
export function isTwinLine(decl: Pick<BillTypeDecl, 'pairedLines'>, line: Record<string, unknown> | undefined): boolean {
  return decl.pairedLines !== undefined && line?.[decl.pairedLines.field] !== decl.pairedLines.taking;
}

/**
 * Whether a line counts in its bill's totals (header quantity and amounts, the form's totals): not a twin of
 * paired lines, and one of the lines the type's `totalsOf` names (a production order's products).
 */
export function countsInTotals(decl: Pick<BillTypeDecl, 'pairedLines' | 'totalsOf'>, line: Record<string, unknown> | undefined): boolean {
  return !isTwinLine(decl, line) && meets(decl.totalsOf, line ?? {});
}

/** Payable to the supplier, receivable from the customer; refunds count negative. */
export interface SettlementEffect {
  kind: 'payable' | 'receivable';
  sign: 1 | -1;
}

/**
 * What a bill posts to the general ledger when it is audited (reversed when the audit is withdrawn), declared
 * per type so that finance posts every type from its declaration and a new type needs no finance change.
 * Accounts are named by role (`ACCOUNT_ROLES` in finance.ts: `costOfGoodsSold`, `workInProgress`…) or by
 * code; amounts move an account on its normal side (finance.ts `normalSide`) when the bill raises it.
 * `{}` (`POSTS_NOTHING`): the bill posts nothing (orders, notices, invoices).
 */
export interface BillPostingsDecl {
  /** Required of every type that moves stock (the registry test checks). */
  stock?: StockPostingDecl;
  /** What its money posts: required of every type with a `settlement` (as `partner`) and of finance's own bills. */
  money?: MoneyPostingDecl;
}

/**
 * The stock's value: the inventory account (1405) moves by what the stock ledger says the bill moved, against
 * `counter` — one account (Dr counter / Cr 1405 when stock goes out, the other way when it comes in), or one
 * when the bill's value comes `in` and another when it goes `out` (a stock check's gain and loss). A pick
 * out-stock for production declares `{ counter: 'workInProgress' }`: Dr 5001 / Cr 1405.
 */
export interface StockPostingDecl {
  counter: PostingAccount | { in: PostingAccount; out: PostingAccount };
  /**
   * The counter instead when the bill's header meets `when`: an outsourcing refund's goods going back carry their
   * materials back to the supplier (1408), a refund of money only is a price allowance (6401).
   */
  counterWhen?: { when: FieldCondition; counter: PostingAccount };
  /**
   * Where the tax of the bill's payable goes: the payable posting puts the tax-inclusive amount on inventory,
   * so this moves the tax off it (a purchase's input VAT); what is left after the stock's value goes to `counter`.
   */
  tax?: PostingAccount;
}

/**
 * What a bill's money posts (amounts signed like the bill: a refund's negative):
 * - `partner` — a bill that opens a receivable or payable (its `settlement`): the partner's account (with the
 *   partner and the bill) by the tax-inclusive amount, against `counter` net of tax and `tax` (without `tax`,
 *   the whole amount against `counter`). Sale out-stock: Dr 1122 / Cr 6001 / Cr 2221; purchase: Dr 1405 / Cr 2202.
 * - `settle` — a payment or receipt: each settled bill off `open` (per bill), advances and what is paid beyond
 *   the bills onto `balance`, deductions from it, against the bill's fund account.
 * - `fee` — a fee or income: each line on `account`, against the bill's fund account.
 * - `opening` — an opening balance: the opening type's account (`BEGINNING_SHAPES`) against `counter`.
 * - `payroll` — a salary bill: `expense` by the gross pay, `payable` by the net (per bill), `withheld` by the deductions;
 *   with `pieceWages`, the lines' `pieceWage` item goes to that account instead of `expense`.
 * - `payrollPayment` — a salary payment: each salary bill off `open` (per bill), against the bill's fund account.
 */
export type MoneyPostingDecl =
  | { kind: 'partner'; partner: PostingAccount; counter: PostingAccount; tax?: PostingAccount }
  | { kind: 'settle'; open: PostingAccount; balance: PostingAccount }
  /** `overhead`: where a line whose fee type is production overhead (`fee_type.overhead`) posts instead. */
  | { kind: 'fee'; account: PostingAccount; overhead?: PostingAccount }
  | { kind: 'opening'; counter: PostingAccount }
  | { kind: 'payroll'; expense: PostingAccount; payable: PostingAccount; withheld: PostingAccount; pieceWages?: PostingAccount }
  | { kind: 'payrollPayment'; open: PostingAccount };

/** The postings of a type that posts nothing. */
export const POSTS_NOTHING: BillPostingsDecl = {};

/** A header field's value that a rule depends on (refund bills: stock moves only for ReturnsRefunds). */
export interface FieldCondition {
  field: string;
  values: readonly string[];
}

/**
 * A bill type this one can be pushed down from: the user picks open lines of audited source bills, and
 * the new bill's lines take the open quantity (source quantity minus what downstream bills of this kind
 * already took) in the source line's unit, with the listed fields copied.
 */
export interface SourceDecl {
  /** The source bill type (its `type`). */
  type: string;
  /** The progress the audited downstream quantities drive on the source lines. */
  drives: ProgressKind;
  /** Header fields copied from the source bill (same key on both). */
  header: readonly string[];
  /** Line fields copied from the source line, besides material, unit and the open quantity. */
  lines: readonly string[];
  /** Tenant switch allowing a line's quantity beyond the source's open quantity. */
  beyondSwitch?: keyof TenantConfig;
  /**
   * Source lines that may be taken beyond their open quantity while a switch is on, whatever `beyondSwitch` says
   * (a production order's consumables lines with `openConsumablesOutstock`).
   */
  freeLines?: { lines: FieldCondition; switch: keyof TenantConfig };
  /** Tenant switch allowing lines without a source line (additional quantities) in a pushed-down bill. */
  additionalSwitch?: keyof TenantConfig;
  /** Only source bills whose header matches (e.g. exchange refunds push only to exchange bills). */
  onlyWhen?: FieldCondition;
  /**
   * Only source lines whose line field matches: a bill whose lines play several roles (a production order's
   * products and the materials they consume) gives each downstream type its own lines — a pick takes the
   * materials, a completion the products. The progress it drives is counted over those lines only.
   */
  fromLines?: FieldCondition;
  /** The refusal when a source bill does not match `onlyWhen` (default `CurrentStatusBillProhibitPushDown`). */
  onlyWhenRefusal?: ErrorKey;
  /**
   * Only downstream bills whose header matches drive the progress (a refund-only bill sends no goods
   * back, so it does not count as returned); every downstream bill still takes from the open quantity.
   */
  drivesWhen?: FieldCondition;
  /**
   * Takes from an open quantity of its own: the source line's other downstream kinds (a refund, a return)
   * do not reduce it, nor it theirs. Invoices: the goods invoiced are not the goods sent back.
   */
  apart?: boolean;
  /**
   * A bill of lines taken from this source counts negative: its lines keep the source's quantities and
   * prices (open quantities, amount rules), its header totals (quantity, amounts) are stored negative, so
   * lists, statistics and exports sum it with its sign. Invoices of refunds: red-letter invoices.
   */
  negative?: boolean;
  /** Header values a pushed-down draft starts with (a receipt pushed down from out-stocks is an ordinary receipt). */
  defaults?: Readonly<Record<string, string>>;
  /**
   * The refusal when the source bill is posted but takes no more (complete by its progress or by hand): a
   * completed production order is not picked from or reported on again (`ProductionOrderCompleted`). Default
   * `BillAllPushed`.
   */
  closedRefusal?: ErrorKey;
  /** Line values each pushed-down line starts with (a production order's lines from a sale order are products). */
  lineDefaults?: Readonly<Record<string, string>>;
  /**
   * Progress this bill's lines receive that counts on the source line they came from too: a shipping notice
   * passes `outstock` on to its sale order, so the order shows what went out through its notices. The kinds
   * must be shown by both (the registry test checks); a chain passes on as far as each link declares it.
   */
  passes?: readonly ProgressKind[];
  /**
   * What a source line offers this type when it is not the line's quantity: a line field of the source, in the
   * line's unit (converted to the main unit as the quantity is) — a waste in-stock takes a process report's
   * scrapped pieces (`scrapNumber`), not its good ones. The open quantity, the push-down picker and the progress
   * it drives (over the source lines that offer any) count that field.
   */
  offers?: string;
  /**
   * Figures this type's posted lines add up on the source line they came from, shown beside the progress it
   * drives: the source's line field ← this type's line field (in the line's unit, converted to the main unit as
   * the quantity is; `number` is the quantity itself). The source declares those fields read-only; the engine
   * fills them when it answers the source bill, over the lines `fromLines` gives this type. A production order's
   * step shows its reports' good, scrapped and rework pieces.
   */
  tallies?: Readonly<Record<string, string>>;
  /**
   * The inspection this bill waits for (an inspection type pushed down from the same source lines): where the
   * template that applies to a line's material at that inspection says the goods wait for it (`gates`), the line
   * takes at most what audited inspections of its source line accepted (accepted + concession) less what bills
   * sharing its open quantity took already — none audited yet, `InspectionReportNotAudited`; more,
   * `NumberExceedInspected` (no 'beyond' switch lifts it). Lines into (or out of) a reject warehouse take from
   * what the inspections rejected instead (`NumberExceedRejected`). A purchase in-stock waits for the incoming
   * inspection.
   */
  inspectedBy?: string;
  /**
   * What this bill's audit consumes that bills of another kind made from the same source provided: an outsourcing
   * receipt consumes the materials the order's picks (`pick`) sent to the supplier, and is refused beyond what they
   * left there. Tests making a bill of this type from a fresh source feed the source that way first.
   */
  consumes?: ProgressKind;
}

/**
 * The main-unit quantity a source line offers a downstream type (`SourceDecl.offers`): its own main-unit quantity,
 * or the offered field scaled by the line's unit ratio (its main-unit quantity over its quantity).
 */
export function offeredBase(source: Pick<SourceDecl, 'offers'> | undefined, line: { number: string | number; baseNumber: string | number; extra: Record<string, unknown> }): Micro {
  const base = toMicro(String(line.baseNumber));
  if (!source?.offers) return base;
  const offered = toMicro(String(line.extra[source.offers] ?? 0) || '0');
  const number = toMicro(String(line.number));
  return number === 0n ? offered : divRound(offered * base, number);
}

/** The buttons a bill type has; its button code is `<area>_<route>_<action>`. */
export const BillAction = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'merge', 'manualCompletion', 'delivery', 'import', 'export', 'print'] as const;
export type BillAction = (typeof BillAction)[number];

export const BILL_ACTION_LABELS: Record<BillAction, Label> = {
  add: { zh: '新增', en: 'Add' },
  update: { zh: '编辑', en: 'Edit' },
  delete: { zh: '删除', en: 'Delete' },
  submit: { zh: '提交', en: 'Submit' },
  audit: { zh: '审核', en: 'Audit' },
  abandonAudit: { zh: '反审核', en: 'Withdraw audit' },
  merge: { zh: '合并', en: 'Merge' },
  manualCompletion: { zh: '手动完成', en: 'Complete by hand' },
  delivery: { zh: '配送确认', en: 'Confirm delivery' },
  import: { zh: '导入', en: 'Import' },
  export: { zh: '导出', en: 'Export' },
  print: { zh: '打印', en: 'Print' },
};

/** The button whose code an operation needs (refuse is part of auditing; push down creates a bill). */
export const OPERATION_ACTION: Record<BillOperation, BillAction> = {
  save: 'add',
  submit: 'submit',
  audit: 'audit',
  refuse: 'audit',
  abandonAudit: 'abandonAudit',
  delete: 'delete',
  pushDown: 'add',
  merge: 'merge',
  manualCompletion: 'manualCompletion',
};

/** A command of a type's list (`BillTypeDecl.commands`). */
export interface BillCommandDecl {
  key: string;
  label: Label;
  /** Whose button code guards it (`<area>_<route>_<action>`). */
  action: BillAction;
  /** What the list says when it is done, `{{count}}` the answer's count. */
  done: Label;
  icon?: string;
}

export interface BillTypeDecl {
  /** The type's identifier: stored on every bill, named by joint-review rules ('PurchaseOrder'). */
  type: string;
  /**
   * An inspection report of this kind (quality, docs/quality.md): its lines follow the template that applies to
   * their material, their readings give the verdict, and accepted + rejected + concession is the lot.
   */
  inspection?: InspectionKind;
  /**
   * An inspection whose accepted goods are packed into boxes while it is written (检验装箱: a quantity each, and a
   * serial-numbered material's serials): at most the accepted quantity; with the tenant's
   * `packageResultLimitSubmit`, all of it before the inspection is submitted. Routes
   * `/api/admin/<area>/<route>/box`; the form shows the boxes.
   */
  packs?: true;
  label: Label;
  area: BillArea;
  /** The last segment of its routes: `/api/admin/<area>/<route>`, menu `<area>_<route>`. */
  route: string;
  /** Default code prefix: `<prefix><yyyymmdd><0001>`. */
  codePrefix: string;
  /** Ant Design icon of its menu entry. */
  icon: string;
  /** Header fields beyond the ones every bill has (code, date, remark, attachments, totals). */
  header: readonly FieldDecl[];
  /** Line fields; material, quantity and remark come first whatever is listed. */
  lines: readonly FieldDecl[];
  sources: readonly SourceDecl[];
  /**
   * Every line must come from a source line (invoices): a line without one is refused (`PleaseSelectSourceBill`).
   * A settlement type with it (salary payments) must settle at least one bill.
   * With `pairedLines`, every taking line (the twins never have one).
   */
  sourceRequired?: boolean;
  /**
   * What a source is told when its audit is withdrawn while a bill of this type takes from it (default
   * `ExistChildrenBillProhibitAbandonAudit`): a sale order an MRP plan took, `BillIsMrpOperationProhibitAbandonAudit`.
   */
  heldSourceRefusal?: ErrorKey;
  /**
   * Header values under which an audited bill keeps its audit (a task once started: its `taskStage` is in
   * progress, completed or terminated): withdrawing the audit is refused with `refusal`, and the bill form does
   * not offer it (`auditHold` in state-rules.ts, asked by the engine and by the web kit alike).
   */
  keepsAuditWhen?: { when: FieldCondition; refusal: ErrorKey };
  /**
   * A "direct" bill of this type — one none of whose lines comes from a source line — is allowed only while
   * this tenant switch is on (a sale out-stock without a sale order or shipping notice: `openDirectOutstock`).
   * Saving or submitting one while it is off is refused with `DirectBillNotOpen`.
   */
  directNeedsSwitch?: keyof TenantConfig;
  /**
   * The type is in use only while this tenant switch is on (consumables issues: `openConsumablesOutstock`):
   * saving, submitting or auditing one of its bills while it is off is refused with `refusal`; the list hides
   * its add button and says why. Bills made before it was turned off can still be read and have their audit
   * withdrawn.
   */
  opensWith?: { switch: keyof TenantConfig; refusal: ErrorKey };
  /**
   * Its lines take only materials carrying this business tag (consumables issues: `consumables`): another is
   * refused with `refusal` naming the line and material, and the line's material picker offers only these.
   */
  materialTag?: { tag: MaterialTag; refusal: ErrorKey };
  /**
   * Its lines move only the header customer's consignment stock (entrusted machining's receipts and returns):
   * each line's warehouse must be one keeping that customer's materials (`EntrustWarehouseNotCustomers`).
   */
  customerStock?: true;
  /** Lines of two sides, one taking from the source, its twin not (exchanges). */
  pairedLines?: PairedLines;
  /**
   * Only the lines that match count in the bill's totals (a production order's quantity is the products it
   * makes, not those plus the materials they consume). All lines without.
   */
  totalsOf?: FieldCondition;
  stock: StockEffect;
  /** When stock moves only for some header values (refund bills: ReturnsRefunds). */
  stockWhen?: FieldCondition;
  /** How its lines are valued, per direction its stock effect moves goods (STOCK_SIDES); required when it moves stock. */
  valuation?: StockValuationDecl;
  settlement?: SettlementEffect;
  /** When the settlement effect applies only for some header values (refunds: not for an exchange). */
  settlementWhen?: FieldCondition;
  /** What auditing it posts to the general ledger (`BillPostingsDecl`); `POSTS_NOTHING` for a type that posts nothing. */
  postings: BillPostingsDecl;
  /**
   * What the month-end cost run (production, docs/production.md "Cost accounting") reads of this type. Once a
   * period is calculated its bills of this type keep their audit (`BillCostAccountedProhibitAbandonAudit`) and
   * no other is audited into it (`ProductionCostAccounted`) until the run is cancelled. `period`: the header
   * field holding the bill's period (YYYY-MM) when it is not its date's month; `overheadLines`: only bills with
   * a line of a production-overhead fee type count.
   */
  costRun?: { period?: string; overheadLines?: true };
  /** The progress sets shown on this bill's lines and header (driven by its downstream bills). */
  progress: readonly ProgressKind[];
  /** Tenant switches that change how this type behaves (shown on its screen's help). */
  switches: readonly (keyof TenantConfig)[];
  /**
   * Its buttons (button codes `<area>_<route>_<action>`). With `delivery`, an audited bill has a delivery
   * status: NotDelivered → InDelivery (sending confirmed) → Arrived (arrival confirmed), in that order.
   */
  actions: readonly BillAction[];
  /** Fields that must agree for bills to be merged (the partner, the warehouse…); no merge without. */
  mergeBy?: readonly string[];
  /** What its lines are (LINE_KINDS); material when absent. */
  lineKind?: LineKind;
  /**
   * How many lines a save needs when it differs from its line kind's (`LINE_KINDS`): a maintenance work order
   * lists the spare parts it used, and may have used none.
   */
  minLines?: 0 | 1;
  /** Most lines a save may send when it differs from `MAX_BILL_LINES`: an MRP plan over a whole factory's open demand. */
  maxLines?: number;
  /**
   * Its delivery date is a date the work is due by, and the bill is done when it is audited (a maintenance work
   * order): the early warning lists it while it is not yet audited (kind `maintenance`), never as a delivery.
   */
  dueUntilAudited?: true;
  /**
   * Commands of its list beyond the engine's (`POST {bill path}/{key}`, the button code of `action`), served by
   * the module the type belongs to: production's "generate from the maintenance plans". The answer's `count`
   * is shown with `done`.
   */
  commands?: readonly BillCommandDecl[];
  /**
   * Lines that are not material lines: a header amount field added to the bill's total beyond its lines
   * (a payment's amount to prepaid: an advance, or what a settlement payment pays beyond its bills).
   */
  extraAmount?: string;
  /**
   * Lines whose amount is computed, not typed (a salary line's net pay): the sum of the `plus` line fields
   * less the sum of the `minus` ones, each rounded to the tenant's amount digits. The engine computes it
   * when saving (the declared `amount` is then read-only) and refuses a negative result with `negative`.
   */
  lineAmount?: { plus: readonly string[]; minus: readonly string[]; negative: ErrorKey };
  /**
   * A commercial bill that may be in a foreign currency (docs/cross-border.md): the registry adds its
   * `currencyId` and `exchangeRate` header fields (`CURRENCY_FIELDS`), the engine defaults them from the partner
   * and the bill date's rate, and finance books its amounts in CNY at the rate.
   */
  currency?: true;
  /**
   * The list shows the bill's creator under this title, after the declared columns: a request made for oneself
   * (a replacement clock-in), whose creator is the person it is for.
   */
  creatorColumn?: Label;
  /**
   * Buttons beyond the engine's actions, served by the type's module (a task's start, progress note, completion,
   * termination): seeded under the type's screen with the codes `<area>_<route>_<action>`.
   */
  ownButtons?: ReadonlyArray<{ action: string; label: Label }>;
}

/** A line's computed amount by its type's `lineAmount`, exactly (server and web alike); undefined without one. */
export function computedLineAmount(decl: BillTypeDecl, line: Record<string, unknown>, digits: number): Micro | undefined {
  if (!decl.lineAmount) return undefined;
  const part = (key: string) => roundTo(toMicro(String(line[key] ?? 0) || '0'), digits);
  return sum(decl.lineAmount.plus.map(part)) - sum(decl.lineAmount.minus.map(part));
}

/** Every bill has these header fields, first. */
export const COMMON_HEADER: readonly FieldDecl[] = [HEADER.billCode, HEADER.billDate];
/** …and these, last. */
export const COMMON_HEADER_TAIL: readonly FieldDecl[] = [HEADER.number, HEADER.priceTotal, HEADER.taxPriceTotal, HEADER.remark, HEADER.attachments];
/** …or these, for a type whose lines are not material lines: its total amount (no quantity, no tax). */
export const MONEY_HEADER_TAIL: readonly FieldDecl[] = [HEADER.priceTotal, HEADER.remark, HEADER.attachments];
/** …or these, for a bill that is its header and has no amount (a replacement clock-in request). */
export const PLAIN_HEADER_TAIL: readonly FieldDecl[] = [HEADER.remark, HEADER.attachments];
/** Whether a type's bills carry no amount at all: no lines and no header amount (a replacement clock-in request). */
export const amountless = (decl: BillTypeDecl) => lineKindOf(decl) === 'none' && !decl.extraAmount;
/** Every line has these, first and last. */
export const COMMON_LINE: readonly FieldDecl[] = LINE_KINDS.material.common;
export const COMMON_LINE_TAIL: readonly FieldDecl[] = [LINE.remark];

/** A type's header fields in form order (the common ones included). */
export function headerFields(decl: BillTypeDecl): FieldDecl[] {
  const tail = lineKindOf(decl) === 'material' ? COMMON_HEADER_TAIL : amountless(decl) ? PLAIN_HEADER_TAIL : MONEY_HEADER_TAIL;
  return withOwn([...COMMON_HEADER, ...decl.header, ...(decl.currency ? CURRENCY_FIELDS : []), ...tail], decl.header);
}

/** A type's line fields in grid order (the common ones of its line kind included). */
export function lineFields(decl: BillTypeDecl): FieldDecl[] {
  return withOwn([...LINE_KINDS[lineKindOf(decl)].common, ...decl.lines, ...COMMON_LINE_TAIL], decl.lines);
}

/**
 * Each key once, at its first place; a type's own declaration of a common key (a stock check's counted
 * `number` may be 0) replaces the common one there.
 */
function withOwn(fields: FieldDecl[], own: readonly FieldDecl[]): FieldDecl[] {
  const ownByKey = new Map(own.map((f) => [f.key, f]));
  const seen = new Set<string>();
  return fields.filter((f) => !seen.has(f.key) && seen.add(f.key)).map((f) => ownByKey.get(f.key) ?? f);
}

// ---------------------------------------------------------------- names derived from a declaration

/** `purchase_order`: the menu name and the prefix of the type's button codes. */
export const billMenuName = (decl: BillTypeDecl) => `${decl.area}_${decl.route}`;
/** `/api/admin/purchase/order` */
export const billApiPath = (decl: BillTypeDecl) => `/api/admin/${decl.area}/${decl.route}`;
/** `/purchase/order`: the screen's path. */
export const billScreenPath = (decl: BillTypeDecl) => `/${decl.area}/${decl.route}`;
/**
 * A link to one bill (a ledger line links to its bill): the type's screen, carrying in the router's state
 * the bill whose form the list opens — state, not a query, so that the screen keeps its one tab.
 */
export interface BillLinkState {
  openBill: { type: string; id: number };
}
export const billLink = (decl: BillTypeDecl, id: number): { path: string; state: BillLinkState } => ({ path: billScreenPath(decl), state: { openBill: { type: decl.type, id } } });
/** `purchase_order_audit` */
export const billButtonCode = (decl: BillTypeDecl, action: BillAction) => `${billMenuName(decl)}_${action}`;

/** The template key of a type's import: its template is `/api/base/template/<key>.xlsx` (`bill_purchase_order`). */
export const billTemplateKey = (decl: BillTypeDecl) => `bill_${billMenuName(decl)}`;

/** The type's buttons with their codes and labels, in declaration order. */
export function billButtons(decl: BillTypeDecl): Array<{ action: BillAction; code: string; label: Label }> {
  return decl.actions.map((action) => ({ action, code: billButtonCode(decl, action), label: BILL_ACTION_LABELS[action] }));
}

/** Whether a header satisfies a condition (no condition: always). */
export function meets(condition: FieldCondition | undefined, header: Record<string, unknown>): boolean {
  return !condition || condition.values.includes(String(header[condition.field] ?? ''));
}

/** Whether a header field applies to a header's values (its `shownWhen`): the form shows it, a save keeps it. */
export const fieldShown = (field: FieldDecl, header: Record<string, unknown>): boolean => meets(field.shownWhen, header);

// ---------------------------------------------------------------- save payloads

/** Most lines one bill may hold (a 2,750-line bill is a real case). */
export const MAX_BILL_LINES = 5000;

const lineRef = z.number().int().positive();

/**
 * A field's schema in a save payload. A required field left out (or null) is refused with the field's own
 * catalogued message, as the form says it; any other wrong value keeps the schema's own message. The clone
 * keeps the schema's type and checks, so the OpenAPI document is unchanged.
 */
function fieldSchema(field: FieldDecl): z.ZodType {
  if (!field.required) return field.schema.nullish();
  const missing = field.required;
  const def = field.schema._zod.def;
  const error = (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? missing : undefined);
  return field.schema.clone({ ...def, error: error as typeof def.error });
}

/** The line of a save payload: the type's editable line fields, the line's id on update, its source line when pushed down. */
export function billLineSchema(decl: BillTypeDecl) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of lineFields(decl)) if (!field.readOnly) shape[field.key] = fieldSchema(field);
  return z.object({ ...shape, id: lineRef.optional(), sourceLineId: lineRef.nullish() });
}

/**
 * POST {bill path}: the header's editable fields and at least one line. `billCode` left empty is
 * generated (the type's prefix, the bill's date, a daily sequence).
 */
export function billCreateSchema(decl: BillTypeDecl) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of headerFields(decl)) if (!field.readOnly) shape[field.key] = fieldSchema(field);
  shape.billCode = HEADER.billCode.schema.optional();
  return z.object({
    ...shape,
    lines: z
      .array(billLineSchema(decl), { error: 'BillItemsEmpty' })
      .min(decl.minLines ?? LINE_KINDS[lineKindOf(decl)].minLines, { message: 'BillItemsEmpty' })
      .max(decl.maxLines ?? MAX_BILL_LINES),
  });
}

/** PUT {bill path}: the whole bill again with its id (lines sent replace the stored ones). */
export function billUpdateSchema(decl: BillTypeDecl) {
  return billCreateSchema(decl).extend({ id: lineRef });
}

/** The header of a save payload as the server receives it (keys by the type's fields). */
export type BillPayload = Record<string, unknown> & { lines: Array<Record<string, unknown>> };
