import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { billRate, toBase } from '@p8/contract/bills/currency';
import { microText, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { Beginning, Fee, Income, Payment, Receipt } from '@p8/contract/bills/money';
import type { BillTypeDecl, MoneyPostingDecl } from '@p8/contract/bills/registry';
import { accountOf, ACCOUNT_ROLES, BEGINNING_SHAPES, MONEY_TYPE_SHAPES, normalSide, type BeginningType, type FinanceDifference, type MoneyType, type MoneyTypeShape } from '@p8/contract/finance';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import type { BillPostingHook } from '../../bills/posting-hooks.ts';
import type { BillRules, BillTypeRules } from '../../bills/rules.ts';
import { bill, billLine, feeType, finPartnerBalance, partner } from '../../db/schema/index.ts';
import type { BillRow } from '../../bills/service.ts';
import { post, reverseSource, type PostingLineInput } from './ledger.ts';
import { usableFund } from './money.ts';
import { billAbandoned, openBill, settleBills } from './settlement.ts';
import { moneyPosting, sides } from './postings.ts';
import { isSalaryBill, postSalaryBill, withdrawSalaryBill } from './salary.ts';

/**
 * Finance's bill types on the bill engine (contract bills/money.ts): their own rules at save and submit
 * (registered with `registries.billRules`) and what auditing one posts (the finance posting hook calls
 * `postMoneyBill`; withdrawing the audit calls `withdrawMoneyBill`). See docs/finance.md for the table of
 * payment and receipt types.
 */

/**
 * How each payment and receipt type is written: whether it moves money through a fund account, whether it
 * settles bills, which partner balance it raises (advances) or consumes (deductions), and the refusal of a
 * settled amount beyond what is open.
 */
interface MoneyRule extends MoneyTypeShape {
  balance?: 'raise' | 'consume';
  exceed: 'PayAmountExceedUnpaid' | 'ReceiptAmountExceedUnreceived' | 'DeductionAmountExceedUnsettled' | 'SettlementAmountExceedUnsettled';
}

const S = MONEY_TYPE_SHAPES;
export const MONEY_RULES: Partial<Record<MoneyType, MoneyRule>> = {
  OrdinaryPay: { ...S.OrdinaryPay, exceed: 'PayAmountExceedUnpaid' },
  SettlementPay: { ...S.SettlementPay, exceed: 'PayAmountExceedUnpaid' },
  AdvancePay: { ...S.AdvancePay, balance: 'raise', exceed: 'PayAmountExceedUnpaid' },
  DeductionAmount: { ...S.DeductionAmount, balance: 'consume', exceed: 'DeductionAmountExceedUnsettled' },
  OrdinaryReceipt: { ...S.OrdinaryReceipt, exceed: 'ReceiptAmountExceedUnreceived' },
  AdvanceReceipt: { ...S.AdvanceReceipt, balance: 'raise', exceed: 'ReceiptAmountExceedUnreceived' },
  SettlementReceipt: { ...S.SettlementReceipt, balance: 'consume', exceed: 'SettlementAmountExceedUnsettled' },
  BeginningPeriodPayment: { ...S.BeginningPeriodPayment, exceed: 'PayAmountExceedUnpaid' },
  BeginningPeriodReceipt: { ...S.BeginningPeriodReceipt, exceed: 'ReceiptAmountExceedUnreceived' },
};

/**
 * The two settling types' rules: the header field of their type, their partner, what they settle. Their
 * accounts are their declarations' (`postings.money`, kind `settle`).
 */
const SIDES = {
  [Payment.type]: { side: 'payment', typeKey: 'payType', partnerKey: 'supplierId', kind: 'payable' },
  [Receipt.type]: { side: 'receipt', typeKey: 'receiptType', partnerKey: 'customerId', kind: 'receivable' },
} as const;
type Side = (typeof SIDES)[keyof typeof SIDES];

/** Fees and incomes: the fee-type kind their lines take (their account is their declaration's, kind `fee`). */
const FEES = {
  [Fee.type]: { feeKind: 'expense' },
  [Income.type]: { feeKind: 'income' },
} as const;

function settling(decl: BillTypeDecl, header: Record<string, unknown>): { s: Side; rule: MoneyRule } {
  const s = SIDES[decl.type];
  const rule = MONEY_RULES[header[s.typeKey] as MoneyType];
  if (!rule || rule.side !== s.side) throw new BizError('PleaseSelectBillType', { additional: header[s.typeKey] });
  return { s, rule };
}

const settlingRules: BillTypeRules = {
  async saving(ctx, decl, draft) {
    const { s, rule } = settling(decl, draft.header);
    if (rule.settles && !draft.lines.length) throw new BizError('AllocationRequired');
    if (!rule.settles && draft.lines.length) throw new BizError('AllocationNotAllowed');
    const beyond = draft.total - sum(draft.lines.map((l) => l.amount));
    // Only advances and settlement payments carry an amount beyond their bills.
    if (beyond > 0n && rule.balance !== 'raise' && !rule.surplusToBalance) throw new BizError('AllocationNotAllowed', { additional: decl.extraAmount });
    if (draft.total <= 0n) throw new BizError('AmountMustGreaterThanZero');
    await assertOpeningSettlement(ctx, rule, draft.lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null));
    if (rule.fund && draft.header.fundAccountId) await usableFund(ctx, draft.header.fundAccountId as number);
    if (rule.balance === 'consume') await assertBalanceCovers(ctx, s, draft.header[s.partnerKey], toBase(draft.total, billRate(draft.header)));
  },
  async completing(ctx, decl, header) {
    const { s, rule } = settling(decl, header);
    if (rule.fund) await usableFund(ctx, header.fundAccountId as number | null);
    if (rule.balance === 'consume') await assertBalanceCovers(ctx, s, header[s.partnerKey], toBase(toMicro(String(header.priceTotal)), billRate(header)));
  },
  exceedRefusal(header) {
    const type = (header.payType ?? header.receiptType) as MoneyType;
    return MONEY_RULES[type]?.exceed ?? 'SettlementAmountExceedUnsettled';
  },
};

/**
 * A deduction or settlement receipt draws no more than the partner's prepaid / advance balance holds — checked
 * when it is saved and submitted (a draft beyond it would hold its bills' open amounts for nothing), and again
 * under the balance's lock when it is audited (the ledger's guard: other bills may have drawn on it since).
 */
async function assertBalanceCovers(ctx: ServiceContext, s: Side, partnerId: unknown, amount: Micro) {
  if (typeof partnerId !== 'number') return;
  const [held] = await ctx.tx
    .select({ prepaid: finPartnerBalance.prepaid, advance: finPartnerBalance.advance })
    .from(finPartnerBalance)
    .where(and(eq(finPartnerBalance.tenantId, ctx.tenantId), eq(finPartnerBalance.partnerId, partnerId)));
  const column = s.side === 'payment' ? 'prepaid' : 'advance';
  const balance = toMicro(held?.[column] ?? '0');
  if (amount > balance) throw refusal(column === 'prepaid' ? 'PrepaidAmountExceedBalance' : 'AdvanceAmountExceedBalance', { partnerId }, { need: amount, have: balance });
}

/** Opening receipts and payments settle opening balances only; the other types settle business bills only. */
async function assertOpeningSettlement(ctx: ServiceContext, rule: MoneyRule, sourceBillIds: number[]) {
  if (!sourceBillIds.length) return;
  const found = await ctx.tx
    .select({ code: bill.billCode, type: bill.billType })
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, sourceBillIds)));
  const wrong = found.find((f) => (f.type === Beginning.type) !== !!rule.opening);
  if (wrong) throw new BizError('OpeningSettlementMismatch', { additional: wrong.code });
}

/** An opening balance's type and partner (the one of its side; the other side's must be empty). */
function beginningOf(header: Record<string, unknown>) {
  const shape = BEGINNING_SHAPES[header.beginningType as BeginningType];
  if (!shape) throw new BizError('PleaseSelectBillType', { additional: header.beginningType });
  const other = shape.partner === 'customerId' ? 'supplierId' : 'customerId';
  if (header[other] != null) throw new BizError('ParamError', { additional: other });
  const partnerId = header[shape.partner] as number | null | undefined;
  if (!partnerId) throw new BizError(shape.partner === 'customerId' ? 'PleaseSelectCustomer' : 'PleaseSelectSupplier');
  return { shape, partnerId };
}

const beginningRules: BillTypeRules = {
  async saving(_ctx, _decl, draft) {
    beginningOf(draft.header);
    if (draft.total <= 0n) throw new BizError('AmountMustGreaterThanZero', { additional: Beginning.extraAmount });
  },
};

const feeRules: BillTypeRules = {
  async saving(ctx, decl, draft) {
    const ids = [...new Set(draft.lines.map((l) => Number(l.extra.feeTypeId)))];
    const found = await ctx.tx.select({ id: feeType.id, kind: feeType.kind }).from(feeType).where(and(eq(feeType.tenantId, ctx.tenantId), inArray(feeType.id, ids)));
    const wrong = ids.find((id) => found.find((f) => f.id === id)?.kind !== FEES[decl.type].feeKind);
    if (wrong !== undefined) throw new BizError('FeeTypeNotExist', { additional: wrong });
    if (draft.header.fundAccountId) await usableFund(ctx, draft.header.fundAccountId as number);
  },
  async completing(ctx, _decl, header) {
    await usableFund(ctx, header.fundAccountId as number | null);
  },
};

/** Registers the rules of finance's bill types with the engine. */
export function registerMoneyRules(rules: BillRules) {
  for (const type of Object.keys(SIDES)) rules.register(type, settlingRules);
  for (const type of Object.keys(FEES)) rules.register(type, feeRules);
  rules.register(Beginning.type, beginningRules);
}

/** The money postings `postMoneyBill` posts (finance's own bills); salary.ts posts `payroll` and `payrollPayment`, settlement.ts `partner`. */
const MONEY_BILL_POSTINGS: ReadonlySet<string> = new Set(['settle', 'fee', 'opening'] satisfies Array<MoneyPostingDecl['kind']>);
const isMoneyBill = (decl: BillTypeDecl) => MONEY_BILL_POSTINGS.has(decl.postings.money?.kind ?? '');

/**
 * The partner record's opening receivable (customers) or payable (suppliers): read-only there, the sum of
 * the partner's audited opening balances of that type, moved here as they are audited or withdrawn (see
 * docs/decisions.md; verify checks it against the ledger).
 */
async function moveOpeningColumn(ctx: ServiceContext, opens: 'receivable' | 'payable', partnerId: number, amount: Micro) {
  const column = opens === 'receivable' ? partner.openingReceivable : partner.openingPayable;
  await ctx.tx
    .update(partner)
    .set(opens === 'receivable' ? { openingReceivable: sql`${column} + ${microText(amount)}::numeric` } : { openingPayable: sql`${column} + ${microText(amount)}::numeric` })
    .where(and(eq(partner.tenantId, ctx.tenantId), eq(partner.id, partnerId)));
}

/**
 * Audit of an opening balance: the opening type's account (`BEGINNING_SHAPES`) against the declared counter,
 * 3001 (Dr 1122 / Cr 3001 for a receivable, Dr 3001 / Cr 2203 for an advance received, Dr 3001 / Cr 2202 for a
 * payable, Dr 1123 / Cr 3001 for a prepayment); a receivable or payable also opens the bill's amount for
 * opening receipts / payments to settle.
 */
async function postBeginning(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow) {
  const { shape, partnerId } = beginningOf({ ...row, ...(row.extra as Record<string, unknown>) });
  const amount = toMicro(row.priceTotal);
  if (shape.opens) {
    await openBill(ctx, row, { kind: shape.opens, partnerId, amount });
    await moveOpeningColumn(ctx, shape.opens, partnerId, amount);
  }
  const side = (debit: boolean) => (debit ? { debit: amount } : { credit: amount });
  await post(ctx, {
    date: row.billDate,
    sourceKind: 'bill',
    sourceId: row.id,
    sourceCode: row.billCode,
    memo: decl.type,
    lines: [
      { account: shape.account, partnerId, ...(shape.opens ? { billId: row.id } : {}), ...side(shape.debit) },
      { account: accountOf(moneyPosting(decl, 'opening').counter), ...side(!shape.debit) },
    ],
  });
}

/** Abandon audit of an opening balance: refused once settled (or an advance consumed), else reversed. */
async function withdrawBeginning(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow) {
  const { shape, partnerId } = beginningOf({ ...row, ...(row.extra as Record<string, unknown>) });
  if (!shape.opens) return reverseSource(ctx, 'bill', row.id, row.billDate);
  await billAbandoned(ctx, decl, row);
  await moveOpeningColumn(ctx, shape.opens, partnerId, -toMicro(row.priceTotal));
}

async function moneyLinesOf(ctx: ServiceContext, row: BillRow) {
  const found = await ctx.tx
    .select({ sourceBillId: billLine.sourceBillId, amount: billLine.priceTotal, extra: billLine.extra })
    .from(billLine)
    .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, row.id)))
    .orderBy(asc(billLine.lineNo));
  return found.map((l) => ({ sourceBillId: l.sourceBillId, amount: toMicro(l.amount), extra: l.extra }));
}

/** Of the fee types `ids`, those marked production overhead (制造费用). */
export async function overheadFeeTypes(ctx: ServiceContext, ids: ReadonlyArray<number | undefined>): Promise<Set<number>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (!wanted.length) return new Set();
  const found = await ctx.tx
    .select({ id: feeType.id })
    .from(feeType)
    .where(and(eq(feeType.tenantId, ctx.tenantId), inArray(feeType.id, wanted), eq(feeType.overhead, true)));
  return new Set(found.map((f) => f.id));
}

/** The settled bills' rows locked in id order (as saving a payment does), before their open amounts. */
async function lockSettled(ctx: ServiceContext, ids: number[]) {
  if (!ids.length) return;
  await ctx.tx
    .select({ id: bill.id })
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)))
    .orderBy(bill.id)
    .for('update');
}

/**
 * The posting of a payment (receipts mirror it), on the accounts its type declares (`settle`): each settled
 * bill off `open` (Dr 2202, per bill), what is left over or advanced onto `balance` (Dr 1123), against the fund
 * (Cr fund) or, for a deduction, against the balance (Cr 1123). A settled bill comes off `open` against its
 * normal side, so the declared accounts say which way the money goes.
 */
function settlingLines(
  decl: BillTypeDecl,
  rule: MoneyRule,
  partnerId: number,
  fund: { id: number; code: PostingLineInput['account'] } | undefined,
  amount: Micro,
  allocations: Array<{ billId: number; amount: Micro }>,
  money: { rate: Micro | undefined; settledBase: ReadonlyMap<number, Micro> },
): PostingLineInput[] {
  const m = moneyPosting(decl, 'settle');
  const open = accountOf(m.open);
  const balance = accountOf(m.balance);
  // "out" is the side that reduces what is open (a payment debits the payable; a receipt credits the receivable).
  const reduces = -normalSide(open);
  const out = (value: Micro) => sides(value * reduces);
  const back = (value: Micro) => (reduces > 0n ? { credit: value } : { debit: value });
  // In CNY (docs/cross-border.md): each bill comes off at its own rate (what settleBills answers), the money and
  // any balance move at this bill's rate, and what that leaves is the exchange difference.
  const lines: PostingLineInput[] = allocations.map((a) => ({ account: open, partnerId, billId: a.billId, ...out(money.settledBase.get(a.billId) ?? a.amount) }));
  const surplus = amount - sum(allocations.map((a) => a.amount));
  const total = toBase(amount, money.rate);
  if (rule.balance === 'raise' || (rule.surplusToBalance && surplus > 0n)) lines.push({ account: balance, partnerId, ...out(toBase(surplus, money.rate)) });
  if (rule.balance === 'consume') lines.push({ account: balance, partnerId, ...back(total) });
  else lines.push({ account: fund!.code, fundAccountId: fund!.id, ...back(total) });
  const unbalanced = sum(lines.map((l) => (l.debit ?? 0n) - (l.credit ?? 0n)));
  if (unbalanced !== 0n) lines.push({ account: ACCOUNT_ROLES.exchangeDifference, partnerId, ...sides(-unbalanced) });
  return lines;
}

/** Audit of a finance bill: settles what its lines settle (under row locks) and posts it. */
export async function postMoneyBill(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  const header = { ...row, ...(row.extra as Record<string, unknown>) } as Record<string, unknown>;
  const lines = await moneyLinesOf(ctx, row);
  const amount = toMicro(row.priceTotal);
  const posting = { date: row.billDate, sourceKind: 'bill' as const, sourceId: row.id, sourceCode: row.billCode, memo: decl.type };
  const kind = decl.postings.money?.kind;
  if (kind === 'opening') return postBeginning(ctx, decl, row);
  if (kind === 'settle') {
    const { s, rule } = settling(decl, header);
    const partnerId = header[s.partnerKey] as number;
    const allocations = lines.map((l) => ({ billId: l.sourceBillId!, amount: l.amount }));
    await lockSettled(ctx, allocations.map((a) => a.billId).sort((a, b) => a - b));
    const settledBase = await settleBills(ctx, { kind: s.kind, partnerId }, allocations, 1n, rule.exceed);
    const fund = rule.fund ? await usableFund(ctx, header.fundAccountId as number | null) : undefined;
    const posted = settlingLines(decl, rule, partnerId, fund, amount, allocations, { rate: billRate(header), settledBase });
    await post(ctx, { ...posting, memo: String(header[s.typeKey]), lines: posted });
    return;
  }
  // A fee or income: each line on the declared account on its normal side (an expense debited, an income
  // credited), the fund the other way; a line of a production-overhead fee type on the declared `overhead`.
  const fee = moneyPosting(decl, 'fee');
  const account = accountOf(fee.account);
  const debited = normalSide(account) > 0n;
  const overheadTypes = fee.overhead ? await overheadFeeTypes(ctx, lines.map((l) => (l.extra as { feeTypeId?: number } | null)?.feeTypeId)) : new Set<number>();
  const accountOfLine = (l: (typeof lines)[number]) => (fee.overhead && overheadTypes.has(Number((l.extra as { feeTypeId?: number } | null)?.feeTypeId)) ? accountOf(fee.overhead) : account);
  const fund = await usableFund(ctx, header.fundAccountId as number | null);
  const partnerId = (row.supplierId ?? row.customerId) || null;
  await post(ctx, {
    ...posting,
    lines: [
      ...lines.map((l): PostingLineInput => ({ account: accountOfLine(l), partnerId, ...(debited ? { debit: l.amount } : { credit: l.amount }) })),
      { account: fund.code, fundAccountId: fund.id, ...(debited ? { credit: amount } : { debit: amount }) },
    ],
  });
}

/** Abandon audit of a finance bill: what it settled opens again, its posting is reversed. */
export async function withdrawMoneyBill(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  const kind = decl.postings.money?.kind;
  if (kind === 'opening') return withdrawBeginning(ctx, decl, row);
  if (kind === 'settle') {
    const header = { ...row, ...(row.extra as Record<string, unknown>) } as Record<string, unknown>;
    const { s, rule } = settling(decl, header);
    const allocations = (await moneyLinesOf(ctx, row)).map((l) => ({ billId: l.sourceBillId!, amount: l.amount }));
    await lockSettled(ctx, allocations.map((a) => a.billId).sort((a, b) => a - b));
    await settleBills(ctx, { kind: s.kind, partnerId: header[s.partnerKey] as number }, allocations, -1n, rule.exceed);
  }
  await reverseSource(ctx, 'bill', row.id, row.billDate);
}

/** Settled amounts by bill from audited settlement lines (what `fin_bill_open.settled` must equal). */
const settledByLinesSql = (tenantId: number) =>
  sql`select l.source_bill_id as bill_id, sum(l.price_total) as settled from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
      where l.tenant_id = ${tenantId} and l.source_line_id is null and l.source_bill_id is not null
        and b.bill_type in (${sql.join(Object.keys(SIDES).map((t) => sql`${t}`), sql`, `)}) and b.bill_status in ('Audit', 'Partially', 'Complete', 'ManualCompletion')
      group by l.source_bill_id`;

/**
 * Verify (a `LedgerCheck`): every bill whose settled amount differs from what the settlement lines of audited
 * payments and receipts took, and every partner whose opening receivable / payable differs from what its
 * opening balances posted.
 */
export async function verifyMoneyBills(ctx: ServiceContext): Promise<FinanceDifference[]> {
  const t = ctx.tenantId;
  const differences: FinanceDifference[] = [];
  const settlements = await rows<{ bill_id: string; settled: string; allocated: string }>(
    ctx.tx,
    sql`select o.bill_id, o.settled::text, coalesce(a.settled, 0)::text as allocated
        from fin_bill_open o left join (${settledByLinesSql(t)}) a on a.bill_id = o.bill_id
        where o.tenant_id = ${t}`,
  );
  for (const s of settlements) if (toMicro(s.settled) !== toMicro(s.allocated)) differences.push({ kind: 'billSettlement', ref: Number(s.bill_id), field: 'settled', stored: microText(toMicro(s.settled)), ledger: microText(toMicro(s.allocated)) });

  // A partner record's opening receivable / payable (read-only there) is what its opening balances posted.
  const openings = await rows<{ id: string; stored: string; ledger: string }>(
    ctx.tx,
    sql`select p.id, p.stored::text, coalesce(o.ledger, 0)::text as ledger
        from (select id, case when kind = 'customer' then opening_receivable else opening_payable end as stored from partner where tenant_id = ${t}) p
        left join (
          select l.partner_id, sum(case when l.account_code = '1122' then l.debit - l.credit else l.credit - l.debit end) as ledger
          from fin_posting_line l join fin_posting f on f.tenant_id = l.tenant_id and f.id = l.posting_id
          join bill b on b.tenant_id = f.tenant_id and b.id = f.source_id
          where l.tenant_id = ${t} and f.source_kind = 'bill' and b.bill_type = ${Beginning.type} and l.account_code in ('1122', '2202')
          group by l.partner_id
        ) o on o.partner_id = p.id
        where p.stored <> coalesce(o.ledger, 0)`,
  );
  for (const o of openings) differences.push({ kind: 'partnerOpening', ref: Number(o.id), field: 'opening', stored: microText(toMicro(o.stored)), ledger: microText(toMicro(o.ledger)) });
  return differences;
}

/** The finance posting hook for every bill: finance's own bills post money, bills with a receivable or payable open it. */
export function financePostingHook(opening: BillPostingHook): BillPostingHook {
  return {
    audited: (ctx, decl, row) => (isMoneyBill(decl) ? postMoneyBill(ctx, decl, row) : isSalaryBill(decl) ? postSalaryBill(ctx, decl, row) : opening.audited(ctx, decl, row)),
    abandoned: (ctx, decl, row) => (isMoneyBill(decl) ? withdrawMoneyBill(ctx, decl, row) : isSalaryBill(decl) ? withdrawSalaryBill(ctx, decl, row) : opening.abandoned(ctx, decl, row)),
  };
}
