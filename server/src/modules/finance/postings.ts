import type { Micro } from '@p8/contract/bills/decimal';
import { meets, type BillTypeDecl, type MoneyPostingDecl } from '@p8/contract/bills/registry';
import { ACCOUNT_ROLES, accountOf, normalSide, type AccountCode } from '@p8/contract/finance';

/**
 * A bill type's declared postings (`BillTypeDecl.postings`) turned into ledger lines. Pure: the amounts come
 * in, debit-positive lines go out, and the callers (stock-value.ts, settlement.ts, money-bills.ts, salary.ts)
 * add the partner, fund account and bill each line carries and post them. Finance reads accounts from the
 * declarations only, so a new bill type that declares its postings needs no change here.
 */

/** A ledger line as an account and a debit-positive amount (negative: a credit). */
export interface PostingAmount {
  account: AccountCode;
  amount: Micro;
}

/** A type's money posting of the kind its caller posts; a type declaring another is a programming error. */
export function moneyPosting<K extends MoneyPostingDecl['kind']>(decl: BillTypeDecl, kind: K): Extract<MoneyPostingDecl, { kind: K }> {
  const money = decl.postings.money;
  if (money?.kind !== kind) throw new Error(`${decl.type} declares no ${kind} money posting`);
  return money as Extract<MoneyPostingDecl, { kind: K }>;
}

/**
 * The lines that move the inventory account by `delta` (the bill's stock value not yet in the ledger) against
 * the type's declared counter: Dr 1405 / Cr counter when value comes in, Dr counter / Cr 1405 when it goes
 * out (a counter declared `{ in, out }` by which way the net moves). With a declared `tax`, `tax` (a
 * purchase's input VAT, signed as its payable) moves off inventory onto it, and the counter takes the rest. A
 * declared `counterWhen` whose condition the bill's `header` meets names the counter instead.
 */
export function stockValueLines(decl: BillTypeDecl, delta: Micro, tax: Micro, header: Record<string, unknown> = {}): PostingAmount[] {
  const stock = decl.postings.stock;
  if (!stock) throw new Error(`${decl.type} moves stock but declares no stock posting`);
  const counter =
    stock.counterWhen && meets(stock.counterWhen.when, header) ? stock.counterWhen.counter : typeof stock.counter === 'string' ? stock.counter : delta > 0n ? stock.counter.in : stock.counter.out;
  const taxLines = stock.tax ? [{ account: accountOf(stock.tax), amount: tax }] : [];
  return [{ account: ACCOUNT_ROLES.inventory, amount: delta }, ...taxLines, { account: accountOf(counter), amount: -delta - (stock.tax ? tax : 0n) }];
}

/**
 * The receivable / payable posting of a bill with a `settlement`: the partner's account by `amount` (the
 * tax-inclusive amount signed like the bill) on its normal side, against the declared counter net of `tax`
 * and the declared tax account (without one, the counter takes the whole amount). The debit-normal partner
 * account first, else last: a bill's debits come first, as the ledger has always written them.
 */
export function partnerBillLines(decl: BillTypeDecl, amount: Micro, tax: Micro): Array<PostingAmount & { partner?: true }> {
  const m = moneyPosting(decl, 'partner');
  const partner = accountOf(m.partner);
  const side = normalSide(partner);
  const against: PostingAmount[] = [{ account: accountOf(m.counter), amount: -(amount - (m.tax ? tax : 0n)) * side }];
  if (m.tax) against.push({ account: accountOf(m.tax), amount: -tax * side });
  const own = { account: partner, amount: amount * side, partner: true as const };
  return side > 0n ? [own, ...against] : [...against, own];
}

/** Debit-positive to a posting line's sides. */
export const sides = (amount: Micro): { debit: Micro } | { credit: Micro } => (amount >= 0n ? { debit: amount } : { credit: -amount });
