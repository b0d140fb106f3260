import { divRound, max, min, sum, type Micro } from '@p8/contract/bills/decimal';
import type { OverheadBasis } from '@p8/contract/production-cost';

export type { OverheadBasis };

/**
 * The arithmetic of the month-end cost run (月末一次加权平均), pure: each order's costs of the period by element
 * (material, labour, overhead), the period's overhead allocated over the orders, the split between what was
 * finished this period and what stays in work in progress by equivalent units, and each completion line's share
 * of the finished cost. cost.ts reads the inputs from the ledgers and writes what this returns; the unit tests
 * (cost-math.test.ts) hold the rules. Amounts and quantities are exact millionths (contract bills/decimal.ts).
 */

export const COST_ELEMENTS = ['material', 'labour', 'overhead'] as const;
export type CostElement = (typeof COST_ELEMENTS)[number];
export type ByElement = Record<CostElement, Micro>;


/** How far unfinished units are for labour and overhead when the order has no process steps to tell (50 %). */
export const DEFAULT_DEGREE: Micro = 500_000n;
const ONE: Micro = 1_000_000n;

/**
 * What the run costs as one: one product of one production order (an order making several products costs each
 * apart — the materials picked for it, the wages and hours of its steps, its completions).
 */
export interface OrderCostInput {
  /** `orderId|productId` (`unitKey`). */
  key: string;
  orderId: number;
  productId: number;
  /** Work in progress the order brings into the period, per element. */
  opening: ByElement;
  /** Materials picked less returned in the period (at the cost they left the shelf). */
  material: Micro;
  /** Piece wages of the period's audited piece-rate accounting of the order's steps. */
  labour: Micro;
  /** Hours reported on the order's steps in the period (the hours basis of overhead). */
  hours: Micro;
  /** Its products' quantity. */
  planned: Micro;
  /** Completed before the period, and in it (audited completion in-stocks). */
  completedBefore: Micro;
  completed: Micro;
  /** Closed by hand or complete: nothing stays unfinished. */
  closed: boolean;
  /** Per process step of the order, the good quantity reported up to the period's end (none: no steps). */
  stepsReported: readonly Micro[];
}

export interface OrderCost {
  key: string;
  orderId: number;
  productId: number;
  unfinished: Micro;
  /** Degree of completion of the unfinished units for labour and overhead (0..1 in millionths). */
  degree: Micro;
  opening: ByElement;
  period: ByElement;
  finished: ByElement;
  closing: ByElement;
}

/** The key of one product of one order, the run's costing unit. */
export const unitKey = (orderId: number, productId: number): string => `${orderId}|${productId}`;

/** `amount × part ÷ whole`, rounded half away from zero (0 when `whole` is 0). */
export function share(amount: Micro, part: Micro, whole: Micro): Micro {
  return whole === 0n ? 0n : divRound(amount * part, whole);
}

/** `amount` split in proportion to `weights`, exactly: the last weighted entry takes what rounding leaves. */
export function allocate(amount: Micro, weights: readonly Micro[]): Micro[] {
  const whole = sum(weights);
  if (whole === 0n) return weights.map(() => 0n);
  const last = weights.findLastIndex((w) => w !== 0n);
  let left = amount;
  return weights.map((w, i) => {
    if (i === last) return left;
    const part = share(amount, w, whole);
    left -= part;
    return part;
  });
}

/**
 * How far the unfinished units of an order are for labour and overhead: the units its steps have passed on
 * average (each step counted up to the order's quantity) beyond what was completed, over what is unfinished —
 * between 0 and 1. Without steps, half way (DEFAULT_DEGREE).
 */
export function degreeOf(input: OrderCostInput, unfinished: Micro): Micro {
  if (unfinished <= 0n) return ONE;
  if (!input.stepsReported.length) return DEFAULT_DEGREE;
  const passed = share(sum(input.stepsReported.map((r) => min(max(r, 0n), input.planned))), 1n, BigInt(input.stepsReported.length));
  const beyond = passed - (input.completedBefore + input.completed);
  return min(ONE, max(0n, share(ONE, beyond, unfinished)));
}

/** The units the period finished plus the unfinished ones as equivalent units at `degree`. */
const equivalent = (completed: Micro, unfinished: Micro, degree: Micro): Micro => completed + share(unfinished, degree, ONE);

/**
 * The period's overhead allocated over the orders by hours or by equivalent output (the units finished plus
 * the unfinished ones at their degree): returns each order's overhead, in input order, and what could not be
 * allocated (no order had hours or output).
 */
export function allocateOverhead(pool: Micro, orders: readonly OrderCostInput[], basis: OverheadBasis): { overhead: Micro[]; unallocated: Micro } {
  const weights = orders.map((o) => {
    if (basis === 'hours') return max(o.hours, 0n);
    const unfinished = unfinishedOf(o);
    return max(equivalent(o.completed, unfinished, degreeOf(o, unfinished)), 0n);
  });
  const overhead = allocate(pool, weights);
  return { overhead, unallocated: pool - sum(overhead) };
}

/** What is still unfinished of an order at the period's end (nothing for an order closed or complete). */
export function unfinishedOf(o: OrderCostInput): Micro {
  return o.closed ? 0n : max(0n, o.planned - o.completedBefore - o.completed);
}

/**
 * One order's period: each element's pool (opening + the period's) split between the units finished in the
 * period and the unfinished ones — materials as whole units (they go in at the start), labour and overhead
 * at the unfinished units' degree. An order that finished nothing this period keeps everything in progress;
 * one with nothing unfinished passes everything to what it finished.
 */
export function costOrder(input: OrderCostInput, overhead: Micro): OrderCost {
  const unfinished = unfinishedOf(input);
  const degree = degreeOf(input, unfinished);
  const period: ByElement = { material: input.material, labour: input.labour, overhead };
  const finished = {} as ByElement;
  const closing = {} as ByElement;
  for (const element of COST_ELEMENTS) {
    const pool = input.opening[element] + period[element];
    const units = element === 'material' ? input.completed + unfinished : equivalent(input.completed, unfinished, degree);
    finished[element] = input.completed <= 0n ? 0n : unfinished === 0n ? pool : share(pool, input.completed, units);
    closing[element] = pool - finished[element];
  }
  return { key: input.key, orderId: input.orderId, productId: input.productId, unfinished, degree, opening: input.opening, period, finished, closing };
}

/** The total of an element record. */
export const totalOf = (by: ByElement): Micro => by.material + by.labour + by.overhead;

/**
 * The order in which a month's products are costed (逐步结转): each order's product after every product whose
 * completions it picked in the month, so what the run adds to a sub-assembly's cost reaches the product that
 * consumed it before that one is costed. `after` lists, per unit, the units whose completed products it picked.
 * Among units ready together, the deeper product first (the larger low-level code), then the older order — the
 * low-level codes alone give this order whenever the BOMs describe what was picked; the picks decide where they
 * do not (a part picked by hand, a code not yet recomputed). Picks that go round in a circle (an order consuming
 * what a later one of its own consumers made) cannot all be honoured: the circle is broken at its deepest, oldest
 * unit.
 */
export function costingSequence(units: ReadonlyArray<{ key: string; orderId: number; level: number }>, after: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  type Unit = (typeof units)[number];
  const rank = (a: Unit, b: Unit) => b.level - a.level || a.orderId - b.orderId || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const known = new Set(units.map((u) => u.key));
  const waiting = new Map<string, number>();
  const consumers = new Map<string, string[]>();
  for (const u of units) {
    const before = [...(after.get(u.key) ?? [])].filter((key) => key !== u.key && known.has(key));
    waiting.set(u.key, before.length);
    for (const key of before) consumers.set(key, [...(consumers.get(key) ?? []), u.key]);
  }
  const remaining = [...units].sort(rank);
  const sequence: string[] = [];
  const done = new Set<string>();
  while (sequence.length < units.length) {
    // The first ready unit in rank; none ready means a circle: the first in rank goes anyway.
    const next = remaining.find((u) => !done.has(u.key) && waiting.get(u.key) === 0) ?? remaining.find((u) => !done.has(u.key))!;
    done.add(next.key);
    sequence.push(next.key);
    for (const key of consumers.get(next.key) ?? []) waiting.set(key, (waiting.get(key) ?? 0) - 1);
  }
  return sequence;
}
