import { and, eq, getTableColumns, inArray, is, ne, SQL, sql } from 'drizzle-orm';
import { lineAmounts, type AmountRules } from '@p8/contract/bills/amounts';
import { BILL_TYPES, downstreamTypes } from '@p8/contract/bills/catalogue';
import { MAX_MICRO, microText, mul, roundTo, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { countsInTotals, headerFields, isTwinLine, lineFields, lineKindOf, meets, offeredBase, type BillPayload, type BillTypeDecl, type FieldCondition, type SourceDecl } from '@p8/contract/bills/registry';
import { type BillStatus } from '@p8/contract/bills/status';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { nextBillCode } from '../core/code-generator.ts';
import { BizError, refusal } from '../core/errors.ts';
import { creatorDeptId } from '../core/data-scope.ts';
import { assertRefsExist, type NamedRecord } from '../core/record-refs.ts';
import { distinct } from '../core/ids.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { readTenantConfig } from '../core/tenant-config.ts';
import { type Tx } from '../db/connection.ts';
import { bill, billLine, material, materialUnit } from '../db/schema/index.ts';
import { checkTake, openQuantity } from './progress.ts';
import { allows, transition } from './state-machine.ts';
import { assertBillDate } from './dates.ts';
import { assertInspected, type InspectedTake } from './inspection.ts';
import { checkSerials } from './stock-rules.ts';
import { linkSettlements, prepareMoneyLines } from './settlement-lines.ts';
import { settleBillCurrency } from './currency.ts';

import { type BillRow, HEADER_COLUMNS, LINE_COLUMNS, type LineRow, POSTED, assertCreator, linesWithBills, loadBill, lockBills, recordTransition } from './bill-rows.ts';

/*
 * Saving bills, for every type of the registry: a payload checked against the type, the tenant's switches and
 * the records it names, then written with its lines linked to their sources (create, edit, delete, merge).
 */

// ---------------------------------------------------------------- saving

export interface MaterialInfo {
  id: number;
  enabled: boolean;
  batch: boolean;
  serial: boolean;
  /** Its business tags (sale, purchase, consumables…). */
  tags: string[];
  mainUnitId: number | null;
  /** Ratio to the main unit by unit id. */
  ratios: Map<number, Micro>;
}

/** A payload line's quantity in its material's main unit (the unit's ratio from `loadMaterials`; none: 1). */
export const mainUnitQuantity = (line: Record<string, unknown>, materials: Map<number, MaterialInfo>): Micro =>
  mul(toMicro(Number(line.number)), (line.unitId ? materials.get(Number(line.materialId))?.ratios.get(Number(line.unitId)) : undefined) ?? toMicro(1));

export async function loadMaterials(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, MaterialInfo>> {
  if (!ids.length) return new Map();
  const found = await tx
    .select({ id: material.id, enabled: material.enabled, batch: material.batchNumber, serial: material.serialNumber, tags: material.tags })
    .from(material)
    .where(and(eq(material.tenantId, tenantId), inArray(material.id, ids)));
  const units = await tx
    .select({ materialId: materialUnit.materialId, unitId: materialUnit.unitId, ratio: sql<string>`${materialUnit.ratio}::text`, isMain: materialUnit.isMain })
    .from(materialUnit)
    .where(and(eq(materialUnit.tenantId, tenantId), inArray(materialUnit.materialId, ids)));
  const map = new Map<number, MaterialInfo>(found.map((m) => [m.id, { ...m, mainUnitId: null, ratios: new Map() }]));
  for (const u of units) {
    const info = map.get(u.materialId);
    if (!info) continue;
    info.ratios.set(u.unitId, toMicro(u.ratio));
    if (u.isMain) info.mainUnitId = u.unitId;
  }
  return map;
}

const amountRules = (config: TenantConfig): AmountRules => ({ numberDigits: config.numberRetainsSmallDigit, amountDigits: config.amountRetainsSmallDigit, tax: config.openTaxRate, discount: config.openDiscount });

/** Whether this bill moves stock (its type's effect, and the header condition of refunds). */
export const movesStock = (decl: BillTypeDecl, header: Record<string, unknown>) => decl.stock !== 'none' && meets(decl.stockWhen, header);

interface PreparedLine {
  values: typeof billLine.$inferInsert;
  sourceLineId: number | null;
  baseNumber: Micro;
}

/**
 * Checks a save payload against the type, the tenant's switches and the records it names, and returns
 * the rows to write. Does not touch the bill tables.
 */
async function prepare(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload, config: TenantConfig, billId: number) {
  assertBillDate(String(payload.billDate), config);
  assertTypeOpen(decl, config);
  const completeLines = ctx.registries.billRules.of(decl.type).completeLines;
  if (completeLines) payload.lines = await completeLines(ctx, decl, payload);
  assertSwitchedOn(headerFields(decl), payload, config);
  const lineOffFields = lineFields(decl).filter((f) => f.offRefusal && f.switch && !config[f.switch]);
  payload.lines.forEach((line, index) => assertSwitchedOn(lineOffFields, line, config, index + 1));
  const header: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const field of headerFields(decl)) {
    if (field.readOnly || field.key === 'billCode') continue;
    // Columns that are never null: an empty remark, no attachments.
    const value = payload[field.key] ?? (field.key === 'remark' ? '' : field.key === 'attachments' ? [] : null);
    if (HEADER_COLUMNS.has(field.key)) header[field.key] = value;
    else if (value !== null) extra[field.key] = value;
  }
  // A commercial bill's currency and rate: the partner's currency, the bill date's rate (docs/cross-border.md).
  if (decl.currency) {
    const settled = lineKindOf(decl) === 'settlement' ? payload.lines.map((l) => l.sourceBillId).filter((id): id is number => typeof id === 'number') : [];
    await settleBillCurrency(ctx, header, extra, settled);
  }
  if (lineKindOf(decl) !== 'material') {
    const money = prepareMoneyLines(ctx, decl, payload, config, billId);
    await assertNamedRecords(ctx, decl, { ...header, ...extra }, money.lines);
    await ctx.registries.billRules.of(decl.type).saving?.(ctx, decl, {
      billId,
      header: { ...header, ...extra },
      lines: money.lines.map((l) => ({ sourceBillId: l.sourceBillId, amount: l.amount, extra: l.values.extra })),
      total: money.totals.priceTotal,
    });
    return { header, extra, lines: money.lines as PreparedLine[], totals: money.totals };
  }
  const stock = movesStock(decl, header);
  const lines = payload.lines;
  const materials = await loadMaterials(ctx.tx, ctx.tenantId, distinct(lines.map((l) => Number(l.materialId))));
  const rules = amountRules(config);
  const prepared: PreparedLine[] = [];
  // A read-only field is the server's: kept where the type's own rules completed the lines (an inspection's
  // template and verdict) — a request never carries one (the payload schema leaves read-only fields out).
  const ownLineFields = lineFields(decl).filter((f) => (!f.readOnly || completeLines) && !LINE_COLUMNS.has(f.key));
  lines.forEach((line, index) => {
    const info = materials.get(Number(line.materialId));
    if (!info) throw refusal('MaterialNotExist', {}, { line: index + 1 });
    if (!info.enabled) throw refusal('MaterialIsDisabled', { materialId: info.id }, { line: index + 1 });
    if (decl.materialTag && !info.tags.includes(decl.materialTag.tag)) throw refusal(decl.materialTag.refusal, { materialId: info.id }, { line: index + 1 });
    const unitId = (line.unitId as number | null | undefined) ?? info.mainUnitId;
    const ratio = unitId === null ? toMicro(1) : info.ratios.get(unitId);
    if (ratio === undefined) throw refusal('UnitNotExist', { materialId: info.id }, { line: index + 1 });
    const amounts = lineAmounts({ number: line.number as number, unitPrice: line.unitPrice as number, taxRate: line.taxRate as number, discountRate: line.discountRate as number }, rules);
    const baseNumber = mul(amounts.number, ratio);
    // Beyond numeric(20,6): refused here rather than by the database.
    if ([baseNumber, amounts.priceTotal, amounts.taxPriceTotal, amounts.taxUnitPrice].some((v) => v > MAX_MICRO || v < -MAX_MICRO)) throw refusal('AmountOutOfRange', {}, { line: index + 1 });
    const warehouseId = (line.warehouseId as number | null | undefined) ?? (header.warehouseId as number | null) ?? null;
    const targetWarehouseId = (line.targetWarehouseId as number | null | undefined) ?? (header.targetWarehouseId as number | null) ?? null;
    if (decl.stock === 'transfer') {
      if (targetWarehouseId === null) throw refusal('PleaseSelectTransferInWarehouse', {}, { line: index + 1 });
      if (targetWarehouseId === warehouseId && (line.targetLocationId ?? null) === (line.locationId ?? null)) {
        throw refusal(line.locationId ? 'TransferLocationSame' : 'TransferWarehouseSame', {}, { line: index + 1 });
      }
    }
    const serialNumbers = config.openSerialNumber && info.serial ? ((line.serialNumbers as string[] | null) ?? []) : [];
    const batchNumber = config.openBatchNumber && info.batch ? String(line.batchNumber ?? '').trim() : '';
    if (stock && decl.stock !== 'check') {
      if (config.openSerialNumber && info.serial && toMicro(serialNumbers.length) !== baseNumber) throw refusal('SerialNumberCountMismatch', {}, { line: index + 1 });
      if (config.openBatchNumber && info.batch && !batchNumber) throw refusal('PleaseInputBatchNumber', {}, { line: index + 1 });
    }
    const lineExtra: Record<string, unknown> = {};
    for (const f of ownLineFields) if (line[f.key] !== undefined && line[f.key] !== null) lineExtra[f.key] = line[f.key];
    prepared.push({
      sourceLineId: (line.sourceLineId as number | null | undefined) ?? null,
      baseNumber,
      values: {
        tenantId: ctx.tenantId,
        billId,
        lineNo: index + 1,
        materialId: info.id,
        unitId,
        number: microText(amounts.number),
        baseNumber: microText(baseNumber),
        giftNumber: microText(roundTo(toMicro((line.giftNumber as number | null) ?? 0), rules.numberDigits)),
        unitPrice: microText(amounts.unitPrice),
        taxRate: microText(amounts.taxRate),
        taxUnitPrice: microText(amounts.taxUnitPrice),
        discountRate: microText(amounts.discountRate),
        priceTotal: microText(amounts.priceTotal),
        taxPriceTotal: microText(amounts.taxPriceTotal),
        warehouseId,
        locationId: (line.locationId as number | null | undefined) ?? null,
        batchNumber,
        expirationDate: batchNumber ? ((line.expirationDate as string | null | undefined) ?? null) : null,
        serialNumbers,
        targetWarehouseId: decl.stock === 'transfer' ? targetWarehouseId : null,
        targetLocationId: decl.stock === 'transfer' ? ((line.targetLocationId as number | null | undefined) ?? null) : null,
        remark: String(line.remark ?? ''),
        extra: lineExtra,
        sourceLineId: null,
        sourceBillId: null,
      },
    });
  });
  const counted = prepared.filter((p) => countsInTotals(decl, p.values.extra as Record<string, unknown>));
  const totals = {
    number: sum(counted.map((p) => toMicro(p.values.number!))),
    priceTotal: sum(counted.map((p) => toMicro(p.values.priceTotal!))),
    taxPriceTotal: sum(counted.map((p) => toMicro(p.values.taxPriceTotal!))),
  };
  if (Object.values(totals).some((v) => v > MAX_MICRO)) throw new BizError('AmountOutOfRange');

  await assertNamedRecords(ctx, decl, { ...header, ...extra }, prepared);
  if (stock) await checkSerials(ctx, decl, billId, prepared.map((p) => p.values as LineRow), true);
  return { header, extra, lines: prepared, totals };
}

/**
 * A field whose tenant switch is off and that declares `offRefusal` takes no value: one sent is refused (a
 * storage location while the tenant keeps none). `lineNo` names the line in the refusal.
 */
function assertSwitchedOn(fields: readonly FieldDecl[], values: Record<string, unknown>, config: TenantConfig, lineNo?: number) {
  for (const field of fields) {
    if (!field.offRefusal || !field.switch || config[field.switch]) continue;
    const value = values[field.key];
    if (value !== undefined && value !== null && value !== '') throw new BizError(field.offRefusal, lineNo === undefined ? undefined : { additional: lineNo });
  }
}

/** The line fields of `decl` whose tenant switch is off: push down copies none of them from the source. */
export const switchedOffLineKeys = (decl: BillTypeDecl, config: TenantConfig) => new Set(lineFields(decl).filter((f) => f.switch && !config[f.switch]).map((f) => f.key));

/** A material line's material and unit, checked with the line itself (an enabled material, one of its own units). */
const CHECKED_WITH_THE_MATERIAL = new Set(['materialId', 'unitId']);

const namedFieldsOf = new Map<string, { header: FieldDecl[]; lines: FieldDecl[] }>();
/**
 * The fields of a type that name records, header and lines — on a material line all but its material and unit,
 * which the line's own check reads (built once per type: save and detail ask it on every request).
 */
export function namedRecordFields(decl: BillTypeDecl): { header: FieldDecl[]; lines: FieldDecl[] } {
  let found = namedFieldsOf.get(decl.type);
  if (!found) {
    const material = lineKindOf(decl) === 'material';
    found = {
      header: headerFields(decl).filter((f) => f.kind === 'record'),
      lines: lineFields(decl).filter((f) => f.kind === 'record' && !(material && CHECKED_WITH_THE_MATERIAL.has(f.key))),
    };
    namedFieldsOf.set(decl.type, found);
  }
  return found;
}

/**
 * Every record a bill's header and lines name (fields of kind `record`) is one of the tenant's, of its kind
 * (core/record-refs.ts), inside the parent the same values name (a line's location in its warehouse, a BOM of
 * its material) — else the kind's catalogued refusal, naming the line when a line names it.
 */
async function assertNamedRecords(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>, lines: ReadonlyArray<{ values: typeof billLine.$inferInsert }>) {
  const wanted = new Map<string, NamedRecord[]>();
  const add = (field: FieldDecl, valueOf: (key: string) => unknown, line?: number) => {
    const id = valueOf(field.key);
    if (typeof id !== 'number') return;
    const parent = field.within ? ((valueOf(field.within) ?? header[field.within]) as number | null | undefined) : undefined;
    const items = wanted.get(field.ref!);
    if (items) items.push({ id, parent, line });
    else wanted.set(field.ref!, [{ id, parent, line }]);
  };
  const named = namedRecordFields(decl);
  for (const field of named.header) add(field, (key) => header[key]);
  for (const { values } of lines) for (const field of named.lines) add(field, (key) => lineValue(values, key), values.lineNo);
  for (const [ref, items] of wanted) await assertRefsExist(ctx.tx, ctx.tenantId, ref, items);
  assertLinesNameTheirOwn(decl, lines);
}

/**
 * A prepared line's field: its column, else its extra field — read in place: a merged copy of every line (22,000
 * for a large MRP plan) cost a second of the save in objects the collector then had to sweep.
 */
function lineValue(values: typeof billLine.$inferInsert, key: string): unknown {
  const row = values as Record<string, unknown>;
  return row[key] !== undefined ? row[key] : (values.extra as Record<string, unknown> | null)?.[key];
}

/** Every line field naming another line of the bill (`ofLines`) names the material of one of them, else its refusal. */
function assertLinesNameTheirOwn(decl: BillTypeDecl, lines: ReadonlyArray<{ values: typeof billLine.$inferInsert }>) {
  const fields = decl.lines.filter((f) => f.ofLines);
  if (!fields.length) return;
  for (const field of fields) {
    const { lines: named, refusal: key } = field.ofLines!;
    const offered = new Set(lines.filter(({ values }) => named.values.includes(String(lineValue(values, named.field) ?? ''))).map(({ values }) => Number(values.materialId)));
    for (const { values } of lines) {
      const value = lineValue(values, field.key);
      if (typeof value === 'number' && !offered.has(value)) throw refusal(key, {}, { line: values.lineNo });
    }
  }
}

async function linkLines(ctx: ServiceContext, decl: BillTypeDecl, billId: number, prepared: Awaited<ReturnType<typeof prepare>>, config: TenantConfig) {
  // The bills the lines name, locked before anything of theirs is read (lockBills): the checks below see
  // them as a concurrent withdrawal leaves them, and such a withdrawal waits and then sees this bill.
  await lockBills(ctx, await namedSourceBills(ctx, decl, prepared.lines));
  if (lineKindOf(decl) === 'settlement') {
    const lines = prepared.lines as unknown as Array<{ sourceBillId: number | null; amount: Micro }>;
    // A type that only settles (a salary payment) has nothing to save without a bill to settle.
    if (decl.sourceRequired && !lines.length) throw new BizError('PleaseSelectSourceBill');
    await linkSettlements(ctx, decl, billId, lines, { ...prepared.header, ...prepared.extra });
  } else if (lineKindOf(decl) === 'material' && (await linkSources(ctx, decl, billId, prepared.lines, config))) {
    // Lines from a `negative` source: the header totals count negative (a red-letter invoice).
    prepared.totals.number = -prepared.totals.number;
    prepared.totals.priceTotal = -prepared.totals.priceTotal;
    prepared.totals.taxPriceTotal = -prepared.totals.taxPriceTotal;
  }
}

/** The bills a save payload's lines name: settled bills, or the bills of the source lines named. */
async function namedSourceBills(ctx: ServiceContext, decl: BillTypeDecl, lines: ReadonlyArray<PreparedLine & { sourceBillId?: number | null }>): Promise<number[]> {
  if (lineKindOf(decl) === 'settlement') return lines.map((l) => l.sourceBillId).filter((id): id is number => typeof id === 'number');
  const sourceLineIds = distinct(lines.map((l) => l.sourceLineId).filter((id): id is number => id !== null));
  if (!sourceLineIds.length) return [];
  const found = await ctx.tx
    .selectDistinct({ billId: billLine.billId })
    .from(billLine)
    .where(and(eq(billLine.tenantId, ctx.tenantId), inArray(billLine.id, sourceLineIds)));
  return found.map((f) => f.billId);
}

/**
 * Push-down lines: each names an open line of an audited source bill of a type this type may be pushed
 * from. The source lines are locked, so two drafts saved at once cannot both take the same open quantity.
 * Answers whether a line came from a source declared `negative`.
 */
export async function linkSources(ctx: ServiceContext, decl: BillTypeDecl, billId: number, lines: PreparedLine[], config: TenantConfig): Promise<boolean> {
  // The twins of paired lines (an exchange's replacements) take from nothing: neither sourced nor additional.
  const isTwin = (l: PreparedLine) => isTwinLine(decl, l.values.extra as Record<string, unknown>);
  for (const line of lines) if (isTwin(line)) line.sourceLineId = null;
  const unsourced = lines.findIndex((l) => l.sourceLineId === null && !isTwin(l));
  if (decl.sourceRequired && unsourced >= 0) throw refusal('PleaseSelectSourceBill', {}, { line: unsourced + 1 });
  const ids = distinct(lines.map((l) => l.sourceLineId).filter((id): id is number => id !== null));
  assertDirectAllowed(decl, config, ids.length > 0);
  if (!ids.length) return false;
  // Locked: two drafts saved at once cannot both take the same open quantity.
  const sources = (await linesWithBills(ctx, ids, true)).map(({ line, head }) => ({ ...line, billType: head.billType, billStatus: head.billStatus, head }));
  const byId = new Map(sources.map((s) => [s.id, s]));
  const taken = new Map<number, Micro>();
  for (const sourceType of distinct(sources.map((s) => s.billType))) {
    const ofType = sources.filter((s) => s.billType === sourceType).map((s) => s.id);
    for (const [id, quantity] of await takenBySource(ctx.tx, ctx.tenantId, ofType, sharingTypes(decl, sourceType), billId)) taken.set(id, quantity);
  }
  const additional = new Set<SourceDecl>();
  const inspected: InspectedTake[] = [];
  for (const line of lines) {
    if (line.sourceLineId === null) continue;
    const source = byId.get(line.sourceLineId);
    const sourceDecl = source && decl.sources.find((s) => s.type === source.billType);
    if (!source || !sourceDecl) throw new BizError('SourceBillNotExist', { additional: line.sourceLineId });
    if (!allows(source.billStatus as BillStatus, 'pushDown')) throw new BizError(POSTED.has(source.billStatus) ? (sourceDecl.closedRefusal ?? 'BillAllPushed') : 'SourceBillNotAudit', { additional: line.sourceLineId });
    // Not the line's material, or a line of a role this type does not take (a production order's product, for a pick).
    if (source.materialId !== line.values.materialId || !meets(sourceDecl.fromLines, source.extra as Record<string, unknown>)) throw new BizError('SourceBillNotExist', { additional: line.sourceLineId });
    assertSourceMeets(sourceDecl, source.head);
    // What the line offers this type: its quantity, or the field the source declares (a report's scrapped pieces).
    const open = openQuantity(offeredBase(sourceDecl, { ...source, extra: source.extra as Record<string, unknown> }), taken.get(source.id) ?? 0n, source.closed);
    const free = Boolean(sourceDecl.freeLines && config[sourceDecl.freeLines.switch] && meets(sourceDecl.freeLines.lines, source.extra as Record<string, unknown>));
    checkTake(line.baseNumber, open, free || Boolean(sourceDecl.beyondSwitch && config[sourceDecl.beyondSwitch]), {
      line: line.values.lineNo,
      refs: { materialId: source.materialId, billId: source.billId },
    });
    // Several lines of this bill may take from one source line.
    taken.set(source.id, (taken.get(source.id) ?? 0n) + line.baseNumber);
    line.values.sourceLineId = source.id;
    line.values.sourceBillId = source.billId;
    additional.add(sourceDecl);
    if (sourceDecl.inspectedBy) {
      const warehouseId = (line.values.warehouseId as number | null | undefined) ?? null;
      inspected.push({ lineNo: line.values.lineNo!, sourceLineId: source.id, materialId: line.values.materialId as number, baseNumber: line.baseNumber, warehouseId, source: sourceDecl });
    }
  }
  // Goods that wait for an inspection: no more than audited inspections accepted (or rejected, into a reject
  // warehouse) of their source lines.
  if (inspected.length) await assertInspected(ctx, billId, inspected);
  // A pushed-down bill holds only source lines, unless the type's "additional" switch is on. Lines of another
  // role than the sources give (a production order's materials beside the products taken from a sale order)
  // are not additional goods.
  const sourcedRole = (l: PreparedLine) => [...additional].every((s) => Object.entries(s.lineDefaults ?? {}).every(([key, value]) => String((l.values.extra as Record<string, unknown>)[key] ?? '') === value));
  const extraLines = lines.some((l) => l.sourceLineId === null && !isTwin(l) && sourcedRole(l));
  if (extraLines && ![...additional].every((s) => s.additionalSwitch && config[s.additionalSwitch])) throw new BizError('PleaseSelectSourceBill');
  return [...additional].some((s) => s.negative);
}

/**
 * A bill none of whose lines comes from a source line is a direct bill: a type declaring `directNeedsSwitch`
 * allows it only while that tenant switch is on (saving and submitting check it).
 */
export function assertDirectAllowed(decl: BillTypeDecl, config: TenantConfig, sourced: boolean) {
  if (!sourced && decl.directNeedsSwitch && !config[decl.directNeedsSwitch]) throw new BizError('DirectBillNotOpen', { additional: decl.directNeedsSwitch });
}

/** A type that a tenant switch opens (`opensWith`) takes no save, submit or audit while the switch is off. */
export function assertTypeOpen(decl: BillTypeDecl, config: TenantConfig) {
  if (decl.opensWith && !config[decl.opensWith.switch]) throw new BizError(decl.opensWith.refusal, { additional: decl.opensWith.switch });
}

/** A source bill must meet its declaration's `onlyWhen` (refund types: only exchanges to exchange bills…). */
export function assertSourceMeets(source: SourceDecl, head: BillRow) {
  if (!meets(source.onlyWhen, { ...head, ...(head.extra as Record<string, unknown>) })) {
    throw new BizError(source.onlyWhenRefusal ?? 'CurrentStatusBillProhibitPushDown', { additional: head.billCode });
  }
}

/**
 * A condition on a bill's header field (a column, or a type's own field in `extra`) as SQL on the bill table
 * aliased `alias` — or, with `table` billLine, on a line's field (a production order line's role).
 */
export function conditionSql(condition: FieldCondition, alias: string, table: typeof bill | typeof billLine = bill): SQL {
  const column = (table as unknown as Record<string, { name: string } | undefined>)[condition.field]?.name;
  // A type's own header field (an opening balance's type) is kept in `extra`.
  const value = column ? sql`${sql.raw(`${alias}.${column}`)}::text` : sql`${sql.raw(`${alias}.extra`)} ->> ${condition.field}`;
  return sql`coalesce(${value}, '') in (${sql.join(condition.values.map((v) => sql`${v}`), sql`, `)})`;
}

/**
 * Which downstream bills of a source of `sourceType` drive its progress: all but those whose type's
 * `drivesWhen` they miss (a refund-only bill sends no goods back).
 */
export function drivingSql(sourceType: string, alias: string): SQL {
  const misses = BILL_TYPES.flatMap((d) => {
    const when = d.sources.find((s) => s.type === sourceType)?.drivesWhen;
    return when ? [sql`(${sql.raw(`${alias}.bill_type`)} = ${d.type} and not ${conditionSql(when, alias)})`] : [];
  });
  return misses.length ? sql`not (${sql.join(misses, sql` or `)})` : sql`true`;
}

/**
 * The downstream types whose lines take from the same open quantity of a `sourceType` line as `decl`'s
 * lines do: all of them, except that a source declared `apart` (invoices) shares only with the types that
 * are apart too and drive the same progress.
 */
export function sharingTypes(decl: BillTypeDecl, sourceType: string): string[] {
  const mine = decl.sources.find((s) => s.type === sourceType);
  return downstreamTypes(sourceType)
    .filter((d) => {
      const theirs = d.sources.find((s) => s.type === sourceType)!;
      return Boolean(mine?.apart) === Boolean(theirs.apart) && (!mine?.apart || mine.drives === theirs.drives);
    })
    .map((d) => d.type);
}

/**
 * Main-unit quantity taken from each source line by downstream lines of `types` (any status but Merged),
 * other than `exceptBillId`'s. The downstream lines by their source key, then their bills by theirs: joined,
 * a planner whose statistics still counted a handful of bills drove the join from the bill side and probed
 * the lines once for every bill of the tenant (1.5 ms a push down after 1,000 of them, growing with each;
 * bench/README.md "mrp"). A line nothing took from yet costs the first lookup only.
 */
export async function takenBySource(tx: Tx, tenantId: number, sourceLineIds: number[], types: string[], exceptBillId = 0): Promise<Map<number, Micro>> {
  if (!sourceLineIds.length || !types.length) return new Map();
  const downstream = await tx
    .select({ billId: billLine.billId, sourceLineId: billLine.sourceLineId, baseNumber: billLine.baseNumber })
    .from(billLine)
    .where(and(eq(billLine.tenantId, tenantId), inArray(billLine.sourceLineId, sourceLineIds), ne(billLine.billId, exceptBillId)));
  if (!downstream.length) return new Map();
  const counted = new Set(
    (await tx
      .select({ id: bill.id })
      .from(bill)
      .where(and(eq(bill.tenantId, tenantId), inArray(bill.id, distinct(downstream.map((d) => d.billId))), ne(bill.billStatus, 'Merged'), inArray(bill.billType, types)))).map((b) => b.id),
  );
  const taken = new Map<number, Micro>();
  for (const d of downstream) if (counted.has(d.billId)) taken.set(d.sourceLineId!, (taken.get(d.sourceLineId!) ?? 0n) + toMicro(d.baseNumber));
  return taken;
}

/** POST {path}: a new bill in status Saved. */
export async function createBill(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<{ id: number; billCode: string }> {
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const billDate = String(payload.billDate);
  const prepared = await prepare(ctx, decl, payload, config, 0);
  await linkLines(ctx, decl, 0, prepared, config);
  // The code and the bill row last: drawing the code and inserting the bill (whose trigger counts it) lock
  // shared rows until the commit, so they come after every check.
  const typed = typeof payload.billCode === 'string' && payload.billCode.trim() ? payload.billCode.trim() : undefined;
  const billCode = typed ?? (await nextBillCode(ctx.tx, ctx.tenantId, decl.type, decl.codePrefix, billDate));
  const [created] = await ctx.tx
    .insert(bill)
    .values({
      ...prepared.header,
      tenantId: ctx.tenantId,
      billType: decl.type,
      billCode,
      billDate,
      billStatus: 'Saved',
      extra: prepared.extra,
      number: microText(prepared.totals.number),
      priceTotal: microText(prepared.totals.priceTotal),
      taxPriceTotal: microText(prepared.totals.taxPriceTotal),
      createdBy: ctx.account.adminId,
      ownerDeptId: await creatorDeptId(ctx),
    })
    .returning({ id: bill.id });
  for (const line of prepared.lines) line.values.billId = created.id;
  await insertLines(ctx.tx, prepared.lines);
  await ctx.registries.billPostingHooks.saved(ctx, decl, created.id);
  await recordTransition(ctx, created.id, 'create', null, 'Saved');
  ctx.audit({ action: 'create', entity: decl.type, entityId: created.id, detail: { billCode } });
  return { id: created.id, billCode };
}

/**
 * The line table's columns as an insert writes them (the id is the database's): name, SQL type, and the
 * default of a column a line leaves out — a value, or SQL the insert falls back to (`coalesce`).
 */
const LINE_INSERT_COLUMNS = Object.entries(getTableColumns(billLine))
  .filter(([key]) => key !== 'id')
  .map(([key, column]) => ({ key, column, name: column.name, type: column.getSQLType(), sqlDefault: is(column.default, SQL) ? (column.default as SQL) : undefined }));

/**
 * Writes the lines in statements of up to 5,000 rows, each one JSON parameter read by `jsonb_to_recordset`:
 * a plan's 20,000 suggestions are four statements of one parameter each, not 40 of 12,500 bound values
 * that the driver and the database would each take apart.
 */
async function insertLines(tx: Tx, lines: PreparedLine[]) {
  const names = sql.raw(LINE_INSERT_COLUMNS.map((c) => `"${c.name}"`).join(', '));
  const shape = sql.raw(LINE_INSERT_COLUMNS.map((c) => `"${c.name}" ${c.type}`).join(', '));
  const picked = sql.join(
    LINE_INSERT_COLUMNS.map((c) => (c.sqlDefault ? sql`coalesce(r.${sql.identifier(c.name)}, ${c.sqlDefault})` : sql`r.${sql.identifier(c.name)}`)),
    sql`, `,
  );
  for (let i = 0; i < lines.length; i += 5000) {
    const rows = lines.slice(i, i + 5000).map((line) => {
      const row: Record<string, unknown> = {};
      for (const c of LINE_INSERT_COLUMNS) {
        const value = (line.values as Record<string, unknown>)[c.key] ?? (c.sqlDefault ? undefined : c.column.default);
        if (value === undefined || value === null) continue;
        // jsonb stays a JSON value in the document; the others as the driver would send them.
        row[c.name] = c.type === 'jsonb' ? value : c.column.mapToDriverValue(value);
      }
      return row;
    });
    await tx.execute(sql`insert into bill_line (${names}) select ${picked} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${shape})`);
  }
}

/** PUT {path}: the whole bill again; the lines sent replace the stored ones. */
export async function updateBill(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload & { id: number }): Promise<{ id: number }> {
  const row = await loadBill(ctx, decl, payload.id, true);
  assertCreator(ctx, row);
  const to = transition(row.billStatus as BillStatus, 'save');
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const prepared = await prepare(ctx, decl, payload, config, row.id);
  await ctx.tx.delete(billLine).where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)));
  await linkLines(ctx, decl, row.id, prepared, config);
  await insertLines(ctx.tx, prepared.lines);
  await ctx.registries.billPostingHooks.saved(ctx, decl, row.id);
  const typed = typeof payload.billCode === 'string' && payload.billCode.trim() ? payload.billCode.trim() : row.billCode;
  await ctx.tx
    .update(bill)
    .set({
      ...prepared.header,
      billCode: typed,
      billDate: String(payload.billDate),
      billStatus: to,
      extra: prepared.extra,
      number: microText(prepared.totals.number),
      priceTotal: microText(prepared.totals.priceTotal),
      taxPriceTotal: microText(prepared.totals.taxPriceTotal),
      updatedAt: new Date(),
    })
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, row.id)));
  await recordTransition(ctx, row.id, 'update', row.billStatus, to);
  ctx.audit({ action: 'update', entity: decl.type, entityId: row.id, detail: { billCode: typed } });
  return { id: row.id };
}

/** DELETE {path} `{ ids }`: drafts only, by their creator. */
export async function deleteBills(ctx: ServiceContext, decl: BillTypeDecl, ids: number[]): Promise<void> {
  for (const id of distinct(ids).sort((a, b) => a - b)) {
    const row = await loadBill(ctx, decl, id, true);
    assertCreator(ctx, row);
    transition(row.billStatus as BillStatus, 'delete');
    await ctx.tx.delete(bill).where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, id)));
  }
  ctx.audit({ action: 'delete', entity: decl.type, entityId: ids });
}
