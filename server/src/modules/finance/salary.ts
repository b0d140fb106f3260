import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { microText, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { ProcessAccounting } from '@p8/contract/bills/production';
import type { BillPayload } from '@p8/contract/bills/registry';
import { PIECE_WAGE, Salary, SALARY_DEDUCTIONS, SALARY_ITEMS, SalaryPayment } from '@p8/contract/bills/salary';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { accountOf, type FinanceDifference } from '@p8/contract/finance';
import { BizError } from '../../core/errors.ts';
import type { RecordUsage } from '../../core/record-usage.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { bill, billLine } from '../../db/schema/index.ts';
import type { BillRules } from '../../bills/rules.ts';
import type { BillPostingHook } from '../../bills/posting-hooks.ts';
import type { BillRow } from '../../bills/service.ts';
import { post, reverseSource, type PostingLineInput } from './ledger.ts';
import { usableFund } from './money.ts';
import { moneyPosting } from './postings.ts';
import { lockKey } from '../../core/advisory-lock.ts';

/**
 * Salaries (contract bills/salary.ts): a salary bill per pay period with a line per staff member (items less
 * deductions give the net pay, computed by the engine), and salary payments that pay audited salary bills
 * from a fund account (settlement lines). What is theirs here:
 * - rules: a staff member once per bill and, across audited salary bills, once per period
 *   (`SalaryStaffRepeatInBill`, `SalaryStaffRepeat`; checked at save, and again at audit under a lock on the
 *   period); a salary payment needs a usable fund account from submit on;
 * - postings: a salary bill Dr 6602 gross (piece wages Dr 5001, the workshop's direct labour) / Cr 2211 net /
 *   Cr 2241 withheld; a salary payment Dr 2211 / Cr fund;
 *   withdrawing either reverses it;
 * - the blocker: a salary bill written off (an audited payment pays part or all of it) keeps its audit;
 * - piece wages: a salary line's `pieceWage` is what the period's audited piece-rate accounting (工序核算) gives
 *   the staff member, filled in at save — and a saved bill gains a line for each worker with piece wages in the
 *   period who is on no other salary bill of it; at audit the figures must still hold (`PieceWagesChanged`).
 *   Piece-rate accounting is not audited into a period whose salary for its worker is audited
 *   (`SalaryAuditedForPieceWages`), nor withdrawn once an audited salary paid it
 *   (`PieceWagesInSalaryProhibitAbandonAudit`) — both under the period's lock, as salary audits;
 * - "in use": a staff member named by a salary line is in use (staff are disabled, not deleted);
 * - verify: what each audited salary bill leaves on 2211 equals its net less what audited payments paid.
 */

const POSTED = [...POSTED_STATUSES];
const inPosted = sql.join(POSTED.map((s) => sql`${s}`), sql`, `);

/** Whether `postSalaryBill` posts the type: it declares a `payroll` or `payrollPayment` money posting. */
export const isSalaryBill = (decl: BillTypeDecl) => decl.postings.money?.kind === 'payroll' || decl.postings.money?.kind === 'payrollPayment';

interface SalaryLine {
  staffId: number;
  amount: Micro;
  extra: Record<string, unknown>;
}

async function linesOf(ctx: ServiceContext, billId: number) {
  const found = await ctx.tx
    .select({ sourceBillId: billLine.sourceBillId, amount: billLine.priceTotal, extra: billLine.extra })
    .from(billLine)
    .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, billId)))
    .orderBy(asc(billLine.lineNo));
  return found.map((l) => ({ sourceBillId: l.sourceBillId, amount: toMicro(l.amount), extra: l.extra, staffId: Number(l.extra.staffId) }));
}

/** The first of `staffIds` already on an audited salary bill of `period` other than `billId`. */
async function paidInPeriod(tx: Tx, tenantId: number, period: string, staffIds: number[], billId: number): Promise<number | undefined> {
  if (!staffIds.length) return undefined;
  const paid = await onSalaryBills(tx, tenantId, period, billId, true);
  return staffIds.find((id) => paid.has(id));
}

function assertOncePerBill(lines: ReadonlyArray<{ extra: Record<string, unknown> }>) {
  const seen = new Set<number>();
  for (const l of lines) {
    const id = Number(l.extra.staffId);
    if (seen.has(id)) throw new BizError('SalaryStaffRepeatInBill', { additional: id });
    seen.add(id);
  }
}

/** One audit of a period's salaries (and of piece wages going into it) at a time. */
async function lockPeriod(tx: Tx, tenantId: number, period: string) {
  await lockKey(tx, `salary:${tenantId}:${period}`);
}

/** Each staff member's piece wages of `period`: the lines of audited piece-rate accounting of that period. */
async function pieceWagesOf(tx: Tx, tenantId: number, period: string): Promise<Map<number, Micro>> {
  const found = await rows<{ staff_id: string; wage: string }>(
    tx,
    sql`select (l.extra->>'staffId')::bigint as staff_id, sum(l.price_total)::text as wage
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and b.bill_type = ${ProcessAccounting.type} and b.bill_status in (${inPosted}) and b.extra->>'salaryPeriod' = ${period}
        group by 1`,
  );
  return new Map(found.map((f) => [Number(f.staff_id), toMicro(f.wage)]));
}

/** The staff on salary bills of `period` other than `billId` (any status but merged; audited only with `postedOnly`). */
async function onSalaryBills(tx: Tx, tenantId: number, period: string, billId: number, postedOnly: boolean): Promise<Map<number, Micro>> {
  const found = await rows<{ staff_id: string; wage: string }>(
    tx,
    sql`select (l.extra->>'staffId')::bigint as staff_id, sum(coalesce((l.extra->>'pieceWage')::numeric, 0))::text as wage
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and b.bill_type = ${Salary.type} and b.extra->>'salaryPeriod' = ${period} and b.id <> ${billId}
          and ${postedOnly ? sql`b.bill_status in (${inPosted})` : sql`b.bill_status <> 'Merged'`}
        group by 1`,
  );
  return new Map(found.map((f) => [Number(f.staff_id), toMicro(f.wage)]));
}

/**
 * A salary bill's lines as saved: each line's piece wages those of its staff member in the period, and a line
 * for every worker with piece wages in the period who is on no other salary bill of it.
 */
async function withPieceWages(ctx: ServiceContext, _decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']> {
  const period = payload.salaryPeriod;
  if (typeof period !== 'string' || !period) return payload.lines;
  const wages = await pieceWagesOf(ctx.tx, ctx.tenantId, period);
  const own = Number((payload as { id?: unknown }).id ?? 0);
  const elsewhere = await onSalaryBills(ctx.tx, ctx.tenantId, period, own, false);
  const here = new Set(payload.lines.map((l) => Number(l.staffId)));
  const wageOf = (staffId: number) => microText(wages.get(staffId) ?? 0n);
  const added = [...wages.keys()].filter((id) => !here.has(id) && !elsewhere.has(id)).map((staffId) => ({ staffId, [PIECE_WAGE.key]: wageOf(staffId) }));
  return [...payload.lines.map((l) => ({ ...l, [PIECE_WAGE.key]: wageOf(Number(l.staffId)) })), ...added];
}

/** Registers the salary types' rules with the engine. */
export function registerSalaryRules(rules: BillRules) {
  rules.register(Salary.type, {
    completeLines: withPieceWages,
    async saving(ctx, _decl, draft) {
      assertOncePerBill(draft.lines);
      const repeat = await paidInPeriod(ctx.tx, ctx.tenantId, String(draft.header.salaryPeriod), draft.lines.map((l) => Number(l.extra.staffId)), draft.billId);
      if (repeat !== undefined) throw new BizError('SalaryStaffRepeat', { additional: repeat });
    },
  });
  rules.register(SalaryPayment.type, {
    async saving(ctx, _decl, draft) {
      if (draft.header.fundAccountId) await usableFund(ctx, draft.header.fundAccountId as number);
    },
    async completing(ctx, _decl, header) {
      await usableFund(ctx, header.fundAccountId as number | null);
    },
  });
}

const part = (line: SalaryLine, keys: ReadonlyArray<{ key: string }>) => sum(keys.map((f) => toMicro(String(line.extra[f.key] ?? 0))));

async function setWrittenOff(tx: Tx, tenantId: number, billId: number) {
  await tx
    .update(bill)
    .set({ progress: sql`${bill.progress} || ${JSON.stringify({ settlement: 'UnSettlement' })}::jsonb` })
    .where(and(eq(bill.tenantId, tenantId), eq(bill.id, billId)));
}

/** Audit of a salary bill or a salary payment: its rules checked again under locks, then its posting. */
export async function postSalaryBill(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  const lines = await linesOf(ctx, row.id);
  const posting = { date: row.billDate, sourceKind: 'bill' as const, sourceId: row.id, sourceCode: row.billCode, memo: decl.type };
  if (decl.postings.money?.kind === 'payroll') {
    const m = moneyPosting(decl, 'payroll');
    const period = String((row.extra as Record<string, unknown>).salaryPeriod);
    // One audit of the period's salaries at a time, so two bills naming one staff member cannot both pass.
    await lockPeriod(ctx.tx, ctx.tenantId, period);
    const repeat = await paidInPeriod(ctx.tx, ctx.tenantId, period, lines.map((l) => l.staffId), row.id);
    if (repeat !== undefined) throw new BizError('SalaryStaffRepeat', { additional: repeat });
    // The piece wages saved must still be the period's: accounting audited or withdrawn since asks for a new save.
    const wages = await pieceWagesOf(ctx.tx, ctx.tenantId, period);
    const changed = lines.find((l) => part(l, [PIECE_WAGE]) !== (wages.get(l.staffId) ?? 0n));
    if (changed) throw new BizError('PieceWagesChanged', { additional: changed.staffId });
    const pieceWages = sum(lines.map((l) => part(l, [PIECE_WAGE])));
    const gross = sum(lines.map((l) => part(l, SALARY_ITEMS)));
    const withheld = sum(lines.map((l) => part(l, SALARY_DEDUCTIONS)));
    const net = toMicro(row.priceTotal);
    const labour = m.pieceWages ? pieceWages : 0n;
    await post(ctx, {
      ...posting,
      // Each on its normal side as the declaration names them: Dr expense (piece wages Dr their own account) /
      // Cr salaries payable / Cr withheld.
      lines: [
        { account: accountOf(m.expense), debit: gross - labour },
        ...(m.pieceWages && labour ? [{ account: accountOf(m.pieceWages), debit: labour }] : []),
        { account: accountOf(m.payable), credit: net, billId: row.id },
        { account: accountOf(m.withheld), credit: withheld },
      ],
    });
    await setWrittenOff(ctx.tx, ctx.tenantId, row.id);
    return;
  }
  // A salary payment: the salary bills it pays, locked in id order and still audited (a withdrawal may have
  // committed since the payment was saved).
  const ids = lines.map((l) => l.sourceBillId!).sort((a, b) => a - b);
  const paid = await ctx.tx
    .select({ id: bill.id, status: bill.billStatus, code: bill.billCode })
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)))
    .orderBy(bill.id)
    .for('update');
  const closed = paid.find((p) => !POSTED.includes(p.status as never));
  if (closed || paid.length !== ids.length) throw new BizError('SettleBillNotOpen', { additional: closed?.code });
  const fund = await usableFund(ctx, (row.extra as Record<string, unknown>).fundAccountId as number | null);
  const open = accountOf(moneyPosting(decl, 'payrollPayment').open);
  await post(ctx, {
    ...posting,
    lines: [
      ...lines.map((l): PostingLineInput => ({ account: open, debit: l.amount, billId: l.sourceBillId })),
      { account: fund.code, fundAccountId: fund.id, credit: toMicro(row.priceTotal) },
    ],
  });
}

/**
 * Piece-rate accounting, as the salaries of its period see it (a posting hook: it posts nothing itself): its
 * audit is refused once a worker of it has an audited salary of the period (the wages could no longer be paid),
 * its withdrawal while an audited salary of the period paid a worker of it piece wages. Under the period's lock,
 * so a salary audit and these cannot pass each other.
 */
export const pieceWageHook: BillPostingHook = {
  async audited(ctx, decl, row) {
    if (decl.type !== ProcessAccounting.type) return;
    const period = String((row.extra as Record<string, unknown>).salaryPeriod);
    await lockPeriod(ctx.tx, ctx.tenantId, period);
    const paid = await onSalaryBills(ctx.tx, ctx.tenantId, period, 0, true);
    const worker = (await linesOf(ctx, row.id)).find((l) => paid.has(l.staffId));
    if (worker) throw new BizError('SalaryAuditedForPieceWages', { additional: worker.staffId });
  },
  async abandoned(ctx, decl, row) {
    if (decl.type !== ProcessAccounting.type) return;
    const period = String((row.extra as Record<string, unknown>).salaryPeriod);
    await lockPeriod(ctx.tx, ctx.tenantId, period);
    const paid = await onSalaryBills(ctx.tx, ctx.tenantId, period, 0, true);
    if ((await linesOf(ctx, row.id)).some((l) => (paid.get(l.staffId) ?? 0n) !== 0n)) throw new BizError('PieceWagesInSalaryProhibitAbandonAudit');
  },
};

/** Abandon audit of a salary bill (the blocker let it through) or a salary payment: the posting reversed. */
export async function withdrawSalaryBill(ctx: ServiceContext, _decl: BillTypeDecl, row: BillRow): Promise<void> {
  await reverseSource(ctx, 'bill', row.id, row.billDate);
}

/** What audited salary payments paid of the salary bill. */
async function paidOf(tx: Tx, tenantId: number, billId: number): Promise<Micro> {
  const [found] = await rows<{ paid: string | null }>(
    tx,
    sql`select sum(l.price_total)::text as paid from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and l.source_bill_id = ${billId} and l.source_line_id is null
          and b.bill_type = ${SalaryPayment.type} and b.bill_status in (${inPosted})`,
  );
  return toMicro(found?.paid ?? '0');
}

/** The abandon-audit blocker: a salary bill paid in part or in full (written off) keeps its audit. */
export async function salaryWrittenOffBlocker(tx: Tx, tenantId: number, billId: number) {
  const [head] = await tx.select({ type: bill.billType }).from(bill).where(and(eq(bill.tenantId, tenantId), eq(bill.id, billId)));
  if (head?.type !== Salary.type) return undefined;
  return (await paidOf(tx, tenantId, billId)) !== 0n ? ('SalaryWrittenOffProhibitAbandonAudit' as const) : undefined;
}

/** A staff member named by a salary line is in use (the staff account is disabled instead of deleted). */
export function registerSalaryUsage(usage: RecordUsage) {
  usage.register('staff', 'salary lines', async (tx, tenantId, ids) => {
    const [found] = await rows<{ id: string }>(
      tx,
      sql`select (extra->>'staffId')::bigint as id from bill_line
          where tenant_id = ${tenantId} and extra ? 'staffId' and (extra->>'staffId')::bigint in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) limit 1`,
    );
    return found ? { id: Number(found.id) } : undefined;
  });
}

/** Verify: each audited salary bill's balance on 2211 equals its net pay less what audited payments paid. */
export async function verifySalaries(ctx: ServiceContext): Promise<FinanceDifference[]> {
  const found = await rows<{ id: string; open: string; ledger: string }>(
    ctx.tx,
    sql`select b.id, (b.price_total - coalesce((
                select sum(l.price_total) from bill_line l join bill p on p.tenant_id = l.tenant_id and p.id = l.bill_id
                where l.tenant_id = b.tenant_id and l.source_bill_id = b.id and l.source_line_id is null
                  and p.bill_type = ${SalaryPayment.type} and p.bill_status in (${inPosted})), 0))::text as open,
               coalesce((select sum(pl.credit - pl.debit) from fin_posting_line pl
                         where pl.tenant_id = b.tenant_id and pl.bill_id = b.id and pl.account_code = ${accountOf(moneyPosting(Salary, 'payroll').payable)}), 0)::text as ledger
        from bill b where b.tenant_id = ${ctx.tenantId} and b.bill_type = ${Salary.type} and b.bill_status in (${inPosted})`,
  );
  return found
    .filter((f) => toMicro(f.open) !== toMicro(f.ledger))
    .map((f) => ({ kind: 'billSettlement' as const, ref: Number(f.id), field: 'salary', stored: microText(toMicro(f.open)), ledger: microText(toMicro(f.ledger)) }));
}
