import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import { billType } from '@p8/contract/bills/catalogue';
import { pickBatches, type BatchStock } from './stock-math.ts';
import { placings, serialRefusal, type SerialState } from './stock-rules.ts';

const TODAY = '2026-11-24';
const batch = (batchNumber: string, expirationDate: string | null, quantity: number, locationId: number | null = null): BatchStock => ({ batchNumber, expirationDate, locationId, quantity: toMicro(quantity) });

describe('first expiry, first out', () => {
  it('takes the earliest expiry first, batches without one last, skips expired and empty ones', () => {
    const stock = [batch('B3', null, 5), batch('B2', '2027-03-01', 4), batch('B1', '2026-12-01', 2), batch('OLD', '2026-11-01', 9), batch('EMPTY', '2026-11-30', 0)];
    const { picks, short } = pickBatches(stock, toMicro(7), TODAY);
    expect(picks.map((p) => [p.batchNumber, microText(p.take)])).toEqual([
      ['B1', '2.000000'],
      ['B2', '4.000000'],
      ['B3', '1.000000'],
    ]);
    expect(short).toBe(0n);
    // A batch expiring today is still offered; what nothing covers is short.
    const last = pickBatches([batch('T', TODAY, 1)], toMicro(3), TODAY);
    expect(last.picks.map((p) => p.batchNumber)).toEqual(['T']);
    expect(microText(last.short)).toBe('2.000000');
  });

  it('always covers min(quantity, usable stock), in expiry order, never taking more than a batch holds', () => {
    const day = fc.option(fc.integer({ min: 0, max: 60 }).map((n) => new Date(Date.UTC(2026, 10, 1 + n)).toISOString().slice(0, 10)), { nil: null });
    const stockArb = fc.array(fc.record({ batchNumber: fc.string({ minLength: 1, maxLength: 3 }), expirationDate: day, locationId: fc.constantFrom(null, 1, 2), quantity: fc.bigInt({ min: 0n, max: 50_000_000n }) }), { maxLength: 8 });
    fc.assert(
      fc.property(stockArb, fc.bigInt({ min: 1n, max: 200_000_000n }), (stock, quantity) => {
        const { picks, short } = pickBatches(stock, quantity, TODAY);
        const usable = stock.filter((b) => b.quantity > 0n && (b.expirationDate === null || b.expirationDate >= TODAY)).reduce((s, b) => s + b.quantity, 0n);
        const taken = picks.reduce((s, p) => s + p.take, 0n);
        expect(taken).toBe(quantity < usable ? quantity : usable);
        expect(short).toBe(quantity - taken);
        for (const p of picks) expect(p.take > 0n && p.take <= p.quantity).toBe(true);
        // Every pick but the last is taken whole; expiries never go back in time (nulls last).
        for (let i = 0; i + 1 < picks.length; i++) {
          expect(picks[i].take).toBe(picks[i].quantity);
          const [a, b] = [picks[i].expirationDate ?? '9999', picks[i + 1].expirationDate ?? '9999'];
          expect(a <= b).toBe(true);
        }
      }),
    );
  });
});

describe('serial numbers', () => {
  const state = (s: Partial<SerialState>): SerialState => ({ known: true, anywhere: 0n, here: 0n, ...s });
  const ONE = toMicro(1);
  it.each([
    ['in', state({ known: false }), undefined],
    ['in', state({ anywhere: 0n }), undefined],
    ['in', state({ anywhere: ONE, here: ONE }), 'SerialNumberIsUsed'],
    ['out', state({ known: false }), 'SerialNumberNotExist'],
    ['out', state({ anywhere: 0n }), 'SerialNumberIsOutStock'],
    ['out', state({ anywhere: ONE, here: 0n }), 'SerialNumberNotExist'],
    ['out', state({ anywhere: ONE, here: ONE, boxedBy: 'XSCK202611240001' }), 'SerialNumberIsBoxed'],
    ['out', state({ anywhere: ONE, here: ONE }), undefined],
  ] as const)('%s %o → %s', (direction, s, expected) => {
    expect(serialRefusal(direction, s)).toBe(expected);
  });

  it('places each line by its type: a transfer takes out and brings in, an assembly by its direction, a check not at all', () => {
    const line = { materialId: 1, warehouseId: 1, locationId: null, targetWarehouseId: 2, targetLocationId: 5 };
    expect(placings(billType('StockTransfer')!, line)).toEqual([
      { direction: 'out', warehouseId: 1, locationId: null },
      { direction: 'in', warehouseId: 2, locationId: 5 },
    ]);
    expect(placings(billType('Assembly')!, { ...line, extra: { direction: 'out' } })).toEqual([{ direction: 'out', warehouseId: 1, locationId: null }]);
    expect(placings(billType('PurchaseInstock')!, line)).toEqual([{ direction: 'in', warehouseId: 1, locationId: null }]);
    expect(placings(billType('StockCheck')!, line)).toEqual([]);
    expect(placings(billType('SaleOutstock')!, { ...line, warehouseId: null })).toEqual([]);
  });
});
