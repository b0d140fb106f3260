import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { microText, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BizError } from '../core/errors.ts';
import { checkTake, openQuantity, overallProgress, progressState } from './progress.ts';
import { balanceKey, planPosting, reversalOf, valuationKey, type LedgerEntry, type Movement, type StockKey, type StockState } from './stock-math.ts';

const U = (n: number | string) => toMicro(n);
const key = (materialId: number, warehouseId: number, batchNumber = '', serialNumber = '', locationId: number | null = null): StockKey => ({
  materialId,
  warehouseId,
  locationId,
  batchNumber,
  serialNumber,
});
const empty = (): StockState => ({ balances: new Map(), valuations: new Map() });

/** An in-memory stock: the same planPosting the database side uses, with the ledger kept per bill. */
class Book {
  state = empty();
  ledger: Array<LedgerEntry & { bill: number }> = [];
  constructor(readonly allowNegative = false) {}

  post(bill: number, movements: Movement[]): LedgerEntry[] {
    const plan = planPosting(this.state, movements, this.allowNegative);
    this.state = plan.state;
    this.ledger.push(...plan.entries.map((e) => ({ ...e, bill })));
    return plan.entries;
  }

  /** Σ ledger per balance key and per valuation key, compared with the stored rows. */
  differences(): string[] {
    const q = new Map<string, Micro>();
    const v = new Map<string, { quantity: Micro; amount: Micro }>();
    for (const e of this.ledger) {
      q.set(balanceKey(e.key), (q.get(balanceKey(e.key)) ?? 0n) + e.quantity);
      const val = v.get(valuationKey(e.key)) ?? { quantity: 0n, amount: 0n };
      v.set(valuationKey(e.key), { quantity: val.quantity + e.quantity, amount: val.amount + e.amount });
    }
    const out: string[] = [];
    for (const k of new Set([...q.keys(), ...this.state.balances.keys()])) if ((q.get(k) ?? 0n) !== (this.state.balances.get(k) ?? 0n)) out.push(`balance ${k}`);
    for (const k of new Set([...v.keys(), ...this.state.valuations.keys()])) {
      const a = v.get(k) ?? { quantity: 0n, amount: 0n };
      const b = this.state.valuations.get(k) ?? { quantity: 0n, amount: 0n };
      if (a.quantity !== b.quantity || a.amount !== b.amount) out.push(`valuation ${k}`);
    }
    return out;
  }
}

function refusal(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (error instanceof BizError) return error.key;
    throw error;
  }
}

describe('stock arithmetic', () => {
  it('values outbound movements at the moving average; the last unit out takes the rest', () => {
    const book = new Book();
    book.post(1, [{ key: key(1, 1), quantity: U(1), unitCost: U(1), lineId: 1 }]);
    book.post(2, [{ key: key(1, 1), quantity: U(2), unitCost: U(1.5), lineId: 2 }]);
    const [out] = book.post(3, [{ key: key(1, 1), quantity: U(-1), lineId: 3 }]);
    expect(microText(out.unitCost)).toBe('1.333333'); // 4 / 3
    const [last] = book.post(4, [{ key: key(1, 1), quantity: U(-2), lineId: 4 }]);
    expect(microText(last.amount)).toBe('-2.666667'); // not 2 × 1.333333: the rest of the value
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: 0n, amount: 0n });
  });

  it('refuses to go below zero without the negative-stock switch, naming the batch when it is one', () => {
    const book = new Book();
    book.post(1, [{ key: key(1, 1, 'B1'), quantity: U(2), unitCost: U(1), lineId: 1 }]);
    expect(refusal(() => book.post(2, [{ key: key(1, 1), quantity: U(-1), lineId: 2 }]))).toBe('InsufficientInventory');
    expect(refusal(() => book.post(2, [{ key: key(1, 1, 'B1'), quantity: U(-3), lineId: 2 }]))).toBe('BatchNumberInsufficientInventory');
    expect(book.ledger).toHaveLength(1);
    const negative = new Book(true);
    negative.post(1, [{ key: key(1, 1), quantity: U(-5), lineId: 1 }]);
    expect(negative.state.balances.get('1|1|0||')).toBe(U(-5));
  });

  it('holds a serial number once: in twice is a repeat, out twice is out of stock', () => {
    const book = new Book(true);
    book.post(1, [{ key: key(1, 1, '', 'SN1'), quantity: U(1), unitCost: U(9), lineId: 1 }]);
    expect(refusal(() => book.post(2, [{ key: key(1, 1, '', 'SN1'), quantity: U(1), unitCost: U(9), lineId: 2 }]))).toBe('SerialNumberRepeat');
    book.post(3, [{ key: key(1, 1, '', 'SN1'), quantity: U(-1), lineId: 3 }]);
    expect(refusal(() => book.post(4, [{ key: key(1, 1, '', 'SN1'), quantity: U(-1), lineId: 4 }]))).toBe('SerialNumberIsOutStock');
  });

  it('moves a transfer at the cost it left at, and a stock check by the difference to the count', () => {
    const book = new Book();
    book.post(1, [{ key: key(1, 1), quantity: U(4), unitCost: U(2.5), lineId: 1 }]);
    const [, into] = book.post(2, [
      { key: key(1, 1), quantity: U(-1), lineId: 2 },
      { key: key(1, 2), quantity: U(1), costFrom: [0], lineId: 2 },
    ]);
    expect(microText(into.unitCost)).toBe('2.500000');
    const [loss] = book.post(3, [{ key: key(1, 1), quantity: 0n, countedTo: U(1), lineId: 3 }]);
    expect(microText(loss.quantity)).toBe('-2.000000');
    expect(book.post(4, [{ key: key(1, 1), quantity: 0n, countedTo: U(1), lineId: 4 }])).toEqual([]);
  });

  it('costs an assembled product at what its components took out', () => {
    const book = new Book();
    book.post(1, [
      { key: key(2, 1), quantity: U(10), unitCost: U(3), lineId: 1 },
      { key: key(3, 1), quantity: U(10), unitCost: U(1), lineId: 2 },
    ]);
    const entries = book.post(2, [
      { key: key(2, 1), quantity: U(-2), lineId: 3 },
      { key: key(3, 1), quantity: U(-4), lineId: 4 },
      { key: key(1, 1), quantity: U(2), costFrom: [0, 1], lineId: 5 },
    ]);
    expect(microText(entries[2].unitCost)).toBe('5.000000'); // (2×3 + 4×1) / 2
  });

  it('restores what went out at the cost it left at when an audit is withdrawn', () => {
    const book = new Book();
    book.post(1, [{ key: key(1, 1), quantity: U(10), unitCost: U(1), lineId: 1 }]);
    book.post(2, [{ key: key(1, 1), quantity: U(10), unitCost: U(3), lineId: 2 }]);
    const out = book.post(3, [{ key: key(1, 1), quantity: U(-10), lineId: 3 }]);
    // Withdrawing the first in-stock takes its 10 out at the current average, so no value is stranded.
    book.post(-1, reversalOf(book.ledger.filter((e) => e.bill === 1)));
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: 0n, amount: 0n });
    book.post(-3, reversalOf(out));
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: U(10), amount: U(20) });
    expect(book.differences()).toEqual([]);
  });
});

describe('valuation that a mature ERP would accept', () => {
  it('splits a disassembled product by its components\' cost share, exactly, the remainder on the last', () => {
    // One product worth 1.80 into 10 resistors (average 0.005) and 5 capacitors (average 0.35):
    // shares 10 × 0.005 = 0.05 and 5 × 0.35 = 1.75 of 1.80 — not 0.12 a piece.
    const book = new Book();
    book.post(1, [
      { key: key(1, 1), quantity: U(1), unitCost: U(1.8), lineId: 1 },
      { key: key(2, 1), quantity: U(100), unitCost: U(0.005), lineId: 2 },
      { key: key(3, 1), quantity: U(10), unitCost: U(0.35), lineId: 3 },
    ]);
    const entries = book.post(2, [
      { key: key(1, 1), quantity: U(-1), lineId: 4 },
      { key: key(2, 1), quantity: U(10), costFrom: [0], lineId: 5 },
      { key: key(3, 1), quantity: U(5), costFrom: [0], lineId: 6 },
    ]);
    expect(entries.map((e) => [microText(e.amount), microText(e.unitCost)])).toEqual([
      ['-1.800000', '1.800000'],
      ['0.050000', '0.005000'],
      ['1.750000', '0.350000'],
    ]);
    // With no average anywhere, by the reference price given; with none at all, by quantity (3 ÷ 3 and 1).
    const fresh = new Book();
    fresh.post(1, [{ key: key(1, 1), quantity: U(1), unitCost: U(1), lineId: 1 }]);
    const byPrice = fresh.post(2, [
      { key: key(1, 1), quantity: U(-1), lineId: 2 },
      { key: key(2, 1), quantity: U(2), costFrom: [0], costEstimate: U(0.1), lineId: 3 },
      { key: key(3, 1), quantity: U(1), costFrom: [0], costEstimate: U(0.3), lineId: 4 },
    ]);
    expect(byPrice.map((e) => microText(e.amount))).toEqual(['-1.000000', '0.400000', '0.600000']);
    const third = new Book();
    third.post(1, [{ key: key(1, 1), quantity: U(1), unitCost: U(1), lineId: 1 }]);
    const byQuantity = third.post(2, [
      { key: key(1, 1), quantity: U(-1), lineId: 2 },
      { key: key(2, 1), quantity: U(1), costFrom: [0], lineId: 3 },
      { key: key(3, 1), quantity: U(1), costFrom: [0], lineId: 4 },
      { key: key(4, 1), quantity: U(1), costFrom: [0], lineId: 5 },
    ]);
    expect(byQuantity.map((e) => microText(e.amount))).toEqual(['-1.000000', '0.333333', '0.333333', '0.333334']);
    expect(third.differences()).toEqual([]);
  });

  it('leaves no value on an empty shelf after negative stock: the receipt posts the difference as a variance', () => {
    const book = new Book(true);
    book.post(1, [{ key: key(1, 1), quantity: U(5), unitCost: U(10), lineId: 1 }]);
    book.post(2, [{ key: key(1, 1), quantity: U(-8), lineId: 2 }]); // −3 at 10: −30
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: U(-3), amount: U(-30) });
    const receipt = book.post(3, [{ key: key(1, 1), quantity: U(3), unitCost: U(12), lineId: 3 }]);
    expect(receipt.map((e) => [microText(e.quantity), microText(e.amount)])).toEqual([
      ['3.000000', '36.000000'],
      ['0.000000', '-6.000000'], // the variance: the shortfall went out at 10, came back at 12
    ]);
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: 0n, amount: 0n });
    // The next receipt is not blended with anything left over: 10 at 12 is worth 120.
    book.post(4, [{ key: key(1, 1), quantity: U(10), unitCost: U(12), lineId: 4 }]);
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: U(10), amount: U(120) });
    // Crossing zero in one receipt: −3 then 10 in at 12 → 7 worth 84.
    book.post(5, [{ key: key(1, 1), quantity: U(-13), lineId: 5 }]);
    book.post(6, [{ key: key(1, 1), quantity: U(10), unitCost: U(12), lineId: 6 }]);
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: U(7), amount: U(84) });
    expect(book.differences()).toEqual([]);
  });

  it('sends an outbound movement out at a cost of its own, never more than is on hand', () => {
    const book = new Book();
    book.post(1, [{ key: key(1, 1), quantity: U(10), unitCost: U(1), lineId: 1 }]);
    book.post(2, [{ key: key(1, 1), quantity: U(10), unitCost: U(3), lineId: 2 }]);
    const [back] = book.post(3, [{ key: key(1, 1), quantity: U(-4), outCost: U(3), lineId: 3 }]);
    expect(microText(back.amount)).toBe('-12.000000');
    expect(book.state.valuations.get('1|1')).toEqual({ quantity: U(16), amount: U(28) });
    book.post(4, [{ key: key(1, 1), quantity: U(-15), lineId: 4 }]); // 1 left, worth 1.75
    const [capped] = book.post(5, [{ key: key(1, 1), quantity: U(-0.5), outCost: U(9), lineId: 5 }]);
    expect(microText(capped.amount)).toBe('-1.750000');
    expect(book.differences()).toEqual([]);
  });
});

/**
 * Random sequences of bills: purchase orders; in-stocks pushed down from their lines (taking at most the
 * open quantity), audited and withdrawn; out-stocks, transfers and stock checks audited and withdrawn;
 * drafts deleted; orders completed by hand. After every step: each balance and valuation equals the sum
 * of its ledger entries, no balance is negative, an empty valuation holds no value, and every order line's
 * taken / done quantities and progress state agree with the downstream bills that exist.
 */
describe('property: random audit / abandon / push-down sequences', () => {
  const MATERIALS = [1, 2];
  const WAREHOUSES = [1, 2];
  const BATCHES = ['', 'B1'];

  const keyArb = fc.record({ m: fc.constantFrom(...MATERIALS), w: fc.constantFrom(...WAREHOUSES), b: fc.constantFrom(...BATCHES) });
  const qty = fc.integer({ min: 1, max: 20_000 }).map((n) => BigInt(n) * 1000n); // 0.001 … 20 units
  const op = fc.oneof(
    fc.record({ kind: fc.constant('order' as const), lines: fc.array(fc.record({ m: fc.constantFrom(...MATERIALS), n: qty }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('pushIn' as const), pick: fc.nat(), share: fc.integer({ min: 1, max: 120 }), w: fc.constantFrom(...WAREHOUSES), b: fc.constantFrom(...BATCHES), cost: qty }),
    fc.record({ kind: fc.constant('out' as const), k: keyArb, n: qty }),
    // Out with everything the key holds: empties shelves, where rounding would strand value.
    fc.record({ kind: fc.constant('out' as const), k: keyArb, n: fc.constant(-1n) }),
    fc.record({ kind: fc.constant('transfer' as const), k: keyArb, n: qty }),
    fc.record({ kind: fc.constant('check' as const), k: keyArb, n: fc.oneof(fc.constant(0n), fc.integer({ min: 0, max: 20_000 }).map((n) => BigInt(n) * 1000n)) }),
    fc.record({ kind: fc.constant('audit' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('abandon' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('complete' as const), pick: fc.nat() }),
  );

  interface OrderLine {
    id: number;
    m: number;
    number: Micro;
    closed: boolean;
  }
  interface Bill {
    id: number;
    status: 'draft' | 'posted';
    movements: Movement[];
    /** Push-down takes: order line id → quantity. */
    takes: Map<number, Micro>;
  }

  it('keeps balance = Σ ledger, no negative stock, and progress consistent', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const book = new Book(false);
        const orderLines: OrderLine[] = [];
        const bills: Bill[] = [];
        let nextId = 1;
        const taken = (line: OrderLine) => bills.reduce((t, b) => t + (b.takes.get(line.id) ?? 0n), 0n);
        const done = (line: OrderLine) => bills.filter((b) => b.status === 'posted').reduce((t, b) => t + (b.takes.get(line.id) ?? 0n), 0n);
        const toKey = (k: { m: number; w: number; b: string }) => key(k.m, k.w, k.b);

        for (const o of ops) {
          switch (o.kind) {
            case 'order':
              for (const l of o.lines) orderLines.push({ id: nextId++, m: l.m, number: l.n, closed: false });
              break;
            case 'pushIn': {
              if (!orderLines.length) break;
              const line = orderLines[o.pick % orderLines.length];
              const open = openQuantity(line.number, taken(line), line.closed);
              const want = (line.number * BigInt(o.share)) / 100n;
              const error = refusal(() => checkTake(want, open, false));
              if (want > open) expect(error).toBe('NumberExceedSourceBill');
              if (error || want <= 0n) break;
              const id = nextId++;
              bills.push({ id, status: 'draft', movements: [{ key: key(line.m, o.w, o.b), quantity: want, unitCost: o.cost, lineId: id }], takes: new Map([[line.id, want]]) });
              break;
            }
            case 'out':
            case 'transfer':
            case 'check': {
              const id = nextId++;
              const k = toKey(o.k);
              // -1: all the key holds at the time the bill is made (its audit may come later).
              if (o.kind === 'out' && o.n === -1n) o.n = book.state.balances.get(balanceKey(k)) ?? 0n;
              if (o.kind !== 'check' && o.n <= 0n) break;
              const movements: Movement[] =
                o.kind === 'out'
                  ? [{ key: k, quantity: -o.n, lineId: id }]
                  : o.kind === 'transfer'
                    ? [
                        { key: k, quantity: -o.n, lineId: id },
                        { key: { ...k, warehouseId: 3 - k.warehouseId }, quantity: o.n, costFrom: [0], lineId: id },
                      ]
                    : [{ key: k, quantity: 0n, countedTo: o.n, lineId: id }];
              bills.push({ id, status: 'draft', movements, takes: new Map() });
              break;
            }
            case 'audit': {
              const drafts = bills.filter((b) => b.status === 'draft');
              if (!drafts.length) break;
              const bill = drafts[o.pick % drafts.length];
              const before = book.ledger.length;
              const error = refusal(() => book.post(bill.id, bill.movements));
              if (error) {
                expect(['InsufficientInventory', 'BatchNumberInsufficientInventory']).toContain(error);
                expect(book.ledger.length).toBe(before); // all or nothing
              } else bill.status = 'posted';
              break;
            }
            case 'abandon': {
              const posted = bills.filter((b) => b.status === 'posted');
              if (!posted.length) break;
              const bill = posted[o.pick % posted.length];
              const entries = book.ledger.filter((e) => e.bill === bill.id);
              const error = refusal(() => book.post(-bill.id, reversalOf(entries)));
              if (error) expect(['InsufficientInventory', 'BatchNumberInsufficientInventory']).toContain(error);
              else {
                // Withdrawn: its ledger entries and their reversal cancel out in quantity.
                bill.status = 'draft';
                book.ledger = book.ledger.map((e) => (e.bill === bill.id || e.bill === -bill.id ? { ...e, bill: 0 } : e));
              }
              break;
            }
            case 'delete': {
              const drafts = bills.filter((b) => b.status === 'draft');
              if (drafts.length) bills.splice(bills.indexOf(drafts[o.pick % drafts.length]), 1);
              break;
            }
            case 'complete':
              if (orderLines.length) orderLines[o.pick % orderLines.length].closed = true;
              break;
          }

          expect(book.differences()).toEqual([]);
          for (const [k, q] of book.state.balances) expect(q >= 0n, `balance ${k} = ${microText(q)}`).toBe(true);
          for (const [k, v] of book.state.valuations) if (v.quantity === 0n) expect(v.amount, `valuation ${k}`).toBe(0n);
          for (const line of orderLines) {
            const t = taken(line);
            const d = done(line);
            expect(t <= line.number).toBe(true);
            expect(d <= t).toBe(true);
            expect(openQuantity(line.number, t, line.closed)).toBe(line.closed ? 0n : line.number - t);
            const state = progressState('instock', line.number, d);
            expect(state).toBe(d === 0n ? 'NoInstock' : d >= line.number ? 'AllInStock' : 'PartialInStock');
          }
          const overall = overallProgress(orderLines.map((l) => ({ number: l.number, done: done(l) })));
          if (orderLines.length && orderLines.every((l) => done(l) >= l.number)) expect(overall).toBe('all');
        }
      }),
      { numRuns: 300 },
    );
  });
});
