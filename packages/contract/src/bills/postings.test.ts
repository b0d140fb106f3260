import { describe, expect, it } from 'vitest';
import { ACCOUNT_ROLES, accountOf, DEFAULT_CHART, type PostingAccount } from '../finance.ts';
import { BILL_TYPES } from './catalogue.ts';
import { amountless, lineKindOf, type BillTypeDecl } from './registry.ts';

/**
 * Every registered bill type declares what it posts (`postings`): finance posts from the declarations alone,
 * so a type that moves stock or money without them would post nothing, or fail at audit.
 */

const CHART = new Set<string>(DEFAULT_CHART.map((a) => a.code));

/** Every account a type's postings name. */
function namedAccounts(decl: BillTypeDecl): PostingAccount[] {
  const { stock, money } = decl.postings;
  const named: PostingAccount[] = [];
  if (stock) named.push(...(typeof stock.counter === 'string' ? [stock.counter] : [stock.counter.in, stock.counter.out]), ...(stock.tax ? [stock.tax] : []));
  if (money) for (const [key, value] of Object.entries(money)) if (key !== 'kind' && value) named.push(value as PostingAccount);
  return named;
}

describe('declared postings', () => {
  it('names only accounts of the chart, by role or code', () => {
    for (const code of Object.values(ACCOUNT_ROLES)) expect(CHART.has(code), code).toBe(true);
    // The account production's work in progress posts to.
    expect(accountOf('workInProgress')).toBe('5001');
  });

  it.each(BILL_TYPES.map((d) => [d.type, d] as const))('%s declares what it posts', (_type, decl) => {
    for (const account of namedAccounts(decl)) expect(CHART.has(accountOf(account)), `${decl.type}: ${account}`).toBe(true);
    // A type that moves stock says what its stock's value posts against; one that does not, nothing.
    expect(decl.postings.stock !== undefined, `${decl.type}: stock posting`).toBe(decl.stock !== 'none');
    // A receivable or payable posts the partner's account: exactly the types with a settlement effect.
    expect(decl.postings.money?.kind === 'partner', `${decl.type}: partner posting`).toBe(decl.settlement !== undefined);
    // Lines of money (payments, fees, salaries, opening balances) move money: each declares where. A bill that is
    // its header without an amount (a replacement clock-in) moves none.
    if (lineKindOf(decl) !== 'material' && !amountless(decl)) expect(decl.postings.money, `${decl.type}: money posting`).toBeDefined();
    // The inventory account is what the stock's value moves; it is never the counter of it.
    if (decl.postings.stock) {
      const counter = decl.postings.stock.counter;
      for (const c of typeof counter === 'string' ? [counter] : [counter.in, counter.out]) expect(accountOf(c)).not.toBe(ACCOUNT_ROLES.inventory);
    }
  });
});
