import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { microText, roundTo, toMicro } from '@p8/contract/bills/decimal';
import { FUND_ACCOUNT_CODE, type FundAccountCreate, type FundAccountUpdate, type FundKind, type TransferCreate } from '@p8/contract/finance';
import { nextBillCode } from '../../core/code-generator.ts';
import { callerScope, creatorDeptId } from '../../core/data-scope.ts';
import { BizError } from '../../core/errors.ts';
import type { ListExportColumn } from '../../core/list-export.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { finFundAccount, finMoneyDoc, finPosting, finPostingLine } from '../../db/schema/index.ts';
import { post, reverseSource, type PostingLineInput } from './ledger.ts';

/**
 * Fund accounts and transfers between them. A transfer is posted when saved and withdrawn by `abandon` (a
 * reversal posting). Payments, receipts, fees and incomes are bills: money-bills.ts.
 */

type MoneyDoc = typeof finMoneyDoc.$inferSelect;
const money = (value: number | string) => toMicro(value);

// ---------------------------------------------------------------- fund accounts

async function loadFund(ctx: ServiceContext, id: number, { lock = false } = {}) {
  const query = ctx.tx.select().from(finFundAccount).where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new BizError('FundAccountNotExist', { additional: id });
  return row;
}

async function assertFundNameFree(ctx: ServiceContext, name: string, exceptId = 0) {
  const [taken] = await ctx.tx
    .select({ id: finFundAccount.id })
    .from(finFundAccount)
    .where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.name, name), sql`${finFundAccount.id} <> ${exceptId}`));
  if (taken) throw new BizError('FundAccountNameRepeat', { additional: name });
}

/**
 * Whether anything but the account's opening has posted to it: from then on its kind and opening balance
 * stay (the edit refuses them, the screen shows them read-only). Read in a select from fin_fund_account.
 */
const movedSql = sql<boolean>`exists (select 1 from ${finPostingLine} l join ${finPosting} p on p.tenant_id = l.tenant_id and p.id = l.posting_id
  where l.tenant_id = fin_fund_account.tenant_id and l.fund_account_id = fin_fund_account.id and not (p.source_kind = 'opening' and p.source_id = fin_fund_account.id))`;

export async function listFundAccounts(ctx: ServiceContext) {
  const found = await ctx.tx.select({ row: finFundAccount, moved: movedSql }).from(finFundAccount).where(eq(finFundAccount.tenantId, ctx.tenantId)).orderBy(asc(finFundAccount.id));
  return found.map((f) => fundView(f.row, f.moved));
}

/**
 * The fund account picker of finance bills and transfers, with what the picker shows (name, kind,
 * enabled) — no balances. Disabled accounts are in it, flagged: the bill form offers only enabled ones,
 * but a bill saved before its account was disabled must still show the account's name, not its id (a bill
 * naming a disabled account is refused at save, `usableFund`).
 */
export async function listFundAccountOptions(ctx: ServiceContext) {
  return ctx.tx
    .select({ id: finFundAccount.id, name: finFundAccount.name, kind: finFundAccount.kind, enabled: finFundAccount.enabled })
    .from(finFundAccount)
    .where(eq(finFundAccount.tenantId, ctx.tenantId))
    .orderBy(asc(finFundAccount.id));
}

function fundView(row: typeof finFundAccount.$inferSelect, moved: boolean) {
  const { tenantId: _t, ...rest } = row;
  return { ...rest, moved, openingBalance: microText(toMicro(row.openingBalance)), balance: microText(toMicro(row.balance)), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function getFundAccount(ctx: ServiceContext, id: number) {
  const row = await loadFund(ctx, id);
  return fundView(row, await fundMoved(ctx, id));
}

async function fundMoved(ctx: ServiceContext, id: number): Promise<boolean> {
  const [found] = await ctx.tx.select({ moved: movedSql }).from(finFundAccount).where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.id, id)));
  return found?.moved ?? false;
}

/** Posts a fund account's opening balance (Dr the fund / Cr 3001 paid-in capital); nothing for a zero one. */
async function postOpening(ctx: ServiceContext, f: { id: number; name: string; kind: FundKind; opening: bigint; openingDate: string }) {
  if (f.opening === 0n) return;
  const fund: PostingLineInput = { account: FUND_ACCOUNT_CODE[f.kind], fundAccountId: f.id, ...(f.opening > 0n ? { debit: f.opening } : { credit: -f.opening }) };
  await post(ctx, { date: f.openingDate, sourceKind: 'opening', sourceId: f.id, sourceCode: f.name, lines: [fund, { account: '3001', ...(f.opening > 0n ? { credit: f.opening } : { debit: -f.opening }) }] });
}

/** A new fund account; its opening balance is posted (Dr the fund / Cr 3001 paid-in capital). */
export async function createFundAccount(ctx: ServiceContext, input: FundAccountCreate): Promise<{ id: number }> {
  await assertFundNameFree(ctx, input.name);
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const opening = roundTo(money(input.openingBalance), config.amountRetainsSmallDigit);
  const [created] = await ctx.tx
    .insert(finFundAccount)
    .values({ tenantId: ctx.tenantId, name: input.name, kind: input.kind, accountNumber: input.accountNumber, openingBalance: microText(opening), openingDate: input.openingDate, balance: '0', remark: input.remark })
    .returning({ id: finFundAccount.id });
  await postOpening(ctx, { id: created.id, name: input.name, kind: input.kind, opening, openingDate: input.openingDate });
  ctx.audit({ action: 'create', entity: 'fundAccount', entityId: created.id, detail: { name: input.name } });
  return created;
}

/**
 * Name, number and remark at any time. The kind (which ledger account holds the money) and the opening
 * balance and date only while nothing but the opening has posted to the account: the opening posting is
 * then reversed and posted anew. The account's row is locked (FOR UPDATE) first, so a posting waits for
 * the edit or the edit sees the posting.
 */
export async function updateFundAccount(ctx: ServiceContext, input: FundAccountUpdate) {
  const row = await loadFund(ctx, input.id, { lock: true });
  await assertFundNameFree(ctx, input.name, input.id);
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const kind = input.kind ?? (row.kind as FundKind);
  const opening = input.openingBalance === undefined ? toMicro(row.openingBalance) : roundTo(money(input.openingBalance), config.amountRetainsSmallDigit);
  const openingDate = input.openingDate ?? row.openingDate;
  const reopen = kind !== row.kind || opening !== toMicro(row.openingBalance) || openingDate !== row.openingDate;
  if (reopen) {
    if (await fundMoved(ctx, input.id)) throw new BizError('FundAccountPostedProhibitChange', { additional: row.name });
    await reverseSource(ctx, 'opening', input.id, row.openingDate);
  }
  await ctx.tx
    .update(finFundAccount)
    .set({ name: input.name, kind, accountNumber: input.accountNumber, openingBalance: microText(opening), openingDate, remark: input.remark, updatedAt: new Date() })
    .where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.id, input.id)));
  if (reopen) await postOpening(ctx, { id: input.id, name: input.name, kind, opening, openingDate });
  ctx.audit({
    action: 'update',
    entity: 'fundAccount',
    entityId: input.id,
    detail: { before: { name: row.name, kind: row.kind, accountNumber: row.accountNumber, openingBalance: row.openingBalance, openingDate: row.openingDate, remark: row.remark }, after: { name: input.name, kind, accountNumber: input.accountNumber, openingBalance: microText(opening), openingDate, remark: input.remark } },
  });
  return { id: input.id };
}

/**
 * Enables or disables fund accounts. An account with money on it cannot be disabled
 * (`FundAccountHasBalanceProhibitClose`): its row is locked (FOR UPDATE, ids ascending like the postings)
 * before its balance is read, and a posting locks the same row and refuses a disabled account, so no
 * posting slips in between the check and the switch.
 */
export async function enableFundAccounts(ctx: ServiceContext, ids: number[], enabled: boolean) {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const row = await loadFund(ctx, id, { lock: true });
    if (!enabled && toMicro(row.balance) !== 0n) throw new BizError('FundAccountHasBalanceProhibitClose', { additional: row.name });
  }
  await ctx.tx
    .update(finFundAccount)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(finFundAccount.tenantId, ctx.tenantId), inArray(finFundAccount.id, ids)));
  ctx.audit({ action: enabled ? 'enable' : 'disable', entity: 'fundAccount', entityId: ids, detail: { enabled } });
}

/** An enabled fund account of the tenant and its ledger account code. */
export async function usableFund(ctx: ServiceContext, id: number | null | undefined) {
  if (!id) throw new BizError('PleaseSelectAccount');
  const row = await loadFund(ctx, id);
  if (!row.enabled) throw new BizError('FundAccountIsDisabled', { additional: row.name });
  return { id: row.id, code: FUND_ACCOUNT_CODE[row.kind as FundKind] };
}

// ---------------------------------------------------------------- documents

async function insertDoc(ctx: ServiceContext, values: Omit<typeof finMoneyDoc.$inferInsert, 'tenantId' | 'docCode' | 'createdBy'>, prefix: string): Promise<MoneyDoc> {
  const docCode = await nextBillCode(ctx.tx, ctx.tenantId, `finance:${values.docKind}`, prefix, values.docDate);
  const [doc] = await ctx.tx
    .insert(finMoneyDoc)
    .values({ ...values, tenantId: ctx.tenantId, docCode, createdBy: ctx.account.adminId, ownerDeptId: await creatorDeptId(ctx) })
    .returning();
  return doc;
}

/** POST /finance/transfer: money from one fund account to another (Dr the target / Cr the source). */
export async function createTransfer(ctx: ServiceContext, input: TransferCreate): Promise<{ id: number; docCode: string }> {
  if (input.fromAccountId === input.toAccountId) throw new BizError('TransferSameAccount');
  const from = await usableFund(ctx, input.fromAccountId);
  const to = await usableFund(ctx, input.toAccountId);
  const config = await readTenantConfig(ctx.tx, ctx.tenantId);
  const amount = roundTo(money(input.amount), config.amountRetainsSmallDigit);
  if (amount <= 0n) throw new BizError('AmountMustGreaterThanZero');
  const doc = await insertDoc(ctx, { docKind: 'transfer', moneyType: 'Transfer', docDate: input.docDate, fundAccountId: from.id, targetFundAccountId: to.id, amount: microText(amount), remark: input.remark }, 'ZZ');
  await post(ctx, {
    date: input.docDate,
    sourceKind: 'transfer',
    sourceId: doc.id,
    sourceCode: doc.docCode,
    lines: [
      { account: to.code, fundAccountId: to.id, debit: amount },
      { account: from.code, fundAccountId: from.id, credit: amount },
    ],
  });
  ctx.audit({ action: 'create', entity: 'transfer', entityId: doc.id, detail: { docCode: doc.docCode } });
  return { id: doc.id, docCode: doc.docCode };
}

/** The caller's data scope over transfers: their creator and the creator's department then (docs/decisions.md, "Who sees what"). */
const docScope = (ctx: ServiceContext) => callerScope(ctx, { dept: finMoneyDoc.ownerDeptId, owner: finMoneyDoc.createdBy });

/** A document by id (detail, withdrawal): one outside the caller's data scope is answered as missing. */
async function loadDoc(ctx: ServiceContext, kind: MoneyDoc['docKind'], id: number, lock = false): Promise<MoneyDoc> {
  const query = ctx.tx
    .select()
    .from(finMoneyDoc)
    .where(and(eq(finMoneyDoc.tenantId, ctx.tenantId), eq(finMoneyDoc.id, id), eq(finMoneyDoc.docKind, kind), await docScope(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new BizError('MoneyDocNotExist', { additional: id });
  return row;
}

/** POST /finance/transfer/:id/abandon: the reversal posting. */
export async function abandonMoneyDoc(ctx: ServiceContext, kind: 'transfer', id: number): Promise<void> {
  const doc = await loadDoc(ctx, kind, id, true);
  if (doc.status !== 'Posted') throw new BizError('MoneyDocAbandoned', { additional: doc.docCode });
  await reverseSource(ctx, kind, doc.id, doc.docDate);
  await ctx.tx
    .update(finMoneyDoc)
    .set({ status: 'Abandoned', abandonedAt: new Date() })
    .where(and(eq(finMoneyDoc.tenantId, ctx.tenantId), eq(finMoneyDoc.id, doc.id)));
  ctx.audit({ action: 'abandon', entity: kind, entityId: doc.id, detail: { docCode: doc.docCode } });
}

const source = alias(finFundAccount, 'source_fund');
const target = alias(finFundAccount, 'target_fund');

/** The transfer list's filters and sorts (core/list-query.ts): code, accounts, status, remark, date range; sorted by code, date or amount. */
const transferListSpec: ListSpec = {
  fields: {
    docCode: { column: finMoneyDoc.docCode, filter: 'like', sortable: true },
    docDate: { column: finMoneyDoc.docDate, sortable: true },
    amount: { column: finMoneyDoc.amount, sortable: true, sum: true },
    status: { column: finMoneyDoc.status, filter: 'eq' },
    fundAccountId: { column: finMoneyDoc.fundAccountId, filter: 'eq' },
    targetFundAccountId: { column: finMoneyDoc.targetFundAccountId, filter: 'eq' },
    remark: { column: finMoneyDoc.remark, filter: 'like' },
  },
  dateColumn: finMoneyDoc.docDate,
  defaultOrder: [desc(finMoneyDoc.docDate), desc(finMoneyDoc.id)],
};

/** GET /finance/transfer: a page of transfers, newest first unless sorted, with both accounts' names. */
export async function listTransfers(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(transferListSpec, query, [eq(finMoneyDoc.tenantId, ctx.tenantId), eq(finMoneyDoc.docKind, 'transfer'), await docScope(ctx)]);
  const page = await runPage(
    parsed,
    ctx.tx
      .select({ doc: finMoneyDoc, fromAccountName: source.name, toAccountName: target.name })
      .from(finMoneyDoc)
      .leftJoin(source, and(eq(source.tenantId, finMoneyDoc.tenantId), eq(source.id, finMoneyDoc.fundAccountId)))
      .leftJoin(target, and(eq(target.tenantId, finMoneyDoc.tenantId), eq(target.id, finMoneyDoc.targetFundAccountId)))
      .$dynamic(),
    ctx.tx.select(countAll()).from(finMoneyDoc).$dynamic(),
  );
  return { data: page.data.map((r) => ({ ...docView(r.doc), fromAccountName: r.fromAccountName, toAccountName: r.toAccountName })), pagination: page.pagination };
}

export type TransferRow = Awaited<ReturnType<typeof listTransfers>>['data'][number];

const STATUS_TEXT = { Posted: { zh: '已过账', en: 'Posted' }, Abandoned: { zh: '已作废', en: 'Withdrawn' } } as const;

/** The transfer list's export columns (`POST /finance/transfer/export`), titled as the screen's. */
export const transferExportColumns: Array<ListExportColumn<TransferRow>> = [
  { prop: 'docCode', title: { zh: '单据编号', en: 'Code' }, width: 22 },
  { prop: 'docDate', title: { zh: '日期', en: 'Date' }, width: 12 },
  { prop: 'fromAccountName', title: { zh: '转出账户', en: 'From account' }, width: 20 },
  { prop: 'toAccountName', title: { zh: '转入账户', en: 'To account' }, width: 20 },
  { prop: 'amount', title: { zh: '金额', en: 'Amount' }, width: 16 },
  { prop: 'status', title: { zh: '状态', en: 'Status' }, value: (row, lang) => STATUS_TEXT[row.status as keyof typeof STATUS_TEXT]?.[lang] ?? row.status },
  { prop: 'remark', title: { zh: '备注', en: 'Remark' }, width: 30 },
];

function docView(doc: MoneyDoc) {
  const { tenantId: _t, ...rest } = doc;
  return { ...rest, amount: microText(toMicro(doc.amount)), createdAt: doc.createdAt.toISOString(), abandonedAt: doc.abandonedAt?.toISOString() ?? null };
}

/** GET /finance/transfer/:id */
export async function getMoneyDoc(ctx: ServiceContext, kind: MoneyDoc['docKind'], id: number) {
  return docView(await loadDoc(ctx, kind, id));
}
