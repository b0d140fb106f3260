import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billScreenPath, computedLineAmount, countsInTotals, fieldShown, headerFields, lineFields, type BillAction, type BillTypeDecl } from '@p8/contract/bills/registry';
import { allows, auditHold, deliveryBlocksAbandon } from '@p8/contract/bills/state-rules';
import type { BillOperation, BillStatus, DeliveryStatus } from '@p8/contract/bills/status';
import { billTotals, lineAmounts, type AmountRules } from '@p8/contract/bills/amounts';
import { MAX_MICRO, microNumber, type Micro } from '@p8/contract/bills/decimal';
import type { BillAuditAnswer, BillSourceLine } from '@p8/contract/bills/api';
import { nameKey, type FieldDecl, type FieldKind } from '@p8/contract/bills/fields';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import type { KitSettings } from '../../hooks/kit-settings.ts';

/**
 * The bill screen kit's pure part: what one list screen and one bill form show for any declared bill
 * type, read from the contract's registry only (no type is named here). Tested over every type.
 */

/** The declaration behind a screen path (`/purchase/order`), or undefined. */
export function billTypeByScreen(path: string): BillTypeDecl | undefined {
  const clean = '/' + path.trim().replace(/^\/+/, '').replace(/^views\//, '').replace(/(\/index)?(\.tsx)?$/, '');
  return BILL_TYPES.find((decl) => billScreenPath(decl) === clean);
}

export { billTypeName, labelOf } from '../../components/BillNames/index.ts';

/**
 * What an audit answer says beyond "done": under joint review (AllVerify) an approval may leave the bill
 * waiting for other reviewers — the catalogued key and their names — or undefined.
 */
export function waitingOf(answer: unknown): { key: string; names: string[] } | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const { message, waitingFor } = answer as Partial<BillAuditAnswer>;
  return message ? { key: message, names: Array.isArray(waitingFor) ? waitingFor : [] } : undefined;
}


/** A field is shown unless the tenant's switch it depends on is off. */
export function switchedOn(field: FieldDecl, config: Partial<TenantConfigView> | undefined): boolean {
  return !field.switch || (config as Record<string, unknown> | undefined)?.[field.switch] === true;
}

/** The header fields of the form (computed totals and attachments have their own places). */
export function formHeaderFields(decl: BillTypeDecl, config: Partial<TenantConfigView> | undefined): FieldDecl[] {
  return headerFields(decl).filter((f) => switchedOn(f, config) && !f.readOnly && f.kind !== 'attachments');
}

/** The header fields `values` call for: a field with `shownWhen` only while the field it names has one of its values. */
export function shownHeaderFields(fields: readonly FieldDecl[], values: Record<string, unknown> | undefined): FieldDecl[] {
  return fields.filter((f) => fieldShown(f, values ?? {}));
}

/** The header fields whose `shownWhen` names another field (what the form watches). */
export const conditionKeys = (decl: BillTypeDecl): string[] => [...new Set(headerFields(decl).flatMap((f) => (f.shownWhen ? [f.shownWhen.field] : [])))];

/** The list's columns: header fields marked `list` whose switch is on. */
export function listFields(decl: BillTypeDecl, config: Partial<TenantConfigView> | undefined): FieldDecl[] {
  return headerFields(decl).filter((f) => f.list && switchedOn(f, config));
}

/** The line grid's fields in grid order. */
export function gridFields(decl: BillTypeDecl, config: Partial<TenantConfigView> | undefined): FieldDecl[] {
  return lineFields(decl).filter((f) => switchedOn(f, config));
}

/** Which list value type shows a field kind. */
export function valueTypeOf(kind: FieldKind): 'number' | 'amount' | 'date' | 'text' {
  if (kind === 'quantity' || kind === 'number' || kind === 'percent') return 'number';
  if (kind === 'price' || kind === 'amount') return 'amount';
  if (kind === 'date') return 'date';
  return 'text';
}

export { nameKey };

export function amountRules(decl: BillTypeDecl, settings: Pick<KitSettings, 'numberRetainsSmallDigit' | 'amountRetainsSmallDigit'>, config: Partial<TenantConfigView> | undefined): AmountRules {
  const keys = new Set(lineFields(decl).map((f) => f.key));
  return {
    numberDigits: settings.numberRetainsSmallDigit,
    amountDigits: settings.amountRetainsSmallDigit,
    tax: keys.has('taxRate') && config?.openTaxRate === true,
    discount: keys.has('discountRate') && config?.openDiscount === true,
  };
}

export interface GridLine {
  number?: number | null;
  unitPrice?: number | null;
  taxRate?: number | null;
  discountRate?: number | null;
  /** Main units per line unit (1 for the main unit). */
  ratio?: number | null;
}

/** One line's shown amounts, exactly as the server will store them (the contract's arithmetic). */
export function lineFigures(line: GridLine, rules: AmountRules) {
  const a = lineAmounts({ number: line.number ?? 0, unitPrice: line.unitPrice, taxRate: line.taxRate, discountRate: line.discountRate }, rules);
  return {
    priceTotal: microNumber(a.priceTotal),
    taxUnitPrice: microNumber(a.taxUnitPrice),
    taxPriceTotal: microNumber(a.taxPriceTotal),
    baseNumber: Number(((line.number ?? 0) * (line.ratio ?? 1)).toFixed(rules.numberDigits)),
  };
}

/** Kinds whose form value is the value sent, so the declared schema can check it as typed. */
const CHECKED_AS_TYPED: ReadonlySet<FieldKind> = new Set<FieldKind>(['number', 'quantity', 'price', 'percent', 'text', 'textarea', 'batch']);

/** A refusal of a field as the form shows it: the catalogue key, or ParamError for a message that is none. */
export type FieldCheck = (value: unknown) => string | undefined;

/**
 * The catalogue key refusing a typed value of `field`, checked by its declared schema — the one the server's
 * save schema is made of — so a negative, a zero quantity, a figure beyond what can be recorded or a
 * percentage over 100 is refused on its cell, in the user's language, before anything is sent. Undefined
 * when the value passes (or is empty: whether it is required is the required rule's business). Schema
 * messages that are not catalogue keys (`isKey` false) read as ParamError.
 */
export function fieldRefusal(field: FieldDecl, value: unknown, isKey: (key: string) => boolean): string | undefined {
  if (!CHECKED_AS_TYPED.has(field.kind) || value === undefined || value === null || value === '') return undefined;
  const parsed = field.schema.safeParse(value);
  if (parsed.success) return undefined;
  const key = parsed.error.issues[0]?.message ?? '';
  return isKey(key) ? key : 'ParamError';
}

/** The catalogue key refusing a material line whose amounts go beyond what can be recorded (as the server refuses it), or undefined. */
export function lineAmountRefusal(line: GridLine | undefined, rules: AmountRules): string | undefined {
  if (!line || !Number.isFinite(line.number ?? 0) || !Number.isFinite(line.unitPrice ?? 0)) return 'AmountOutOfRange';
  const a = lineAmounts({ number: line.number ?? 0, unitPrice: line.unitPrice, taxRate: line.taxRate, discountRate: line.discountRate }, rules);
  return [a.priceTotal, a.taxPriceTotal, a.taxUnitPrice].some((v) => v > MAX_MICRO || v < -MAX_MICRO) ? 'AmountOutOfRange' : undefined;
}

/**
 * Each line's amounts, kept while the line is the same object: the form replaces only the line being
 * edited, so a keystroke in a bill of thousands of lines computes one line's amounts, not every line's.
 */
const lineAmountsSeen = new WeakMap<object, { rules: AmountRules; amounts: ReturnType<typeof lineAmounts> }>();

function amountsOf(line: GridLine | undefined, rules: AmountRules) {
  const seen = line ? lineAmountsSeen.get(line) : undefined;
  if (seen && seen.rules === rules) return seen.amounts;
  const amounts = lineAmounts({ number: line?.number ?? 0, unitPrice: line?.unitPrice, taxRate: line?.taxRate, discountRate: line?.discountRate }, rules);
  if (line) lineAmountsSeen.set(line, { rules, amounts });
  return amounts;
}

/** The form's live totals over every line. */
export function gridTotals(decl: BillTypeDecl, lines: readonly (GridLine | undefined)[], rules: AmountRules) {
  // An exchange's replacements and a production order's materials are not counted, as the server does not count them.
  const counted = lines.filter((l) => countsInTotals(decl, l as Record<string, unknown> | undefined));
  const amounts = counted.map((l) => amountsOf(l, rules));
  const t = billTotals(amounts);
  return { number: microNumber(t.number), priceTotal: microNumber(t.priceTotal), taxPriceTotal: microNumber(t.taxPriceTotal), lines: lines.length };
}

/** The payload of a save: the editable fields of the type only, pickers sent as ids. */
export function savePayload(decl: BillTypeDecl, values: Record<string, unknown>, config: Partial<TenantConfigView> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (target: Record<string, unknown>, field: FieldDecl, value: unknown) => {
    if (field.readOnly || !switchedOn(field, config)) return;
    const v = value && typeof value === 'object' && !Array.isArray(value) && 'id' in value ? (value as { id: number }).id : value;
    if (v === undefined || v === '' || v === null) return;
    target[field.key] = v;
  };
  // A hidden field (its `shownWhen` not met: a receivable's supplier) is not sent.
  for (const field of headerFields(decl)) if (fieldShown(field, values)) put(out, field, values[field.key]);
  if (values.id) out.id = values.id;
  const lines = (values.lines as Array<Record<string, unknown>> | undefined) ?? [];
  out.lines = lines.map((row) => {
    const line: Record<string, unknown> = {};
    for (const field of lineFields(decl)) put(line, field, row[field.key]);
    if (row.id) line.id = row.id;
    if (row.sourceLineId) line.sourceLineId = row.sourceLineId;
    return line;
  });
  return out;
}

/**
 * Operations offered on a bill in a status (and, for the types with delivery, its delivery status; for a type
 * whose own values keep its audit, those values — the bill as read): the contract's state table and audit
 * holds, the same the server checks, and the type's buttons. A new bill offers only saving.
 */
export function offeredOperations(decl: BillTypeDecl, status: BillStatus | undefined, delivery?: DeliveryStatus | null, values: Record<string, unknown> = {}) {
  const has = (a: BillAction) => decl.actions.includes(a);
  const can = (op: BillOperation, action: BillAction) => !!status && allows(status, op) && has(action);
  return {
    save: (!status || allows(status, 'save')) && has(status ? 'update' : 'add'),
    submit: can('submit', 'submit'),
    audit: can('audit', 'audit'),
    refuse: can('refuse', 'audit'),
    abandonAudit: can('abandonAudit', 'abandonAudit') && !deliveryBlocksAbandon(delivery) && !auditHold(decl, values),
    manualCompletion: can('manualCompletion', 'manualCompletion'),
    delete: can('delete', 'delete'),
  };
}

/** The most a push-down line may take: its open quantity, or no limit with the source's "beyond" switch on. */
export function pushDownQuantityMax(line: Pick<BillSourceLine, 'openNumber'>, beyond: boolean): number | undefined {
  return beyond ? undefined : Number(line.openNumber);
}

/**
 * The `numbers` of a push-down request: the quantities the user changed (a line left at its open quantity
 * is not sent; the server gives it that). Lines dropped from `lines` are not sent at all.
 */
export function pushDownNumbers(lines: ReadonlyArray<Pick<BillSourceLine, 'sourceLineId' | 'openNumber'>>, edited: Record<number, number | null | undefined>) {
  return lines.flatMap((line) => {
    const number = edited[line.sourceLineId];
    return number === undefined || number === null || number === Number(line.openNumber) ? [] : [{ sourceLineId: line.sourceLineId, number }];
  });
}

/** Whether a form value is a whole decimal yet ("-" and "1." while typing are not). */
const typedDecimal = (v: unknown) => /^-?\d+(\.\d+)?$/.test(String(v ?? ''));

/**
 * A line's computed amount by its type's `lineAmount` (a salary line's net pay), exactly as the server will
 * compute it (parts still being typed count as 0); undefined for a type whose line amounts are typed.
 */
export function liveLineAmount(decl: BillTypeDecl, row: Record<string, unknown>, digits: number): Micro | undefined {
  if (!decl.lineAmount) return undefined;
  const keys = [...decl.lineAmount.plus, ...decl.lineAmount.minus];
  return computedLineAmount(decl, Object.fromEntries(keys.map((k) => [k, typedDecimal(row[k]) ? String(row[k]) : '0'])), digits);
}
