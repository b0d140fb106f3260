import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { billRate, toBase } from '@p8/contract/bills/currency';
import { abs, microText, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { meets, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { SettledStatus } from '@p8/contract/finance';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import type { Tx } from '../../db/connection.ts';
import { bill, finBillOpen } from '../../db/schema/index.ts';
import type { BillRow } from '../../bills/service.ts';
import { post, reverseSource } from './ledger.ts';
import { partnerBillLines, sides } from './postings.ts';

/**
 * What finance does when a bill with a receivable or payable (its declaration's `settlement`) is audited
 * or its audit withdrawn: the open amount (`fin_bill_open`), the ledger posting, and the bill's header
 * progress `settlement` set to UnSettlement (audited payments and receipts move it on: the engine, by amount).
 */

/** The settled state of an amount (both signed alike). Pure. */
export function settledStatus(amount: Micro, settled: Micro): SettledStatus {
  if (settled === 0n) return amount === 0n ? 'AllSettlement' : 'UnSettlement';
  return settled === amount ? 'AllSettlement' : 'PartialSettlement';
}

async function setBillSettlement(tx: Tx, tenantId: number, billId: number, status: SettledStatus) {
  await tx
    .update(bill)
    .set({ progress: sql`${bill.progress} || ${JSON.stringify({ settlement: status })}::jsonb` })
    .where(and(eq(bill.tenantId, tenantId), eq(bill.id, billId)));
}

/** Whether the bill opens a receivable or payable: its declaration's `settlement`, when its `settlementWhen` holds. */
export function settles(decl: BillTypeDecl, row: BillRow): decl is BillTypeDecl & { settlement: NonNullable<BillTypeDecl['settlement']> } {
  return !!decl.settlement && meets(decl.settlementWhen, { ...row, ...(row.extra as Record<string, unknown>) });
}

/**
 * The tax of a bill that settles (tax-inclusive less tax-exclusive amount), signed like its receivable or
 * payable (a refund's is negative); 0 for a bill that opens none. Output VAT on sales, input VAT on purchases.
 */
export function settlementTax(decl: BillTypeDecl, row: BillRow): Micro {
  if (!settles(decl, row)) return 0n;
  const rate = rateOfRow(row);
  return (toBase(toMicro(row.taxPriceTotal), rate) - toBase(toMicro(row.priceTotal), rate)) * BigInt(decl.settlement.sign);
}

/** A bill row's exchange rate (docs/cross-border.md), undefined for a bill in CNY. */
export const rateOfRow = (row: BillRow): Micro | undefined => billRate({ ...(row.extra as Record<string, unknown>) });

/** The receivable / payable a bill row opens, or undefined (no settlement effect, no partner). */
function openingOf(decl: BillTypeDecl, row: BillRow): { kind: 'receivable' | 'payable'; partnerId: number; amount: Micro } | undefined {
  if (!settles(decl, row)) return undefined;
  const partnerId = decl.settlement.kind === 'payable' ? row.supplierId : row.customerId;
  if (!partnerId) return undefined;
  return { kind: decl.settlement.kind, partnerId, amount: toMicro(row.taxPriceTotal) * BigInt(decl.settlement.sign) };
}

/**
 * Audit: the bill's receivable or payable as its type declares it (`postings.money`, kind `partner`; lines by
 * `partnerBillLines`): a sale's Dr 1122 the tax-inclusive amount / Cr 6001 revenue net of tax / Cr 2221 the
 * output VAT; a purchase's Dr 1405 / Cr 2202 (the stock-value posting moves its input VAT from 1405 to 2221).
 * Refunds the other way. The partner's line carries the partner and the bill.
 */
export async function billAudited(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  const open = openingOf(decl, row);
  if (!open) return;
  await openBill(ctx, row, open);
  if (open.amount === 0n) return;
  const ref = { partnerId: open.partnerId, billId: row.id };
  // In CNY: a bill in a foreign currency at its rate, rounded to the fen (docs/cross-border.md).
  const amount = toBase(open.amount, rateOfRow(row));
  await post(ctx, {
    date: row.billDate,
    sourceKind: 'bill',
    sourceId: row.id,
    sourceCode: row.billCode,
    memo: decl.type,
    lines: partnerBillLines(decl, amount, settlementTax(decl, row)).map((l) => ({ account: l.account, ...sides(l.amount), ...(l.partner ? ref : {}) })),
  });
}

/** The open amount of an audited bill (its receivable or payable to settle) and its settlement progress. */
export async function openBill(ctx: ServiceContext, row: BillRow, open: { kind: 'receivable' | 'payable'; partnerId: number; amount: Micro }) {
  await ctx.tx
    .insert(finBillOpen)
    .values({ tenantId: ctx.tenantId, billId: row.id, partnerId: open.partnerId, kind: open.kind, billDate: row.billDate, amount: microText(open.amount), settled: '0', ...currencyOfRow(row) });
  await setBillSettlement(ctx.tx, ctx.tenantId, row.id, settledStatus(open.amount, 0n));
}

/** What `fin_bill_open` keeps of a bill's currency: its currency and rate, none for a bill in CNY. */
function currencyOfRow(row: BillRow): { currencyId?: number; rate?: string } {
  const rate = rateOfRow(row);
  const currencyId = (row.extra as Record<string, unknown>).currencyId;
  return rate === undefined || typeof currencyId !== 'number' ? {} : { currencyId, rate: microText(rate) };
}

/** Abandon audit (the blocker let it through): the posting reversed, the open amount gone. */
export async function billAbandoned(ctx: ServiceContext, _decl: BillTypeDecl, row: BillRow): Promise<void> {
  const [open] = await ctx.tx
    .select()
    .from(finBillOpen)
    .where(and(eq(finBillOpen.tenantId, ctx.tenantId), eq(finBillOpen.billId, row.id)))
    .for('update');
  if (!open) return;
  // Checked again under the lock: a payment committed since the blocker looked.
  if (toMicro(open.settled) !== 0n) throw new BizError(open.kind === 'payable' ? 'BillPaidProhibitAbandonAudit' : 'BillReceivedProhibitAbandonAudit', { additional: row.billCode });
  await reverseSource(ctx, 'bill', row.id, row.billDate);
  await ctx.tx.delete(finBillOpen).where(and(eq(finBillOpen.tenantId, ctx.tenantId), eq(finBillOpen.billId, row.id)));
  await setBillSettlement(ctx.tx, ctx.tenantId, row.id, 'UnSettlement');
}

/** The abandon-audit blocker: a bill paid or received in part cannot be withdrawn. */
export async function settledBlocker(tx: Tx, tenantId: number, billId: number) {
  const [open] = await tx
    .select({ kind: finBillOpen.kind, settled: finBillOpen.settled })
    .from(finBillOpen)
    .where(and(eq(finBillOpen.tenantId, tenantId), eq(finBillOpen.billId, billId)));
  if (!open || toMicro(open.settled) === 0n) return undefined;
  return open.kind === 'payable' ? ('BillPaidProhibitAbandonAudit' as const) : ('BillReceivedProhibitAbandonAudit' as const);
}

/**
 * Settles (or, with `direction` -1, un-settles) amounts of open bills under row locks taken in bill order:
 * each amount must have its bill's sign and stay within what is open, else `exceed` is thrown. Answers per bill
 * the amount in CNY that comes off the partner's account (for a bill in a foreign currency, at its own rate). The bills'
 * settlement progress is the engine's (by the amounts of audited settlement lines); this keeps the open
 * amounts the ledger and the reports read, and refuses again under the lock what saving let through.
 */
export async function settleBills(
  ctx: ServiceContext,
  expect: { kind: 'receivable' | 'payable'; partnerId: number },
  allocations: Array<{ billId: number; amount: Micro }>,
  direction: 1n | -1n,
  exceed: 'PayAmountExceedUnpaid' | 'ReceiptAmountExceedUnreceived' | 'DeductionAmountExceedUnsettled' | 'SettlementAmountExceedUnsettled',
): Promise<Map<number, Micro>> {
  const base = new Map<number, Micro>();
  if (!allocations.length) return base;
  const ids = allocations.map((a) => a.billId);
  if (new Set(ids).size !== ids.length) throw new BizError('SettleBillRepeat');
  const found = await ctx.tx
    .select()
    .from(finBillOpen)
    .where(and(eq(finBillOpen.tenantId, ctx.tenantId), inArray(finBillOpen.billId, ids)))
    .orderBy(asc(finBillOpen.billId))
    .for('update');
  const byId = new Map(found.map((f) => [f.billId, f]));
  for (const a of [...allocations].sort((x, y) => x.billId - y.billId)) {
    const open = byId.get(a.billId);
    if (!open || open.kind !== expect.kind || open.partnerId !== expect.partnerId) throw new BizError('SettleBillNotOpen', { additional: a.billId });
    const amount = toMicro(open.amount);
    if (amount === 0n || (amount > 0n) !== (a.amount > 0n)) throw new BizError('SettleAmountSignMismatch', { additional: a.billId });
    const settled = toMicro(open.settled) + a.amount * direction;
    const within = amount > 0n ? settled >= 0n && settled <= amount : settled <= 0n && settled >= amount;
    if (direction > 0n && toMicro(open.settled) === amount) throw refusal('BillAllSettled', { billId: a.billId });
    if (!within) throw refusal(exceed, { billId: a.billId, partnerId: open.partnerId }, { need: abs(a.amount), have: abs(amount - toMicro(open.settled)) });
    await ctx.tx
      .update(finBillOpen)
      .set({ settled: microText(settled) })
      .where(and(eq(finBillOpen.tenantId, ctx.tenantId), eq(finBillOpen.billId, a.billId)));
    // What comes off the partner's account in CNY: at the bill's own rate, cumulatively rounded, so that what is
    // left is always toBase(amount) − toBase(settled) and a bill settled in full leaves nothing.
    const rate = open.rate === null ? undefined : toMicro(open.rate);
    base.set(a.billId, (toBase(settled, rate) - toBase(toMicro(open.settled), rate)) * direction);
  }
  return base;
}
