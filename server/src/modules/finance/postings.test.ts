import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import type { Micro } from '@p8/contract/bills/decimal';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { OtherInstock, OtherOutstock } from '@p8/contract/bills/supply-chain';
import { partnerBillLines, stockValueLines, type PostingAmount } from './postings.ts';

/**
 * Finance posts every bill type from its declared postings. These walk every registered type through the
 * functions that turn a declaration and amounts into ledger lines, against what the ledger posted when it
 * chose accounts by a type's shape (kept here as the reference the declarations must reproduce), and show a
 * type declared here — production's pick out-stock and completion in-stock on work in progress — posting to
 * its declared account with no finance change.
 */

// What the ledger posted before the declarations: accounts chosen by the type's stock effect and settlement.
function shapeStockLines(decl: BillTypeDecl, delta: Micro, purchaseTax: Micro): PostingAmount[] {
  if (decl.stock === 'check') return [{ account: '1405', amount: delta }, { account: delta > 0n ? '6301' : '6711', amount: -delta }];
  if (decl.settlement?.kind === 'payable') return [{ account: '1405', amount: delta }, { account: '2221', amount: purchaseTax }, { account: '6401', amount: -delta - purchaseTax }];
  if (decl.settlement?.kind === 'receivable') return [{ account: '1405', amount: delta }, { account: '6401', amount: -delta }];
  return [{ account: '1405', amount: delta }, { account: '1901', amount: -delta }];
}
function shapePartnerLines(decl: BillTypeDecl, amount: Micro, tax: Micro): PostingAmount[] {
  return decl.settlement!.kind === 'receivable'
    ? [{ account: '1122', amount }, { account: '6001', amount: -(amount - tax) }, { account: '2221', amount: -tax }]
    : [{ account: '1405', amount }, { account: '2202', amount: -amount }];
}

const drop = <T extends PostingAmount>(lines: T[]) => lines.map(({ account, amount }) => ({ account, amount }));
const balances = (lines: PostingAmount[]) => lines.reduce((s, l) => s + l.amount, 0n) === 0n;

// Value in and out, with and without tax (a purchase's tax is signed like its payable: a refund's negative).
const CASES: Array<[Micro, Micro]> = [[125_000000n, 13_000000n], [-80_500000n, 0n], [-40_000000n, -5_200000n], [7n, 1n], [0n, 0n]];

/**
 * The types the shapes above were written for. Production's and outsourcing's types came after the declarations
 * and never had a shape (the shapes would have sent their stock to 1901): server/test/production.test.ts and
 * server/test/outsourcing.test.ts check what they post.
 */
const SHAPED = BILL_TYPES.filter((d) => d.area !== 'production' && d.area !== 'outsourcing');

describe('postings from declarations', () => {
  it.each(SHAPED.filter((d) => d.stock !== 'none').map((d) => [d.type, d] as const))('%s: the stock value posts as it always did', (_type, decl) => {
    for (const [delta, tax] of CASES) {
      // Only a type declaring a tax account is given a tax (stock-value.ts: a purchase's input VAT).
      const given = decl.postings.stock?.tax ? tax : 0n;
      const lines = stockValueLines(decl, delta, given);
      expect(lines).toEqual(shapeStockLines(decl, delta, given));
      expect(balances(lines)).toBe(true);
    }
  });

  it.each(SHAPED.filter((d) => d.settlement).map((d) => [d.type, d] as const))('%s: the receivable / payable posts as it always did', (_type, decl) => {
    for (const [amount, tax] of CASES) {
      const lines = partnerBillLines(decl, amount, tax);
      expect(drop(lines)).toEqual(shapePartnerLines(decl, amount, tax));
      expect(balances(lines)).toBe(true);
      // The partner's line is the one that carries the partner and the bill.
      expect(lines.filter((l) => l.partner).map((l) => l.account)).toEqual([decl.settlement!.kind === 'receivable' ? '1122' : '2202']);
    }
  });

  it('posts a stock bill type declared here to its declared account: work in progress', () => {
    // Production's pick out-stock (materials out to a production order) and completion in-stock (products in).
    const PickOutstock: BillTypeDecl = { ...OtherOutstock, type: 'PickOutstock', route: 'pickOutstock', postings: { stock: { counter: 'workInProgress' } } };
    const CompletionInstock: BillTypeDecl = { ...OtherInstock, type: 'CompletionInstock', route: 'completionInstock', postings: { stock: { counter: 'workInProgress' } } };
    // 300 of materials leave stock at their average cost: Dr 5001 / Cr 1405.
    expect(stockValueLines(PickOutstock, -300_000000n, 0n)).toEqual([
      { account: '1405', amount: -300_000000n },
      { account: '5001', amount: 300_000000n },
    ]);
    // The finished goods come in at 300: Dr 1405 / Cr 5001.
    expect(stockValueLines(CompletionInstock, 300_000000n, 0n)).toEqual([
      { account: '1405', amount: 300_000000n },
      { account: '5001', amount: -300_000000n },
    ]);
  });

  it('refuses to post a stock bill whose type declares no stock posting, or another money posting than asked', () => {
    const undeclared: BillTypeDecl = { ...OtherOutstock, type: 'Undeclared', postings: {} };
    expect(() => stockValueLines(undeclared, 1n, 0n)).toThrow(/declares no stock posting/);
    expect(() => partnerBillLines(OtherOutstock, 1n, 0n)).toThrow(/declares no partner money posting/);
  });
});

describe("finance's own imports", () => {
  // The ledger is what every posting goes through: it imports none of the files that post (they would import
  // it back), and finance's files import one another without a cycle.
  const dir = new URL('.', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const imports = new Map(files.map((f) => [f, [...readFileSync(new URL(f, dir), 'utf8').matchAll(/from '\.\/([\w-]+\.ts)'/g)].map((m) => m[1])]));

  it('keeps the ledger free of its callers', () => {
    expect(imports.get('ledger.ts')).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycle = (file: string, path: string[]): string[] | undefined => {
      if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
      for (const next of imports.get(file) ?? []) {
        const found = cycle(next, [...path, file]);
        if (found) return found;
      }
      return undefined;
    };
    for (const file of files) expect(cycle(file, []), file).toBeUndefined();
  });
});
