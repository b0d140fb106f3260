import { describe, expect, it } from 'vitest';
import { toMicro } from '@p8/contract/bills/decimal';
import { allocate, allocateOverhead, costingSequence, costOrder, DEFAULT_DEGREE, degreeOf, totalOf, type OrderCostInput } from './cost-math.ts';

const m = (n: number) => toMicro(n);
const order = (patch: Partial<OrderCostInput>): OrderCostInput => ({
  key: '1|1',
  orderId: 1,
  productId: 1,
  opening: { material: 0n, labour: 0n, overhead: 0n },
  material: 0n,
  labour: 0n,
  hours: 0n,
  planned: m(10),
  completedBefore: 0n,
  completed: 0n,
  closed: false,
  stepsReported: [],
  ...patch,
});

describe('allocate', () => {
  it('splits exactly, the last weighted entry taking what rounding leaves', () => {
    const parts = allocate(m(10), [m(1), m(1), m(1)]);
    expect(parts).toEqual([3_333_333n, 3_333_333n, 3_333_334n]);
    expect(allocate(m(5), [m(1), 0n])).toEqual([m(5), 0n]);
    expect(allocate(m(5), [0n, 0n])).toEqual([0n, 0n]);
  });
});

describe('degree of completion', () => {
  it('is how far the steps took the unfinished units, between 0 and 1; half way without steps', () => {
    expect(degreeOf(order({ stepsReported: [] }), m(4))).toBe(DEFAULT_DEGREE);
    // Two steps: 10 and 4 passed of 10, 2 completed: on average 7 passed, 5 beyond the completed of 8 unfinished.
    expect(degreeOf(order({ completed: m(2), stepsReported: [m(10), m(4)] }), m(8))).toBe(625_000n);
    expect(degreeOf(order({ completed: m(6), stepsReported: [m(5)] }), m(4))).toBe(0n);
    // Reported beyond the order counts as the order.
    expect(degreeOf(order({ stepsReported: [m(50)] }), m(10))).toBe(m(1));
  });
});

describe('an order of the period', () => {
  it('gives materials by whole units and conversion costs by equivalent units', () => {
    const cost = costOrder(order({ material: m(40), labour: m(10), completed: m(6), stepsReported: [m(8)] }), m(10));
    // 4 unfinished, 2 of them beyond the step: degree 0.5 → 6 of 8 equivalent units.
    expect(cost.degree).toBe(500_000n);
    expect(cost.finished).toEqual({ material: m(24), labour: m(7.5), overhead: m(7.5) });
    expect(totalOf(cost.closing)).toBe(m(16 + 2.5 + 2.5));
  });

  it('keeps everything in progress when it finished nothing, and passes everything on when nothing is left', () => {
    expect(totalOf(costOrder(order({ material: m(40), labour: m(4) }), m(3)).finished)).toBe(0n);
    const last = costOrder(order({ opening: { material: m(16), labour: m(4), overhead: m(4) }, completedBefore: m(6), completed: m(4) }), 0n);
    expect(last.finished).toEqual({ material: m(16), labour: m(4), overhead: m(4) });
    expect(totalOf(last.closing)).toBe(0n);
    // Closed by hand: what is left goes to what it finished.
    const closed = costOrder(order({ material: m(40), completed: m(5), closed: true }), 0n);
    expect(closed.finished.material).toBe(m(40));
  });
});

describe('overhead', () => {
  it('goes by hours or by equivalent output; none when no order has any', () => {
    const a = order({ orderId: 1, hours: m(3), completed: m(10) });
    const b = order({ orderId: 2, hours: m(1), stepsReported: [m(5)] });
    expect(allocateOverhead(m(20), [a, b], 'hours')).toEqual({ overhead: [m(15), m(5)], unallocated: 0n });
    // Output: 10 finished; 10 unfinished half through → 5.
    const byOutput = allocateOverhead(m(15), [a, b], 'quantity');
    expect(byOutput.overhead).toEqual([m(10), m(5)]);
    expect(allocateOverhead(m(7), [order({ hours: 0n })], 'hours')).toEqual({ overhead: [0n], unallocated: m(7) });
  });
});

describe('the costing sequence (逐步结转)', () => {
  const units = (...levels: Array<[number, number]>) => levels.map(([orderId, level]) => ({ key: `${orderId}|1`, orderId, level }));
  const after = (edges: Record<number, number[]>) => new Map(Object.entries(edges).map(([k, v]) => [`${k}|1`, new Set(v.map((o) => `${o}|1`))]));
  const orders = (keys: string[]) => keys.map((k) => Number(k.split('|')[0]));
  it('costs deeper products first, then older orders', () => {
    expect(orders(costingSequence(units([1, 0], [2, 2], [3, 1], [4, 2]), new Map()))).toEqual([2, 4, 3, 1]);
  });
  it('costs a product after the products it picked, whatever the codes say', () => {
    // Order 1 (level 2) picked what order 3 (level 0) made: a part picked by hand, a code not recomputed.
    expect(orders(costingSequence(units([1, 2], [2, 1], [3, 0]), after({ 1: [3], 2: [1] })))).toEqual([3, 1, 2]);
  });
  it('breaks a circle at its deepest, oldest unit and still costs every unit once', () => {
    expect(orders(costingSequence(units([1, 1], [2, 1], [3, 0]), after({ 1: [2], 2: [1], 3: [2, 99] })))).toEqual([1, 2, 3]);
  });
  it('keeps the products of one order apart: one may wait for another order while the other goes first', () => {
    const found = costingSequence(
      [
        { key: '1|10', orderId: 1, level: 0 },
        { key: '1|11', orderId: 1, level: 0 },
        { key: '2|20', orderId: 2, level: 0 },
      ],
      new Map([['1|11', new Set(['2|20'])]]),
    );
    expect(found).toEqual(['1|10', '2|20', '1|11']);
  });
});
