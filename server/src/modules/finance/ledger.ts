import { toBase } from '@p8/contract/bills/currency';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { microText, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { DEFAULT_CHART, type AccountCode, type FinanceDifference } from '@p8/contract/finance';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import { finAccount, finFundAccount, finPartnerBalance, finPosting, finPostingLine } from '../../db/schema/index.ts';

/**
 * The general ledger: one posting function for every entry (it refuses an unbalanced one), reversal of a
 * source's postings, and the two kept balances the postings move — per partner (receivable, payable,
 * prepaid, advance) and per fund account — each written under a row lock in the same transaction.
 */

export interface PostingLineInput {
  account: AccountCode;
  debit?: Micro;
  credit?: Micro;
  partnerId?: number | null;
  fundAccountId?: number | null;
  billId?: number | null;
}

export interface PostingInput {
  date: string;
  /** `costRun`: production's month-end cost run (source id: the period as YYYYMM). */
  sourceKind: 'bill' | 'payment' | 'receipt' | 'transfer' | 'opening' | 'stock' | 'costRun';
  sourceId: number;
  sourceCode: string;
  memo?: string;
  reversalOf?: number;
  lines: PostingLineInput[];
}

/** A partner's kept balances (fin_partner_balance's columns). */
export type PartnerBalanceKind = 'receivable' | 'payable' | 'prepaid' | 'advance';

/** The partner balance an account moves, and in which direction (+1: debit raises it). */
export const PARTNER_BALANCE: Partial<Record<AccountCode, { column: PartnerBalanceKind; sign: 1n | -1n }>> = {
  '1122': { column: 'receivable', sign: 1n },
  '2202': { column: 'payable', sign: -1n },
  '1123': { column: 'prepaid', sign: 1n },
  '2203': { column: 'advance', sign: -1n },
};
const FUND_CODES = new Set<string>(['1001', '1002', '1012']);

/** Seeds the default chart of accounts for the tenant, and later the accounts added to it since. */
export async function ensureChart(ctx: ServiceContext): Promise<void> {
  const [found] = await ctx.tx.select({ count: sql<number>`count(*)::int` }).from(finAccount).where(eq(finAccount.tenantId, ctx.tenantId));
  if (Number(found.count) >= DEFAULT_CHART.length) return;
  await ctx.tx
    .insert(finAccount)
    .values(DEFAULT_CHART.map((a) => ({ tenantId: ctx.tenantId, code: a.code, nameZh: a.label.zh, nameEn: a.label.en, kind: a.kind })))
    .onConflictDoNothing();
}

/** Whether lines balance: every side non-negative, Σ debit = Σ credit, something posted. Pure. */
export function balanced(lines: Array<{ debit?: Micro; credit?: Micro }>): boolean {
  if (lines.some((l) => (l.debit ?? 0n) < 0n || (l.credit ?? 0n) < 0n)) return false;
  const debit = sum(lines.map((l) => l.debit ?? 0n));
  return debit > 0n && debit === sum(lines.map((l) => l.credit ?? 0n));
}

/**
 * Writes one journal entry and moves the kept balances. Refuses an unbalanced entry (`PostingUnbalanced`),
 * a prepaid or advance balance going below zero, and a fund account going below zero.
 */
export async function post(ctx: ServiceContext, input: PostingInput): Promise<number> {
  const lines = input.lines.filter((l) => (l.debit ?? 0n) !== 0n || (l.credit ?? 0n) !== 0n);
  if (!balanced(lines)) throw new BizError('PostingUnbalanced', { additional: input.sourceCode });
  await ensureChart(ctx);
  const [posting] = await ctx.tx
    .insert(finPosting)
    .values({ tenantId: ctx.tenantId, postingDate: input.date, sourceKind: input.sourceKind, sourceId: input.sourceId, sourceCode: input.sourceCode, reversalOf: input.reversalOf ?? null, memo: input.memo ?? '', createdBy: ctx.account.adminId })
    .returning({ id: finPosting.id });
  await ctx.tx.insert(finPostingLine).values(
    lines.map((l) => ({
      tenantId: ctx.tenantId,
      postingId: posting.id,
      postingDate: input.date,
      accountCode: l.account,
      partnerId: l.partnerId ?? null,
      fundAccountId: l.fundAccountId ?? null,
      billId: l.billId ?? null,
      debit: microText(l.debit ?? 0n),
      credit: microText(l.credit ?? 0n),
    })),
  );
  await applyBalances(ctx, lines);
  return posting.id;
}

type PartnerDelta = Record<PartnerBalanceKind, Micro>;

async function applyBalances(ctx: ServiceContext, lines: PostingLineInput[]) {
  const partners = new Map<number, PartnerDelta>();
  const funds = new Map<number, Micro>();
  for (const l of lines) {
    const net = (l.debit ?? 0n) - (l.credit ?? 0n);
    const target = PARTNER_BALANCE[l.account];
    if (target && l.partnerId) {
      const delta = partners.get(l.partnerId) ?? { receivable: 0n, payable: 0n, prepaid: 0n, advance: 0n };
      delta[target.column] += net * target.sign;
      partners.set(l.partnerId, delta);
    }
    if (FUND_CODES.has(l.account) && l.fundAccountId) funds.set(l.fundAccountId, (funds.get(l.fundAccountId) ?? 0n) + net);
  }
  // Fixed lock order (ids ascending) so two postings touching the same rows wait instead of deadlocking.
  for (const partnerId of [...partners.keys()].sort((a, b) => a - b)) {
    const delta = partners.get(partnerId)!;
    const [row] = await ctx.tx
      .select()
      .from(finPartnerBalance)
      .where(and(eq(finPartnerBalance.tenantId, ctx.tenantId), eq(finPartnerBalance.partnerId, partnerId)))
      .for('update');
    const next = {
      receivable: toMicro(row?.receivable ?? '0') + delta.receivable,
      payable: toMicro(row?.payable ?? '0') + delta.payable,
      prepaid: toMicro(row?.prepaid ?? '0') + delta.prepaid,
      advance: toMicro(row?.advance ?? '0') + delta.advance,
    };
    const held = { prepaid: next.prepaid - delta.prepaid, advance: next.advance - delta.advance };
    if (next.prepaid < 0n) throw refusal('PrepaidAmountExceedBalance', { partnerId }, { need: -delta.prepaid, have: held.prepaid });
    if (next.advance < 0n) throw refusal('AdvanceAmountExceedBalance', { partnerId }, { need: -delta.advance, have: held.advance });
    const values = { receivable: microText(next.receivable), payable: microText(next.payable), prepaid: microText(next.prepaid), advance: microText(next.advance), updatedAt: new Date() };
    await ctx.tx
      .insert(finPartnerBalance)
      .values({ tenantId: ctx.tenantId, partnerId, ...values })
      .onConflictDoUpdate({ target: [finPartnerBalance.tenantId, finPartnerBalance.partnerId], set: values });
  }
  for (const fundId of [...funds.keys()].sort((a, b) => a - b)) {
    const [row] = await ctx.tx
      .select({ balance: finFundAccount.balance, enabled: finFundAccount.enabled, name: finFundAccount.name })
      .from(finFundAccount)
      .where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.id, fundId)))
      .for('update');
    if (!row) throw new BizError('FundAccountNotExist', { additional: fundId });
    // Read under the row's lock: an account disabled (at a zero balance, money.ts) since the bill was checked takes nothing.
    if (!row.enabled) throw new BizError('FundAccountIsDisabled', { additional: row.name });
    const delta = funds.get(fundId)!;
    const next = toMicro(row.balance) + delta;
    if (delta < 0n && next < 0n) throw refusal('AccountBalanceInsufficient', { fundAccountId: fundId }, { need: -delta, have: toMicro(row.balance) });
    await ctx.tx
      .update(finFundAccount)
      .set({ balance: microText(next), updatedAt: new Date() })
      .where(and(eq(finFundAccount.tenantId, ctx.tenantId), eq(finFundAccount.id, fundId)));
  }
}

/**
 * Reverses every posting of a source not reversed yet: a new posting with each line's sides swapped,
 * dated `date`. The ledger keeps both (append-only).
 */
export async function reverseSource(ctx: ServiceContext, sourceKind: PostingInput['sourceKind'], sourceId: number, date: string): Promise<void> {
  const postings = await ctx.tx
    .select()
    .from(finPosting)
    .where(
      and(
        eq(finPosting.tenantId, ctx.tenantId),
        eq(finPosting.sourceKind, sourceKind),
        eq(finPosting.sourceId, sourceId),
        isNull(finPosting.reversalOf),
        sql`not exists (select 1 from fin_posting r where r.tenant_id = ${finPosting.tenantId} and r.reversal_of = ${finPosting.id})`,
      ),
    )
    .orderBy(asc(finPosting.id));
  if (!postings.length) return;
  const lines = await ctx.tx
    .select()
    .from(finPostingLine)
    .where(and(eq(finPostingLine.tenantId, ctx.tenantId), inArray(finPostingLine.postingId, postings.map((p) => p.id))))
    .orderBy(asc(finPostingLine.id));
  for (const p of postings) {
    await post(ctx, {
      date,
      sourceKind,
      sourceId,
      sourceCode: p.sourceCode,
      memo: p.memo,
      reversalOf: p.id,
      lines: lines
        .filter((l) => l.postingId === p.id)
        .map((l) => ({ account: l.accountCode as AccountCode, debit: toMicro(l.credit), credit: toMicro(l.debit), partnerId: l.partnerId, fundAccountId: l.fundAccountId, billId: l.billId })),
    });
  }
}

// ---------------------------------------------------------------- verify

/**
 * A check of what a bill type's own postings keep (money-bills.ts: settled amounts, partners' opening
 * figures; salary.ts: salaries payable). Finance's routes hand them to `verifyLedger`, so that the ledger
 * depends on none of the modules that post through it.
 */
export type LedgerCheck = (ctx: ServiceContext) => Promise<FinanceDifference[]>;

/**
 * Every unbalanced posting, every partner or fund balance that differs from the sum of its ledger lines,
 * every day and account whose kept totals differ from the lines, every open receivable / payable that differs
 * from what its bill left on the partner's account, the inventory account against the stock ledger, and what
 * each of `checks` finds.
 */
export async function verifyLedger(ctx: ServiceContext, checks: readonly LedgerCheck[]): Promise<FinanceDifference[]> {
  const t = ctx.tenantId;
  const differences: FinanceDifference[] = [];
  const unbalanced = await rows<{ id: string; debit: string; credit: string }>(
    ctx.tx,
    sql`select p.id, coalesce(sum(l.debit), 0)::text as debit, coalesce(sum(l.credit), 0)::text as credit
        from fin_posting p left join fin_posting_line l on l.tenant_id = p.tenant_id and l.posting_id = p.id
        where p.tenant_id = ${t} group by p.id having coalesce(sum(l.debit), 0) <> coalesce(sum(l.credit), 0) or coalesce(sum(l.debit), 0) = 0`,
  );
  for (const u of unbalanced) differences.push({ kind: 'unbalancedPosting', ref: Number(u.id), field: 'debit', stored: microText(toMicro(u.debit)), ledger: microText(toMicro(u.credit)) });

  const partnerSums = await rows<{ partner_id: string; receivable: string; payable: string; prepaid: string; advance: string }>(
    ctx.tx,
    sql`select coalesce(b.partner_id, l.partner_id) as partner_id,
               coalesce(b.receivable, 0)::text as receivable, coalesce(b.payable, 0)::text as payable, coalesce(b.prepaid, 0)::text as prepaid, coalesce(b.advance, 0)::text as advance,
               coalesce(l.receivable, 0)::text as l_receivable, coalesce(l.payable, 0)::text as l_payable, coalesce(l.prepaid, 0)::text as l_prepaid, coalesce(l.advance, 0)::text as l_advance
        from (select * from fin_partner_balance where tenant_id = ${t}) b
        full join (
          select partner_id,
                 sum(debit - credit) filter (where account_code = '1122') as receivable,
                 sum(credit - debit) filter (where account_code = '2202') as payable,
                 sum(debit - credit) filter (where account_code = '1123') as prepaid,
                 sum(credit - debit) filter (where account_code = '2203') as advance
          from fin_posting_line where tenant_id = ${t} and partner_id is not null group by partner_id
        ) l on l.partner_id = b.partner_id`,
  );
  for (const p of partnerSums as unknown as Array<Record<string, string>>) {
    for (const field of ['receivable', 'payable', 'prepaid', 'advance']) {
      if (toMicro(p[field]) !== toMicro(p[`l_${field}`])) differences.push({ kind: 'partnerBalance', ref: Number(p.partner_id), field, stored: microText(toMicro(p[field])), ledger: microText(toMicro(p[`l_${field}`])) });
    }
  }

  const fundSums = await rows<{ id: string; balance: string; ledger: string }>(
    ctx.tx,
    sql`select f.id, f.balance::text, coalesce((select sum(l.debit - l.credit) from fin_posting_line l where l.tenant_id = f.tenant_id and l.fund_account_id = f.id), 0)::text as ledger
        from fin_fund_account f where f.tenant_id = ${t}`,
  );
  for (const f of fundSums) if (toMicro(f.balance) !== toMicro(f.ledger)) differences.push({ kind: 'fundBalance', ref: Number(f.id), field: 'balance', stored: microText(toMicro(f.balance)), ledger: microText(toMicro(f.ledger)) });

  // The per-account, per-day totals the trial balance reads equal the lines (field: the account and day).
  const accountDays = await rows<{ account_code: string; day: string; stored_debit: string; stored_credit: string; debit: string; credit: string }>(
    ctx.tx,
    sql`select coalesce(a.account_code, l.account_code) as account_code, coalesce(a.day, l.day)::text as day,
               coalesce(a.debit, 0)::text as stored_debit, coalesce(a.credit, 0)::text as stored_credit, coalesce(l.debit, 0)::text as debit, coalesce(l.credit, 0)::text as credit
        from (select account_code, day, sum(debit) as debit, sum(credit) as credit from fin_account_day where tenant_id = ${t} group by 1, 2) a
        full join (select account_code, posting_date as day, sum(debit) as debit, sum(credit) as credit from fin_posting_line where tenant_id = ${t} group by 1, 2) l
          on l.account_code = a.account_code and l.day = a.day
        where a.debit is distinct from l.debit or a.credit is distinct from l.credit`,
  );
  for (const a of accountDays) {
    differences.push({ kind: 'accountTotal', ref: 0, field: `${a.account_code} ${a.day}`, stored: `${microText(toMicro(a.stored_debit))} / ${microText(toMicro(a.stored_credit))}`, ledger: `${microText(toMicro(a.debit))} / ${microText(toMicro(a.credit))}` });
  }

  // An open receivable / payable of a bill equals what its bill postings left on the partner's account.
  // A bill in a foreign currency leaves its open amount at its own rate (docs/cross-border.md): toBase(amount) − toBase(settled).
  const openSums = await rows<{ bill_id: string; amount: string; settled: string; rate: string | null; ledger: string }>(
    ctx.tx,
    sql`select o.bill_id, o.amount::text, o.settled::text, o.rate::text,
               coalesce((select sum(case when o.kind = 'receivable' then l.debit - l.credit else l.credit - l.debit end) from fin_posting_line l
                         where l.tenant_id = o.tenant_id and l.bill_id = o.bill_id and l.account_code = case when o.kind = 'receivable' then '1122' else '2202' end), 0)::text as ledger
        from fin_bill_open o where o.tenant_id = ${t}`,
  );
  for (const s of openSums) {
    const rate = s.rate === null ? undefined : toMicro(s.rate);
    const open = toBase(toMicro(s.amount), rate) - toBase(toMicro(s.settled), rate);
    if (open !== toMicro(s.ledger)) differences.push({ kind: 'billSettlement', ref: Number(s.bill_id), field: 'open', stored: microText(open), ledger: microText(toMicro(s.ledger)) });
  }

  // The inventory account holds what the stock is worth: Σ the stock ledger's values (moving average).
  const [inventory] = await rows<{ stock: string; ledger: string }>(
    ctx.tx,
    sql`select coalesce((select sum(amount) from stock_ledger where tenant_id = ${t}), 0)::text as stock,
               coalesce((select sum(debit - credit) from fin_posting_line where tenant_id = ${t} and account_code = '1405'), 0)::text as ledger`,
  );
  if (toMicro(inventory.stock) !== toMicro(inventory.ledger)) differences.push({ kind: 'inventory', ref: 0, field: '1405', stored: microText(toMicro(inventory.stock)), ledger: microText(toMicro(inventory.ledger)) });
  for (const check of checks) differences.push(...(await check(ctx)));
  return differences;
}
