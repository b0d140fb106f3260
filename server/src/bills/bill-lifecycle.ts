import { billRate } from '@p8/contract/bills/currency';
import { and, asc, eq, inArray, ne, notInArray } from 'drizzle-orm';
import type { BillAuditAnswer } from '@p8/contract/bills/api';
import { fieldShown, headerFields, lineDirection, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { billType as findBillType } from '@p8/contract/bills/catalogue';
import { POSTED_STATUSES, type BillOperation, type BillStatus } from '@p8/contract/bills/status';
import { auditHold } from '@p8/contract/bills/state-rules';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { BizError, refusal } from '../core/errors.ts';
import { sendNotice } from '../core/notices.ts';
import type { NoticeKey } from '@p8/contract/notices';
import { distinct } from '../core/ids.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { readTenantConfig } from '../core/tenant-config.ts';
import { type Tx } from '../db/connection.ts';
import { bill, billLine, billTransition, verifyRule, verifyRuleReviewer } from '../db/schema/index.ts';
import { reviewOutcome, type ReviewFlow } from './review.ts';
import { transition } from './state-machine.ts';
import { postMovements, reversePosting, type PostingBill } from './stock.ts';
import { assertBillDate } from './dates.ts';
import { movementsOf, valuationInputs } from './stock-movements.ts';
import { assertCustomerStock, assertNotInventorying, checkSerials } from './stock-rules.ts';
import { type BillRow, type LineRow, accountNames, assertCreator, loadBill, loadLines, lockBills, lockPostedSources, progressedBillIds, recordTransition, sourceBillIdsOf, headerPayload, payloadLine } from './bill-rows.ts';
import { assertDirectAllowed, assertTypeOpen, movesStock, createBill } from './bill-save.ts';
import { refreshSources } from './push-down.ts';

/*
 * A bill's status operations: submit, audit (with joint review), refuse, withdraw an audit, complete by hand.
 * Posting to stock and the ledger happens at audit and is reversed at withdrawal, in the same transaction.
 */

// ---------------------------------------------------------------- status operations

export async function setStatus(ctx: ServiceContext, row: BillRow, operation: BillOperation, to: BillStatus, extra: Partial<typeof bill.$inferInsert> = {}, reason = '') {
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
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  assertTypeOpen(decl, config);
  if (decl.directNeedsSwitch) assertDirectAllowed(decl, config, (await sourceBillIdsOf(ctx.tx, ctx.tenantId, row.id)).length > 0);
  await assertComplete(ctx, decl, row);
  await setStatus(ctx, row, 'submit', transition(row.billStatus as BillStatus, 'submit'), { rejectReason: null });
  // Under joint review the reviewers hear of it: all of them, or in order the first.
  const flow = await reviewFlowOf(ctx, decl, config);
  if (flow) await billNotice(ctx, decl, row, 'billReview', flow.sequential ? flow.reviewers.slice(0, 1) : flow.reviewers);
  ctx.audit({ action: 'submit', entity: decl.type, entityId: id });
}

/** A system notice about a bill (its type in both languages, its code, who acted) to `receivers` (the actor left out). */
async function billNotice(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow, key: NoticeKey, receivers: readonly number[], reason = '') {
  if (!receivers.some((id) => id !== ctx.account.adminId)) return;
  const [sender] = await accountNames(ctx, [ctx.account.adminId]);
  await sendNotice(ctx, receivers, { key, params: { typeZh: decl.label.zh, typeEn: decl.label.en, billCode: row.billCode, sender, reason } });
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
  assertTypeOpen(decl, config);
  const flow = await reviewFlowOf(ctx, decl, config);
  if (flow) {
    const outcome = reviewOutcome(flow, await approvalsThisRound(ctx, row.id), ctx.account.adminId, 'approve');
    if (outcome.to === 'UnAudit') {
      await setStatus(ctx, row, 'audit', 'UnAudit');
      // In order, the next reviewer hears of it now (the others heard at submit).
      if (flow.sequential) await billNotice(ctx, decl, row, 'billReview', outcome.waiting.slice(0, 1));
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
    const inputs = await valuationInputs(ctx.tx, ctx.tenantId, decl, lines);
    // A bill in a foreign currency values its goods in CNY at its rate (docs/cross-border.md).
    if (decl.currency) inputs.rate = billRate(header);
    // A type valued by its own rule (an outsourcing receipt: the materials it consumed at the supplier and its fee).
    const valuing = decl.valuation?.in === 'rule' ? ctx.registries.billRules.of(decl.type).valuing : undefined;
    if (valuing) inputs.ruleCost = await valuing(ctx, decl, row, lines);
    const movements = movementsOf(decl, lines, inputs);
    await assertCustomerStock(ctx, decl, row.customerId, movements);
    await postMovements(ctx.tx, postingOf(row), movements, config.openNegativeInventory);
  }
  await setStatus(ctx, row, 'audit', to, { auditBy: ctx.account.adminId, auditTime: new Date(), rejectReason: null });
  await ctx.registries.billPostingHooks.audited(ctx, decl, row);
  await refreshSources(ctx, lines);
  await billNotice(ctx, decl, row, 'billApproved', [row.createdBy]);
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
  await billNotice(ctx, decl, row, 'billRefused', [row.createdBy], reason);
  ctx.audit({ action: 'refuse', entity: decl.type, entityId: id, detail: { reason } });
}

/** The types of the downstream bills (any status but Merged) that took lines of this bill; none when nothing did. */
async function downstreamTypesOf(tx: Tx, tenantId: number, billId: number, onlyUnposted = false): Promise<string[]> {
  const found = await tx
    .selectDistinct({ billType: bill.billType })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.sourceBillId, billId), onlyUnposted ? notInArray(bill.billStatus, ['Merged', ...POSTED_STATUSES]) : ne(bill.billStatus, 'Merged')));
  return found.map((f) => f.billType);
}

/** POST {path}/abandonAudit: withdraws the audit; stock is reversed, the sources' progress rolls back. */
export async function abandonAudit(ctx: ServiceContext, decl: BillTypeDecl, id: number) {
  const row = await loadBill(ctx, decl, id, true);
  const to = transition(row.billStatus as BillStatus, 'abandonAudit');
  // Its sources' progress rolls back below: locked now, before the stock rows (lockBills).
  await lockBills(ctx, await progressedBillIds(ctx, row.id));
  // What the bill's own values hold, as its type declares (a started task): the form does not offer it either.
  const hold = auditHold(decl, { ...row, ...(row.extra as Record<string, unknown>) });
  if (hold) throw new BizError(hold, { additional: row.billCode });
  // What other modules hang on the bill (payments, invoices, MRP use, cost accounting…):
  // core/abandon-audit-blockers.ts. Asked first, as they name the reason better than "has downstream bills".
  await ctx.registries.abandonAuditBlockers.refuseIfBlocked(ctx.tx, ctx.tenantId, row.id, row.billCode);
  const children = await downstreamTypesOf(ctx.tx, ctx.tenantId, row.id);
  if (children.length) {
    // The refusal a downstream type declares names the reason better (an MRP plan holding its demands).
    const held = children.map((type) => findBillType(type)?.heldSourceRefusal).find((key) => key !== undefined);
    throw new BizError(held ?? 'ExistChildrenBillProhibitAbandonAudit', { additional: row.billCode });
  }
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
  if ((await downstreamTypesOf(ctx.tx, ctx.tenantId, row.id, true)).length) throw new BizError('ExistChildrenBillProhibitManualCompletion', { additional: row.billCode });
  await ctx.tx.update(billLine).set({ closed: true }).where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)));
  await setStatus(ctx, row, 'manualCompletion', to);
  ctx.audit({ action: 'manualCompletion', entity: decl.type, entityId: id });
}

/** POST {path}/merge: compatible drafts of one creator folded into a new draft; they become Merged. */

/** POST {path}/merge `{ ids }`: drafts of one partner become one new draft; they are left Merged, naming it. */
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
