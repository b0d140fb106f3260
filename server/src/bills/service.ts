import { and, asc, desc, eq, inArray, isNotNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { lineAmounts, type AmountRules } from '@p8/contract/bills/amounts';
import type { BillAuditAnswer, BillSourceBill, BillSourceLine, BillTransitionView } from '@p8/contract/bills/api';
import { BILL_TYPES, downstreamTypes, passesProgressOn, progressRollups, billType as findBillType } from '@p8/contract/bills/catalogue';
import { div, MAX_MICRO, microNumber, microText, mul, roundTo, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BILL_HEADER_COLUMNS, BILL_LINE_COLUMNS, nameKey } from '@p8/contract/bills/fields';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { fieldShown, headerFields, isTwinLine, lineDirection, lineFields, lineKindOf, meets, type BillPayload, type BillTypeDecl, type FieldCondition, type SourceDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES, PROGRESS_STATES, type BillOperation, type BillStatus, type ProgressKind } from '@p8/contract/bills/status';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { nextBillCode } from '../core/code-generator.ts';
import { BizError, forbidden, refusal } from '../core/errors.ts';
import { creatorDeptId } from '../core/data-scope.ts';
import { assertRefsExist, refNames, type NamedRecord } from '../core/record-refs.ts';
import { distinct } from '../core/ids.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { readTenantConfig } from '../core/tenant-config.ts';
import { rows, type Tx } from '../db/connection.ts';
import { admin, bill, billLine, billTransition, material, materialUnit, unit, verifyRule, verifyRuleReviewer } from '../db/schema/index.ts';
import { billScope } from './list.ts';
import { checkTake, openQuantity, overallProgress, progressState } from './progress.ts';
import { reviewOutcome, type ReviewFlow } from './review.ts';
import { allows, progressStatus, transition } from './state-machine.ts';
import { postMovements, reversePosting, type PostingBill } from './stock.ts';
import { assertBillDate } from './dates.ts';
import { movementsOf, valuationInputs } from './stock-movements.ts';
import { assertNotInventorying, checkSerials, localDay } from './stock-rules.ts';
import { linkSettlements, openSourceBills, prepareMoneyLines, settlementLineViews, settlementPushLines, settlementState } from './settlement-lines.ts';

/**
 * The bill engine's operations, for every type of the registry. Each takes a ServiceContext (the
 * transaction, the tenant, who acts), never an HTTP request: push down calls `createBill` directly, and
 * so can a job or an automatic audit. Each runs inside the caller's one transaction; a refusal throws a
 * catalogued BizError and nothing of the operation stays.
 */

export type BillRow = typeof bill.$inferSelect;
/**
 * A stored line. The column `material_id` is null on lines of money (settlement, account, fee, staff); the
 * code that reads a line's material (stock, serials, push down of quantities) only ever meets material lines.
 */
type LineRow = Omit<typeof billLine.$inferSelect, 'materialId'> & { materialId: number };

const HEADER_COLUMNS = new Set<string>(BILL_HEADER_COLUMNS);
const LINE_COLUMNS = new Set<string>(BILL_LINE_COLUMNS);
const POSTED = new Set<string>(POSTED_STATUSES);

// ---------------------------------------------------------------- reading

/**
 * The bill of `decl`'s type with `id`, locked for the rest of the transaction when `lock`. Every read or write
 * of a bill by id goes through here: a bill outside the caller's data scope is answered as missing.
 */
export async function loadBill(ctx: ServiceContext, decl: BillTypeDecl, id: number, lock = false): Promise<BillRow> {
  const query = ctx.tx
    .select()
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, id), eq(bill.billType, decl.type), await billScope(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new BizError('BillNotExist', { additional: id });
  return row;
}

async function loadLines(tx: Tx, tenantId: number, billId: number): Promise<LineRow[]> {
  return (await tx
    .select()
    .from(billLine)
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.billId, billId)))
    .orderBy(asc(billLine.lineNo), asc(billLine.id))) as LineRow[];
}

/** Only the creator operates a bill (auditing and withdrawing an audit are reviewers' steps instead). */
function assertCreator(ctx: ServiceContext, row: BillRow) {
  if (row.createdBy !== ctx.account.adminId) throw forbidden('OnlyCreatorCanOperate');
}

async function accountName(ctx: ServiceContext): Promise<string> {
  return (await accountNames(ctx, [ctx.account.adminId]))[0] ?? '';
}

/** Display names (real name, else login name) of accounts of the tenant, in the order of `ids`. */
async function accountNames(ctx: ServiceContext, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const found = await ctx.tx.select({ id: admin.id, name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), inArray(admin.id, ids)));
  const byId = new Map(found.map((row) => [row.id, row.realName || row.name]));
  return ids.map((id) => byId.get(id) ?? '');
}

/** Appends a step to the bill's timeline. */
export async function recordTransition(ctx: ServiceContext, billId: number, operation: BillTransitionView['operation'], from: string | null, to: string, reason = '') {
  await ctx.tx.insert(billTransition).values({ tenantId: ctx.tenantId, billId, operation, fromStatus: from, toStatus: to, reason, accountId: ctx.account.adminId, accountName: await accountName(ctx) });
}

// ---------------------------------------------------------------- saving

interface MaterialInfo {
  id: number;
  enabled: boolean;
  batch: boolean;
  serial: boolean;
  mainUnitId: number | null;
  /** Ratio to the main unit by unit id. */
  ratios: Map<number, Micro>;
}

async function loadMaterials(tx: Tx, tenantId: number, ids: number[]): Promise<Map<number, MaterialInfo>> {
  if (!ids.length) return new Map();
  const found = await tx
    .select({ id: material.id, enabled: material.enabled, batch: material.batchNumber, serial: material.serialNumber })
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
const movesStock = (decl: BillTypeDecl, header: Record<string, unknown>) => decl.stock !== 'none' && meets(decl.stockWhen, header);

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
  const ownLineFields = lineFields(decl).filter((f) => !f.readOnly && !LINE_COLUMNS.has(f.key));
  lines.forEach((line, index) => {
    const info = materials.get(Number(line.materialId));
    if (!info) throw refusal('MaterialNotExist', {}, { line: index + 1 });
    if (!info.enabled) throw refusal('MaterialIsDisabled', { materialId: info.id }, { line: index + 1 });
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
  const counted = prepared.filter((p) => !isTwinLine(decl, p.values.extra as Record<string, unknown>));
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
const switchedOffLineKeys = (decl: BillTypeDecl, config: TenantConfig) => new Set(lineFields(decl).filter((f) => f.switch && !config[f.switch]).map((f) => f.key));

/** A material line's material and unit, checked with the line itself (an enabled material, one of its own units). */
const CHECKED_WITH_THE_MATERIAL = new Set(['materialId', 'unitId']);

/**
 * Every record a bill's header and lines name (fields of kind `record`) is one of the tenant's, of its kind
 * (core/record-refs.ts), inside the parent the same values name (a line's location in its warehouse, a BOM of
 * its material) — else the kind's catalogued refusal, naming the line when a line names it.
 */
async function assertNamedRecords(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>, lines: ReadonlyArray<{ values: typeof billLine.$inferInsert }>) {
  const wanted = new Map<string, NamedRecord[]>();
  const add = (field: FieldDecl, values: Record<string, unknown>, line?: number) => {
    const id = values[field.key];
    if (typeof id !== 'number') return;
    const parent = field.within ? ((values[field.within] ?? header[field.within]) as number | null | undefined) : undefined;
    wanted.set(field.ref!, [...(wanted.get(field.ref!) ?? []), { id, parent, line }]);
  };
  for (const field of headerFields(decl)) if (field.kind === 'record') add(field, header);
  const named = lineFields(decl).filter((f) => f.kind === 'record' && !(lineKindOf(decl) === 'material' && CHECKED_WITH_THE_MATERIAL.has(f.key)));
  for (const { values } of lines) {
    const flat = { ...(values.extra as Record<string, unknown>), ...values } as Record<string, unknown>;
    for (const field of named) add(field, flat, values.lineNo);
  }
  for (const [ref, items] of wanted) await assertRefsExist(ctx.tx, ctx.tenantId, ref, items);
}

/**
 * Locks bills for the rest of the transaction, newest first, and answers them. Every bill that takes from
 * others locks them through here — saving (push down, edit, merge, import), submitting, auditing and
 * withdrawing — and withdrawing an audit locks its own bill first, so the two are taken one after the other:
 * a withdrawal that comes second sees the downstream draft (and refuses), a save that comes second sees the
 * source withdrawn (and refuses). Newest first, because a source is always older than what takes from it:
 * an operation locks its own bill, then its sources, then theirs, and bills locked together go the same way,
 * so no two operations wait on each other in a circle.
 */
export async function lockBills(ctx: ServiceContext, ids: ReadonlyArray<number>): Promise<BillRow[]> {
  const wanted = distinct(ids.filter((id): id is number => typeof id === 'number' && id > 0));
  if (!wanted.length) return [];
  return ctx.tx
    .select()
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, wanted)))
    .orderBy(desc(bill.id))
    .for('update');
}

/** The bills a stored bill's lines take from (source lines' bills, settled bills). */
async function sourceBillIdsOf(tx: Tx, tenantId: number, billId: number): Promise<number[]> {
  const found = await tx
    .selectDistinct({ id: billLine.sourceBillId })
    .from(billLine)
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.billId, billId), isNotNull(billLine.sourceBillId)));
  return found.map((f) => f.id!);
}

/**
 * The bills whose progress auditing or withdrawing `billId` changes: the bills it takes from, and theirs
 * where those pass progress on (a shipping notice to its sale order, `progressRollups`). Read unlocked: a
 * posted bill's lines do not change, and a source that has this bill downstream keeps its audit.
 */
async function progressedBillIds(ctx: ServiceContext, billId: number): Promise<number[]> {
  const found: number[] = [];
  for (let ids = await sourceBillIdsOf(ctx.tx, ctx.tenantId, billId); ids.length; ) {
    found.push(...ids);
    const passing = await ctx.tx
      .select({ id: bill.id, billType: bill.billType })
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)));
    const next: number[] = [];
    for (const p of passing) if (passesProgressOn(p.billType)) next.push(...(await sourceBillIdsOf(ctx.tx, ctx.tenantId, p.id)));
    ids = distinct(next).filter((id) => !found.includes(id));
  }
  return found;
}

/**
 * Submit and audit: the bills this one takes from, locked (see `lockBills`; for an audit with the bills its
 * progress rolls up to), must still be posted — a withdrawn source would leave this bill's progress on a bill
 * whose own audit is gone.
 */
async function lockPostedSources(ctx: ServiceContext, row: BillRow, withRollups = false): Promise<void> {
  const direct = await sourceBillIdsOf(ctx.tx, ctx.tenantId, row.id);
  const sources = await lockBills(ctx, withRollups ? await progressedBillIds(ctx, row.id) : direct);
  const withdrawn = sources.find((s) => direct.includes(s.id) && !POSTED.has(s.billStatus));
  if (withdrawn) throw new BizError('SourceBillNotAudit', { additional: withdrawn.billCode });
}

/** Links a bill's lines to what they take from: source lines (material lines) or settled bills (settlement lines). */
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
async function linkSources(ctx: ServiceContext, decl: BillTypeDecl, billId: number, lines: PreparedLine[], config: TenantConfig): Promise<boolean> {
  // The twins of paired lines (an exchange's replacements) take from nothing: neither sourced nor additional.
  const isTwin = (l: PreparedLine) => isTwinLine(decl, l.values.extra as Record<string, unknown>);
  for (const line of lines) if (isTwin(line)) line.sourceLineId = null;
  const unsourced = lines.findIndex((l) => l.sourceLineId === null && !isTwin(l));
  if (decl.sourceRequired && unsourced >= 0) throw refusal('PleaseSelectSourceBill', {}, { line: unsourced + 1 });
  const ids = distinct(lines.map((l) => l.sourceLineId).filter((id): id is number => id !== null));
  assertDirectAllowed(decl, config, ids.length > 0);
  if (!ids.length) return false;
  const sources = await ctx.tx
    .select({ id: billLine.id, billId: billLine.billId, materialId: billLine.materialId, baseNumber: billLine.baseNumber, closed: billLine.closed, billType: bill.billType, billStatus: bill.billStatus, head: bill })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    // A source outside the caller's data scope is not there for them (as in the push-down picker).
    .where(and(eq(billLine.tenantId, ctx.tenantId), inArray(billLine.id, ids), await billScope(ctx)))
    .orderBy(billLine.id)
    .for('update', { of: billLine });
  const byId = new Map(sources.map((s) => [s.id, s]));
  const taken = new Map<number, Micro>();
  for (const sourceType of distinct(sources.map((s) => s.billType))) {
    const ofType = sources.filter((s) => s.billType === sourceType).map((s) => s.id);
    for (const [id, quantity] of await takenBySource(ctx.tx, ctx.tenantId, ofType, sharingTypes(decl, sourceType), billId)) taken.set(id, quantity);
  }
  const additional = new Set<SourceDecl>();
  for (const line of lines) {
    if (line.sourceLineId === null) continue;
    const source = byId.get(line.sourceLineId);
    const sourceDecl = source && decl.sources.find((s) => s.type === source.billType);
    if (!source || !sourceDecl) throw new BizError('SourceBillNotExist', { additional: line.sourceLineId });
    if (!allows(source.billStatus as BillStatus, 'pushDown')) throw new BizError(POSTED.has(source.billStatus) ? 'BillAllPushed' : 'SourceBillNotAudit', { additional: line.sourceLineId });
    if (source.materialId !== line.values.materialId) throw new BizError('SourceBillNotExist', { additional: line.sourceLineId });
    assertSourceMeets(sourceDecl, source.head);
    const open = openQuantity(toMicro(source.baseNumber), taken.get(source.id) ?? 0n, source.closed);
    checkTake(line.baseNumber, open, Boolean(sourceDecl.beyondSwitch && config[sourceDecl.beyondSwitch]), {
      line: line.values.lineNo,
      refs: { materialId: source.materialId, billId: source.billId },
    });
    // Several lines of this bill may take from one source line.
    taken.set(source.id, (taken.get(source.id) ?? 0n) + line.baseNumber);
    line.values.sourceLineId = source.id;
    line.values.sourceBillId = source.billId;
    additional.add(sourceDecl);
  }
  // A pushed-down bill holds only source lines, unless the type's "additional" switch is on.
  if (unsourced >= 0 && ![...additional].every((s) => s.additionalSwitch && config[s.additionalSwitch])) throw new BizError('PleaseSelectSourceBill');
  return [...additional].some((s) => s.negative);
}

/**
 * A bill none of whose lines comes from a source line is a direct bill: a type declaring `directNeedsSwitch`
 * allows it only while that tenant switch is on (saving and submitting check it).
 */
function assertDirectAllowed(decl: BillTypeDecl, config: TenantConfig, sourced: boolean) {
  if (!sourced && decl.directNeedsSwitch && !config[decl.directNeedsSwitch]) throw new BizError('DirectBillNotOpen', { additional: decl.directNeedsSwitch });
}

/** A source bill must meet its declaration's `onlyWhen` (refund types: only exchanges to exchange bills…). */
function assertSourceMeets(source: SourceDecl, head: BillRow) {
  if (!meets(source.onlyWhen, { ...head, ...(head.extra as Record<string, unknown>) })) {
    throw new BizError(source.onlyWhenRefusal ?? 'CurrentStatusBillProhibitPushDown', { additional: head.billCode });
  }
}

/** A condition on a bill's header field (a column, or a type's own field in `extra`) as SQL on the bill table aliased `alias`. */
function conditionSql(condition: FieldCondition, alias: string): SQL {
  const column = (bill as unknown as Record<string, { name: string } | undefined>)[condition.field]?.name;
  // A type's own header field (an opening balance's type) is kept in `extra`.
  const value = column ? sql`${sql.raw(`${alias}.${column}`)}::text` : sql`${sql.raw(`${alias}.extra`)} ->> ${condition.field}`;
  return sql`coalesce(${value}, '') in (${sql.join(condition.values.map((v) => sql`${v}`), sql`, `)})`;
}

/**
 * Which downstream bills of a source of `sourceType` drive its progress: all but those whose type's
 * `drivesWhen` they miss (a refund-only bill sends no goods back).
 */
function drivingSql(sourceType: string, alias: string): SQL {
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
function sharingTypes(decl: BillTypeDecl, sourceType: string): string[] {
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
 * other than `exceptBillId`'s.
 */
async function takenBySource(tx: Tx, tenantId: number, sourceLineIds: number[], types: string[], exceptBillId = 0): Promise<Map<number, Micro>> {
  if (!sourceLineIds.length || !types.length) return new Map();
  const found = await tx
    .select({ sourceLineId: billLine.sourceLineId, taken: sql<string>`sum(${billLine.baseNumber})::text` })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), inArray(billLine.sourceLineId, sourceLineIds), ne(billLine.billId, exceptBillId), ne(bill.billStatus, 'Merged'), inArray(bill.billType, types)))
    .groupBy(billLine.sourceLineId);
  return new Map(found.map((f) => [Number(f.sourceLineId), toMicro(f.taken)]));
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

async function insertLines(tx: Tx, lines: PreparedLine[]) {
  for (let i = 0; i < lines.length; i += 500) await tx.insert(billLine).values(lines.slice(i, i + 500).map((l) => l.values));
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

// ---------------------------------------------------------------- status operations

async function setStatus(ctx: ServiceContext, row: BillRow, operation: BillOperation, to: BillStatus, extra: Partial<typeof bill.$inferInsert> = {}, reason = '') {
  await ctx.tx
    .update(bill)
    .set({ billStatus: to, updatedAt: new Date(), ...extra })
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, row.id)));
  await recordTransition(ctx, row.id, operation, row.billStatus, to, reason);
}

/**
 * What a draft may lack but a submitted bill may not: a stock-moving line's warehouse (a pushed-down draft
 * starts without one when its source has none).
 */
async function assertComplete(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow, lines?: LineRow[]) {
  const values: Record<string, unknown> = { ...row, ...(row.extra as Record<string, unknown>) };
  // A draft made by push down or merge skips the save schema: what it requires is asked for here (a refund's type).
  const missing = headerFields(decl).find((f) => f.required && !f.readOnly && fieldShown(f, values) && (values[f.key] === null || values[f.key] === undefined || values[f.key] === ''));
  if (missing?.required) throw new BizError(missing.required);
  await ctx.registries.billRules.of(decl.type).completing?.(ctx, decl, values);
  if (!movesStock(decl, values)) return;
  const held = lines ?? (await loadLines(ctx.tx, ctx.tenantId, row.id));
  // An assembly brings its products in at what its components took: without one side it would make goods
  // from nothing, or take components out of stock into nothing.
  if (decl.stock === 'assembly' && new Set(held.map((l) => lineDirection(decl, l.extra as Record<string, unknown>))).size < 2) throw new BizError('AssemblyNeedsBothSides');
  const unplaced = held.find((l) => l.warehouseId === null);
  if (unplaced) throw refusal('PleaseSelectWarehouse', {}, { line: unplaced.lineNo });
}

/** POST {path}/submit */
export async function submitBill(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id, true);
  assertCreator(ctx, row);
  await lockPostedSources(ctx, row);
  if (decl.directNeedsSwitch) assertDirectAllowed(decl, await readTenantConfig(ctx.tx, ctx.tenantId), (await sourceBillIdsOf(ctx.tx, ctx.tenantId, row.id)).length > 0);
  await assertComplete(ctx, decl, row);
  await setStatus(ctx, row, 'submit', transition(row.billStatus as BillStatus, 'submit'), { rejectReason: null });
  ctx.audit({ action: 'submit', entity: decl.type, entityId: id });
}

const postingOf = (row: BillRow): PostingBill => ({ id: row.id, billType: row.billType, billCode: row.billCode, billDate: row.billDate, tenantId: row.tenantId });

/**
 * The joint-review flow a bill of `decl`'s type is under: the tenant's joint review is on (`openVerify`),
 * the type is among `openVerifyBill` and its rule (joint-review screen) is enabled. Undefined: the plain
 * audit by button code. The rule in force at each step decides (a changed rule applies to bills in review).
 */
async function reviewFlowOf(ctx: ServiceContext, decl: BillTypeDecl, config: TenantConfig): Promise<ReviewFlow | undefined> {
  if (!config.openVerify || !config.openVerifyBill.includes(decl.type)) return undefined;
  const [rule] = await ctx.tx
    .select({ id: verifyRule.id, auditType: verifyRule.auditType, sequential: verifyRule.sequential })
    .from(verifyRule)
    .where(and(eq(verifyRule.tenantId, ctx.tenantId), eq(verifyRule.billType, decl.type), eq(verifyRule.enabled, true)));
  if (!rule) return undefined;
  const reviewers = await ctx.tx
    .select({ adminId: verifyRuleReviewer.adminId })
    .from(verifyRuleReviewer)
    .where(and(eq(verifyRuleReviewer.tenantId, ctx.tenantId), eq(verifyRuleReviewer.ruleId, rule.id)))
    .orderBy(asc(verifyRuleReviewer.sort), asc(verifyRuleReviewer.adminId));
  if (!reviewers.length) return undefined;
  return { auditType: rule.auditType as ReviewFlow['auditType'], sequential: rule.sequential, reviewers: reviewers.map((r) => r.adminId) };
}

/** Who approved the bill since it was last submitted (the current review round), from its timeline. */
async function approvalsThisRound(ctx: ServiceContext, billId: number): Promise<number[]> {
  const steps = await ctx.tx
    .select({ operation: billTransition.operation, accountId: billTransition.accountId })
    .from(billTransition)
    .where(and(eq(billTransition.tenantId, ctx.tenantId), eq(billTransition.billId, billId), inArray(billTransition.operation, ['submit', 'audit'])))
    .orderBy(asc(billTransition.id));
  const since = steps.findLastIndex((s) => s.operation === 'submit');
  return distinct(steps.slice(since + 1).flatMap((s) => (s.operation === 'audit' && s.accountId !== null ? [s.accountId] : [])));
}

/**
 * POST {path}/audit: approves; stock and source progress follow. Under joint review the reviewer's approval
 * may leave the bill waiting for others (UnAudit, a step on the timeline) instead: see review.ts.
 */
export async function auditBill(ctx: ServiceContext, decl: BillTypeDecl, id: number): Promise<BillAuditAnswer> {
  const row = await loadBill(ctx, decl, id, true);
  let to = transition(row.billStatus as BillStatus, 'audit');
  // Before the stock rows: the same order as every other operation on these bills (lockBills).
  await lockPostedSources(ctx, row, true);
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const flow = await reviewFlowOf(ctx, decl, config);
  if (flow) {
    const outcome = reviewOutcome(flow, await approvalsThisRound(ctx, row.id), ctx.account.adminId, 'approve');
    if (outcome.to === 'UnAudit') {
      await setStatus(ctx, row, 'audit', 'UnAudit');
      ctx.audit({ action: 'audit', entity: decl.type, entityId: id, detail: { waiting: outcome.waiting } });
      return { billStatus: 'UnAudit', message: 'WaitOthersVerify', waitingFor: await accountNames(ctx, outcome.waiting) };
    }
    to = 'Audit';
  }
  const lines = await loadLines(ctx.tx, ctx.tenantId, row.id);
  await assertComplete(ctx, decl, row, lines);
  assertBillDate(row.billDate, config);
  const header = { ...row, ...row.extra } as Record<string, unknown>;
  if (movesStock(decl, header)) {
    await assertNotInventorying(ctx, decl, row.id, lines);
    await checkSerials(ctx, decl, row.id, lines, false);
    await postMovements(ctx.tx, postingOf(row), movementsOf(decl, lines, await valuationInputs(ctx.tx, ctx.tenantId, decl, lines)), config.openNegativeInventory);
  }
  await setStatus(ctx, row, 'audit', to, { auditBy: ctx.account.adminId, auditTime: new Date(), rejectReason: null });
  await ctx.registries.billPostingHooks.audited(ctx, decl, row);
  await refreshSources(ctx, lines);
  ctx.audit({ action: 'audit', entity: decl.type, entityId: id });
  return { billStatus: to, waitingFor: [] };
}

/** POST {path}/refuse: rejects with a reason, shown on the timeline. Under joint review, one reviewer's refusal suffices. */
export async function refuseBill(ctx: ServiceContext, decl: BillTypeDecl, id: number, reason: string) {
  const row = await loadBill(ctx, decl, id, true);
  const to = transition(row.billStatus as BillStatus, 'refuse');
  const flow = await reviewFlowOf(ctx, decl, await readTenantConfig(ctx.tx, ctx.tenantId));
  if (flow) reviewOutcome(flow, await approvalsThisRound(ctx, row.id), ctx.account.adminId, 'refuse');
  await setStatus(ctx, row, 'refuse', to, { rejectReason: reason, auditBy: ctx.account.adminId, auditTime: new Date() }, reason);
  ctx.audit({ action: 'refuse', entity: decl.type, entityId: id, detail: { reason } });
}

/** Downstream bills (any status but Merged) that took lines of this bill. */
async function hasDownstream(tx: Tx, tenantId: number, billId: number, onlyUnposted = false): Promise<boolean> {
  const [found] = await tx
    .select({ id: billLine.id })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.sourceBillId, billId), onlyUnposted ? notInArray(bill.billStatus, ['Merged', ...POSTED_STATUSES]) : ne(bill.billStatus, 'Merged')))
    .limit(1);
  return Boolean(found);
}

/** POST {path}/abandonAudit: withdraws the audit; stock is reversed, the sources' progress rolls back. */
export async function abandonAudit(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id, true);
  const to = transition(row.billStatus as BillStatus, 'abandonAudit');
  // Its sources' progress rolls back below: locked now, before the stock rows (lockBills).
  await lockBills(ctx, await progressedBillIds(ctx, row.id));
  // What other modules hang on the bill (payments, invoices, MRP use, cost accounting…):
  // core/abandon-audit-blockers.ts. Asked first, as they name the reason better than "has downstream bills".
  await ctx.registries.abandonAuditBlockers.refuseIfBlocked(ctx.tx, ctx.tenantId, row.id, row.billCode);
  if (await hasDownstream(ctx.tx, ctx.tenantId, row.id)) throw new BizError('ExistChildrenBillProhibitAbandonAudit', { additional: row.billCode });
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const header = { ...row, ...row.extra } as Record<string, unknown>;
  if (movesStock(decl, header)) {
    await assertNotInventorying(ctx, decl, row.id, await loadLines(ctx.tx, ctx.tenantId, row.id));
    await reversePosting(ctx.tx, postingOf(row), config.openNegativeInventory);
  }
  await ctx.registries.billPostingHooks.abandoned(ctx, decl, row);
  // Lines closed by manual completion open again.
  await ctx.tx.update(billLine).set({ closed: false }).where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)));
  await setStatus(ctx, row, 'abandonAudit', to, { auditBy: null, auditTime: null });
  await refreshSources(ctx, await loadLines(ctx.tx, ctx.tenantId, row.id));
  ctx.audit({ action: 'abandonAudit', entity: decl.type, entityId: id });
}

/** POST {path}/manualCompletion: closes what is still open; no unaudited downstream bill may wait on it. */
export async function completeManually(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id, true);
  assertCreator(ctx, row);
  const to = transition(row.billStatus as BillStatus, 'manualCompletion');
  if (await hasDownstream(ctx.tx, ctx.tenantId, row.id, true)) throw new BizError('ExistChildrenBillProhibitManualCompletion', { additional: row.billCode });
  await ctx.tx.update(billLine).set({ closed: true }).where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)));
  await setStatus(ctx, row, 'manualCompletion', to);
  ctx.audit({ action: 'manualCompletion', entity: decl.type, entityId: id });
}

/** POST {path}/merge: compatible drafts of one creator folded into a new draft; they become Merged. */
export async function mergeBills(ctx: ServiceContext, decl: BillTypeDecl, ids: number[]): Promise<{ id: number; billCode: string }> {
  const wanted = distinct(ids).sort((a, b) => a - b);
  if (wanted.length < 2) throw new BizError('MergeBillAtLeastTwo');
  if (decl.stock !== 'none') throw new BizError('StockLockProhibitMerge');
  if (!decl.mergeBy?.length) throw new BizError('CurrentStatusBillProhibitMerge');
  const found: BillRow[] = [];
  for (const id of wanted) found.push(await loadBill(ctx, decl, id, true));
  for (const row of found) {
    assertCreator(ctx, row);
    transition(row.billStatus as BillStatus, 'merge');
  }
  for (const key of decl.mergeBy) {
    const values = new Set(found.map((r) => String((r as Record<string, unknown>)[key] ?? (r.extra as Record<string, unknown>)[key] ?? '')));
    if (values.size > 1) throw new BizError(key === 'supplierId' ? 'MergeBillDifferentSupplier' : key === 'customerId' ? 'MergeBillDifferentCustomer' : 'CurrentStatusBillProhibitMerge', { additional: key });
  }
  const first = found[0];
  const lines: Array<Record<string, unknown>> = [];
  for (const row of found) for (const line of await loadLines(ctx.tx, ctx.tenantId, row.id)) lines.push(payloadLine(line));
  const payload: BillPayload = { ...headerPayload(decl, first), billDate: first.billDate, lines };
  const merged = await createBill(ctx, decl, payload);
  for (const row of found) await setStatus(ctx, row, 'merge', 'Merged', { mergedInto: merged.id }, merged.billCode);
  ctx.audit({ action: 'merge', entity: decl.type, entityId: wanted, detail: { into: merged.billCode } });
  return merged;
}

/** A stored bill's header as a save payload (its type's editable fields). */
function headerPayload(decl: BillTypeDecl, row: BillRow): Record<string, unknown> {
  const values = { ...row, ...(row.extra as Record<string, unknown>) } as Record<string, unknown>;
  return Object.fromEntries(headerFields(decl).filter((f) => !f.readOnly && f.key !== 'billCode').map((f) => [f.key, values[f.key] ?? undefined]));
}

/** A stored line as a save payload line. */
function payloadLine(line: LineRow): Record<string, unknown> {
  const n = (v: string) => microNumber(toMicro(v));
  return {
    ...(line.extra as Record<string, unknown>),
    materialId: line.materialId,
    unitId: line.unitId,
    number: n(line.number),
    giftNumber: n(line.giftNumber),
    unitPrice: n(line.unitPrice),
    taxRate: n(line.taxRate),
    discountRate: n(line.discountRate),
    warehouseId: line.warehouseId,
    locationId: line.locationId,
    batchNumber: line.batchNumber,
    expirationDate: line.expirationDate,
    serialNumbers: line.serialNumbers,
    targetWarehouseId: line.targetWarehouseId,
    targetLocationId: line.targetLocationId,
    remark: line.remark,
    sourceLineId: line.sourceLineId,
  };
}

// ---------------------------------------------------------------- push down and progress

/**
 * POST {target path}/pushDown: a new draft of `decl` from open lines of audited `sourceType` bills, each
 * taking its open quantity (in the source line's unit) or the quantity asked for in `numbers`, with the
 * fields the declaration copies.
 */
export async function pushDown(
  ctx: ServiceContext,
  decl: BillTypeDecl,
  sourceType: string,
  sourceLineIds: number[],
  numbers: ReadonlyArray<{ sourceLineId: number; number: number }> = [],
): Promise<{ id: number; billCode: string }> {
  const wanted = new Map(numbers.map((n) => [n.sourceLineId, n.number]));
  const source = decl.sources.find((s) => s.type === sourceType);
  if (!source) throw new BizError('SourceBillNotExist', { additional: sourceType });
  const sourceDecl = findBillType(sourceType)!;
  const ids = distinct(sourceLineIds);
  if (lineKindOf(decl) === 'settlement') {
    // Settlement lines take whole bills: the ids are the source bills', each line settles what is open of one.
    const { heads, lines } = await settlementPushLines(ctx, sourceType, ids);
    for (const key of source.header) if (new Set(heads.map((h) => (h as Record<string, unknown>)[key])).size > 1) throw new BizError(key === 'supplierId' ? 'MergeBillDifferentSupplier' : 'MergeBillDifferentCustomer');
    const copied = headerPayload(sourceDecl, heads[0]);
    return createBill(ctx, decl, { ...source.defaults, ...Object.fromEntries(source.header.map((key) => [key, copied[key]])), billDate: localDay(), lines });
  }
  const found = (await ctx.tx
    .select({ line: billLine, head: bill })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, ctx.tenantId), inArray(billLine.id, ids), eq(bill.billType, sourceType), await billScope(ctx)))
    .orderBy(billLine.billId, billLine.lineNo)) as Array<{ line: LineRow; head: BillRow }>;
  if (found.length !== ids.length) throw new BizError('SourceBillNotExist', { additional: ids.find((id) => !found.some((f) => f.line.id === id)) });
  const heads = new Map(found.map((f) => [f.head.id, f.head]));
  for (const head of heads.values()) {
    if (!allows(head.billStatus as BillStatus, 'pushDown')) throw new BizError(POSTED.has(head.billStatus) ? 'BillAllPushed' : 'SourceBillNotAudit', { additional: head.billCode });
    assertSourceMeets(source, head);
  }
  const first = found[0].head;
  const copied = headerPayload(sourceDecl, first);
  for (const key of ['supplierId', 'customerId'] as const) {
    if (source.header.includes(key) && new Set(found.map((f) => f.head[key])).size > 1) throw new BizError(key === 'supplierId' ? 'MergeBillDifferentSupplier' : 'MergeBillDifferentCustomer');
  }
  const taken = await takenBySource(ctx.tx, ctx.tenantId, ids, sharingTypes(decl, sourceType));
  const materials = await loadMaterials(ctx.tx, ctx.tenantId, distinct(found.map((f) => f.line.materialId)));
  // A field switched off since the source was made (its storage location) is not carried into the new bill.
  const off = switchedOffLineKeys(decl, await readTenantConfig(ctx.tx, ctx.tenantId));
  const copiedKeys = source.lines.filter((key) => !off.has(key));
  const lines: Array<Record<string, unknown>> = [];
  for (const { line } of found) {
    const open = openQuantity(toMicro(line.baseNumber), taken.get(line.id) ?? 0n, line.closed);
    if (open <= 0n) continue;
    const ratio = (line.unitId !== null && materials.get(line.materialId)?.ratios.get(line.unitId)) || toMicro(1);
    const stored = payloadLine(line);
    lines.push({
      materialId: line.materialId,
      unitId: line.unitId,
      // The quantity the user asked for, checked against the open quantity as any save is (linkSources).
      number: wanted.get(line.id) ?? microNumber(div(open, ratio)),
      sourceLineId: line.id,
      ...Object.fromEntries(copiedKeys.map((key) => [key, stored[key]])),
    });
  }
  if (!lines.length) throw new BizError('BillAllPushed', { additional: first.billCode });
  const header = Object.fromEntries(source.header.map((key) => [key, copied[key]]));
  const paired = decl.pairedLines;
  if (paired) {
    // Each line taken (the goods exchanged) with its twin beside it (the replacement), which takes nothing.
    const twins = lines.flatMap((line) => [{ ...line, [paired.field]: paired.taking }, { ...line, [paired.field]: paired.twin, sourceLineId: null }]);
    return createBill(ctx, decl, { ...source.defaults, ...header, billDate: localDay(), lines: twins });
  }
  return createBill(ctx, decl, { ...source.defaults, ...header, billDate: localDay(), lines });
}

/**
 * Recomputes the progress of every source bill `lines` take from: per progress kind, the states of its
 * lines and its header, and its status (Audit ↔ Partially ↔ Complete by its first progress kind). A source
 * that passes progress on (`progressRollups`) has its own sources recomputed after it.
 */
async function refreshSources(ctx: ServiceContext, lines: LineRow[]) {
  const pending = new Set(lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null));
  const refreshed = new Set<number>();
  while (pending.size) {
    // Newest first, as lockBills takes them: a source's own sources are older than it.
    const sourceBillId = Math.max(...pending);
    pending.delete(sourceBillId);
    if (refreshed.has(sourceBillId)) continue;
    refreshed.add(sourceBillId);
    const [head] = await ctx.tx
      .select()
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, sourceBillId)))
      .for('update');
    const decl = head && findBillType(head.billType);
    if (!decl) continue;
    if (passesProgressOn(decl.type)) for (const id of await sourceBillIdsOf(ctx.tx, ctx.tenantId, head.id)) pending.add(id);
    const progress = await lineProgress(ctx.tx, ctx.tenantId, decl, await loadLines(ctx.tx, ctx.tenantId, head.id));
    const headerProgress: Record<string, string> = {};
    let primary: 'none' | 'partial' | 'all' = 'none';
    // Kinds no downstream bill type drives keep what their module wrote. Kinds driven by settlement lines
    // (a payment settling an in-stock) go by amount, and never move the bill's status.
    const downstream = downstreamTypes(decl.type);
    const drives = (byAmount: boolean) => downstream.filter((d) => (lineKindOf(d) === 'settlement') === byAmount).flatMap((d) => d.sources.filter((s) => s.type === decl.type).map((s) => s.drives));
    // Kinds rolled up through intermediate bills are driven too (a sale order's out-stocks through its notices).
    const driven = new Set([...drives(false), ...progressRollups(decl.type).map((r) => r.kind)]);
    const byAmount = new Set(drives(true));
    const amountState = byAmount.size ? await settlementState(ctx.tx, ctx.tenantId, head) : undefined;
    decl.progress.forEach((kind, index) => {
      if (byAmount.has(kind) && !driven.has(kind)) {
        headerProgress[kind] = amountState!;
        return;
      }
      if (!driven.has(kind) && head.progress[kind]) {
        headerProgress[kind] = head.progress[kind];
        return;
      }
      const overall = overallProgress(progress.map((p) => ({ number: p.number, done: p.kinds[kind]?.done ?? 0n })));
      headerProgress[kind] = PROGRESS_STATES[kind][overall === 'none' ? 0 : overall === 'partial' ? 1 : 2];
      if (index === 0) primary = overall;
    });
    const to = progressStatus(head.billStatus as BillStatus, primary);
    await ctx.tx
      .update(bill)
      .set({ progress: headerProgress, billStatus: to })
      .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, head.id)));
    if (to !== head.billStatus) await recordTransition(ctx, head.id, 'progress', head.billStatus, to);
  }
}

interface LineProgress {
  lineId: number;
  number: Micro;
  kinds: Partial<Record<ProgressKind, { done: Micro; taken: Micro }>>;
}

/** Per line of a bill and per progress kind of its type: main-unit quantities taken and done downstream. */
async function lineProgress(tx: Tx, tenantId: number, decl: BillTypeDecl, lines: LineRow[]): Promise<LineProgress[]> {
  if (!lines.length || !decl.progress.length) return lines.map((l) => ({ lineId: l.id, number: toMicro(l.baseNumber), kinds: {} }));
  const found = await tx
    .select({
      sourceLineId: billLine.sourceLineId,
      billType: bill.billType,
      taken: sql<string>`sum(${billLine.baseNumber})::text`,
      done: sql<string>`coalesce(sum(${billLine.baseNumber}) filter (where ${inArray(bill.billStatus, [...POSTED_STATUSES])} and ${drivingSql(decl.type, '"bill"')}), 0)::text`,
    })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), inArray(billLine.sourceLineId, lines.map((l) => l.id)), ne(bill.billStatus, 'Merged')))
    .groupBy(billLine.sourceLineId, bill.billType);
  const rolled = await rolledUpProgress(tx, tenantId, decl, lines.map((l) => l.id));
  return lines.map((line) => {
    const kinds: LineProgress['kinds'] = {};
    const add = (kind: ProgressKind, done: Micro, taken: Micro) => {
      const was = kinds[kind] ?? { done: 0n, taken: 0n };
      kinds[kind] = { done: was.done + done, taken: was.taken + taken };
    };
    for (const f of found.filter((r) => Number(r.sourceLineId) === line.id)) {
      const kind = findBillType(f.billType)?.sources.find((s) => s.type === decl.type)?.drives;
      if (kind) add(kind, toMicro(f.done), toMicro(f.taken));
    }
    for (const r of rolled.filter((r) => r.sourceLineId === line.id)) add(r.kind, r.done, r.taken);
    return { lineId: line.id, number: toMicro(line.baseNumber), kinds };
  });
}

/**
 * Per line of a bill of `decl`'s type: what bills further down did through intermediate bills, by the
 * roll-ups declared onto the type (`progressRollups`: the out-stocks of a sale order's shipping notices).
 * Each roll-up follows its chain of source lines, `t` the lines at its end, `v0` the intermediate lines made
 * from the bill's own lines.
 */
async function rolledUpProgress(tx: Tx, tenantId: number, decl: BillTypeDecl, lineIds: number[]) {
  const out: Array<{ sourceLineId: number; kind: ProgressKind; done: Micro; taken: Micro }> = [];
  if (!lineIds.length) return out;
  for (const r of progressRollups(decl.type)) {
    const chain = r.via.map((type, i) => {
      const [v, vb, from] = [`v${i}`, `vb${i}`, i === r.via.length - 1 ? 't' : `v${i + 1}`];
      return sql.raw(`join bill_line ${v} on ${v}.tenant_id = t.tenant_id and ${v}.id = ${from}.source_line_id
        join bill ${vb} on ${vb}.tenant_id = t.tenant_id and ${vb}.id = ${v}.bill_id and ${vb}.bill_type = `).append(sql`${type}`);
    });
    const found = await rows<{ source_line_id: string; taken: string; done: string }>(
      tx,
      sql`select v0.source_line_id, sum(t.base_number)::text as taken,
                 coalesce(sum(t.base_number) filter (where tb.bill_status in (${sql.join(POSTED_STATUSES.map((s) => sql`${s}`), sql`, `)})
                   and ${drivingSql(r.via[r.via.length - 1], 'tb')}), 0)::text as done
          from bill_line t
          join bill tb on tb.tenant_id = t.tenant_id and tb.id = t.bill_id and tb.bill_type = ${r.by} and tb.bill_status <> 'Merged'
          ${sql.join(chain, sql` `)}
          where t.tenant_id = ${tenantId} and v0.source_line_id in (${sql.join(lineIds.map((id) => sql`${id}`), sql`, `)})
          group by v0.source_line_id`,
    );
    for (const f of found) out.push({ sourceLineId: Number(f.source_line_id), kind: r.kind, done: toMicro(f.done), taken: toMicro(f.taken) });
  }
  return out;
}

// ---------------------------------------------------------------- views

const n = (value: string) => microNumber(toMicro(value));

/** GET {path}/:id: the bill with its lines, names and progress. */
export async function getBill(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id);
  const lines = await ctx.tx
    .select({
      line: billLine,
      materialCode: material.code,
      materialName: material.name,
      specification: material.specification,
      unitName: unit.name,
      sourceBillCode: sql<string | null>`(select b.bill_code from bill b where b.tenant_id = ${billLine.tenantId} and b.id = ${billLine.sourceBillId})`,
      sourceBillType: sql<string | null>`(select b.bill_type from bill b where b.tenant_id = ${billLine.tenantId} and b.id = ${billLine.sourceBillId})`,
    })
    .from(billLine)
    .leftJoin(material, and(eq(material.tenantId, billLine.tenantId), eq(material.id, billLine.materialId)))
    .leftJoin(unit, and(eq(unit.tenantId, billLine.tenantId), eq(unit.id, billLine.unitId)))
    .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)))
    .orderBy(asc(billLine.lineNo));
  const settled = lineKindOf(decl) === 'settlement' ? await settlementLineViews(ctx, row.id, lines.map((l) => l.line)) : new Map<number, Record<string, unknown>>();
  const progress = new Map((await lineProgress(ctx.tx, ctx.tenantId, decl, lines.map((l) => l.line as LineRow))).map((p) => [p.lineId, p]));
  const book = decl.stock === 'check' ? await bookNumbers(ctx, row) : undefined;
  const [creator] = await ctx.tx.select({ name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, row.createdBy)));
  const [auditor] = row.auditBy ? await ctx.tx.select({ name: admin.name, realName: admin.realName }).from(admin).where(and(eq(admin.tenantId, ctx.tenantId), eq(admin.id, row.auditBy))) : [];
  const { extra, tenantId: _tenant, ...header } = row;
  // The names beside the picked ids, so that the form shows them (supplierName, warehouseName, locationName…).
  const linesRows = lines.map((l) => l.line);
  const named = await namedRecords(ctx, decl, { ...(extra as Record<string, unknown>), ...row }, linesRows);
  return {
    ...header,
    ...(extra as Record<string, unknown>),
    ...named.header,
    number: n(row.number),
    priceTotal: n(row.priceTotal),
    taxPriceTotal: n(row.taxPriceTotal),
    createdByName: creator ? creator.realName || creator.name : '',
    auditName: auditor ? auditor.realName || auditor.name : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    auditTime: row.auditTime?.toISOString() ?? null,
    lines: lines.map(({ line, ...names }, index) => {
      const p = progress.get(line.id);
      const { extra: lineExtra, tenantId: _t, billId: _b, ...rest } = line;
      return {
        ...rest,
        ...(lineExtra as Record<string, unknown>),
        ...named.lines[index],
        ...names,
        number: n(line.number),
        baseNumber: n(line.baseNumber),
        giftNumber: n(line.giftNumber),
        unitPrice: n(line.unitPrice),
        taxRate: n(line.taxRate),
        taxUnitPrice: n(line.taxUnitPrice),
        discountRate: n(line.discountRate),
        priceTotal: n(line.priceTotal),
        taxPriceTotal: n(line.taxPriceTotal),
        ...(book ? { bookNumber: microNumber(book.get(Number(line.id)) ?? 0n) } : {}),
        // Lines of money: their amount, and for settlement lines the bill settled with what was open of it.
        ...(lineKindOf(decl) === 'material' ? {} : { amount: microText(toMicro(line.priceTotal)), ...(line.sourceBillId ? settled.get(line.sourceBillId) : {}) }),
        progress: Object.fromEntries(
          decl.progress.map((kind) => {
            const k = p?.kinds[kind] ?? { done: 0n, taken: 0n };
            return [kind, { done: microNumber(k.done), taken: microNumber(k.taken), state: progressState(kind, toMicro(line.baseNumber), k.done) }];
          }),
        ),
      };
    }),
  };
}

/**
 * A stock check's book quantities (main unit), per line: what its place (material, warehouse, location, batch)
 * holds now while the check is open, and once posted what it held when the check was audited — the counted
 * quantity less what the audit moved (the line's ledger entries, a withdrawn audit's reversals included).
 */
async function bookNumbers(ctx: ServiceContext, row: BillRow): Promise<Map<number, Micro>> {
  const posted = POSTED_STATUSES.includes(row.billStatus as BillStatus);
  const found = await rows<{ id: number | string; book: string }>(
    ctx.tx,
    posted
      ? sql`select l.id, (l.base_number - coalesce((select sum(e.quantity) from stock_ledger e
                where e.tenant_id = l.tenant_id and e.bill_id = l.bill_id and e.bill_line_id = l.id), 0))::text as book
            from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${row.id}`
      : sql`select l.id, coalesce((select sum(b.quantity) from stock_balance b
                where b.tenant_id = l.tenant_id and b.material_id = l.material_id and b.warehouse_id = l.warehouse_id
                  and coalesce(b.location_id, 0) = coalesce(l.location_id, 0) and b.batch_number = l.batch_number), 0)::text as book
            from bill_line l where l.tenant_id = ${ctx.tenantId} and l.bill_id = ${row.id}`,
  );
  return new Map(found.map((r) => [Number(r.id), toMicro(r.book)]));
}

/**
 * The names beside the ids a bill's fields of kind `record` hold (`supplierId` → `supplierName`), for its header
 * and each line, one query per kind named. A material line's material and unit come with its own join.
 */
async function namedRecords(ctx: ServiceContext, decl: BillTypeDecl, header: Record<string, unknown>, lines: ReadonlyArray<typeof billLine.$inferSelect>) {
  const headRefs = headerFields(decl).filter((f) => f.kind === 'record');
  const lineRefs = lineFields(decl).filter((f) => f.kind === 'record' && !(lineKindOf(decl) === 'material' && CHECKED_WITH_THE_MATERIAL.has(f.key)));
  const lineValues = lines.map((l) => ({ ...(l.extra as Record<string, unknown>), ...l }) as Record<string, unknown>);
  const ids = new Map<string, unknown[]>();
  const want = (ref: string, id: unknown) => ids.set(ref, [...(ids.get(ref) ?? []), id]);
  for (const f of headRefs) want(f.ref!, header[f.key]);
  for (const values of lineValues) for (const f of lineRefs) want(f.ref!, values[f.key]);
  const names = new Map<string, Map<number, string>>();
  for (const [ref, list] of ids) names.set(ref, await refNames(ctx.tx, ctx.tenantId, ref, list.filter((id): id is number => typeof id === 'number')));
  const nameOf = (f: FieldDecl, values: Record<string, unknown>): [string, string | null] => [nameKey(f.key), typeof values[f.key] === 'number' ? (names.get(f.ref!)?.get(values[f.key] as number) ?? null) : null];
  return {
    header: Object.fromEntries(headRefs.map((f) => nameOf(f, header))),
    lines: lineValues.map((values) => Object.fromEntries(lineRefs.map((f) => nameOf(f, values)))),
  };
}

/** GET {path}/:id/timeline */
export async function billTimeline(ctx: ServiceContext, decl: BillTypeDecl, id: number): Promise<BillTransitionView[]> {
  await loadBill(ctx, decl, id);
  const found = await ctx.tx
    .select()
    .from(billTransition)
    .where(and(eq(billTransition.tenantId, ctx.tenantId), eq(billTransition.billId, id)))
    .orderBy(asc(billTransition.id));
  return found.map((t) => ({
    id: t.id,
    operation: t.operation as BillTransitionView['operation'],
    fromStatus: t.fromStatus as BillStatus | null,
    toStatus: t.toStatus as BillStatus,
    reason: t.reason,
    accountId: t.accountId,
    accountName: t.accountName,
    at: t.at.toISOString(),
  }));
}

/** The `onlyWhen` of `decl`'s source `sourceType` as SQL on its bills aliased `b` (true without one). */
const onlyWhenSql = (decl: BillTypeDecl, sourceType: string): SQL => {
  const onlyWhen = decl.sources.find((s) => s.type === sourceType)?.onlyWhen;
  return onlyWhen ? conditionSql(onlyWhen, 'b') : sql`true`;
};

/** GET {target path}/sources: open lines of audited bills of a source type, for the push-down picker. */
export async function openSourceLines(
  ctx: ServiceContext,
  decl: BillTypeDecl,
  input: { sourceType?: string; keyword?: string; partnerId?: number; current: number; pageSize: number },
): Promise<{ data: BillSourceLine[] | BillSourceBill[]; pagination: { current: number; pageSize: number; total: number } }> {
  const query = { ...input, sourceType: input.sourceType ?? decl.sources[0]?.type };
  if (!decl.sources.some((s) => s.type === query.sourceType)) throw new BizError('SourceBillNotExist', { additional: query.sourceType });
  if (lineKindOf(decl) === 'settlement') return openSourceBills(ctx, decl, query, onlyWhenSql);
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const onlyWhen = decl.sources.find((s) => s.type === query.sourceType)?.onlyWhen;
  const scope = await billScope(ctx, 'b');
  const where = sql`b.tenant_id = ${ctx.tenantId} and b.bill_type = ${query.sourceType} and b.bill_status in ('Audit', 'Partially') and not l.closed
    ${scope ? sql`and ${scope}` : sql``}
    ${onlyWhen ? sql`and ${conditionSql(onlyWhen, 'b')}` : sql``}
    ${query.partnerId ? sql`and coalesce(b.supplier_id, b.customer_id) = ${query.partnerId}` : sql``}
    ${keyword ? sql`and (b.bill_code ilike ${keyword} or m.code ilike ${keyword} or m.name ilike ${keyword})` : sql``}`;
  const open = sql`l.base_number - coalesce((select sum(d.base_number) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
      where d.tenant_id = l.tenant_id and d.source_line_id = l.id and db.bill_status <> 'Merged'
        and db.bill_type in (${sql.join(sharingTypes(decl, query.sourceType!).map((t) => sql`${t}`), sql`, `)})), 0)`;
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select * from (
          select b.id as source_bill_id, b.bill_code, b.bill_date::text, p.name as partner_name, l.id as source_line_id, l.material_id, m.code as material_code,
                 m.name as material_name, m.specification, l.unit_id, u.name as unit_name, l.number::text, l.base_number::text, (${open})::text as open_base,
                 count(*) over () as total
          from bill_line l
          join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
          join material m on m.tenant_id = l.tenant_id and m.id = l.material_id
          left join unit u on u.tenant_id = l.tenant_id and u.id = l.unit_id
          left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
          where ${where} and (${open}) > 0
        ) o order by o.bill_date, o.source_bill_id, o.source_line_id
        limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  const materials = await loadMaterials(ctx.tx, ctx.tenantId, distinct(found.map((r) => Number(r.material_id))));
  return {
    data: found.map((r) => {
      const ratio = (r.unit_id !== null && materials.get(Number(r.material_id))?.ratios.get(Number(r.unit_id))) || toMicro(1);
      const openBase = toMicro(r.open_base!);
      return {
        sourceBillId: Number(r.source_bill_id),
        sourceBillCode: r.bill_code!,
        sourceBillDate: r.bill_date!,
        partnerName: r.partner_name,
        sourceLineId: Number(r.source_line_id),
        materialId: Number(r.material_id),
        materialCode: r.material_code!,
        materialName: r.material_name!,
        specification: r.specification ?? '',
        unitId: r.unit_id === null ? null : Number(r.unit_id),
        unitName: r.unit_name,
        number: microText(toMicro(r.number!)),
        takenNumber: microText(div(toMicro(r.base_number!) - openBase, ratio)),
        openNumber: microText(div(openBase, ratio)),
      };
    }),
    pagination: { current: query.current, pageSize: query.pageSize, total: Number(found[0]?.total ?? 0) },
  };
}


