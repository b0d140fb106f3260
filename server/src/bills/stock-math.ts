import { div, max, mul, type Micro } from '@p8/contract/bills/decimal';
import { BizError, refusal } from '../core/errors.ts';

/**
 * The arithmetic of stock, pure: what a set of movements does to the balances (per material, warehouse,
 * location, batch and serial number) and to the moving-average valuation (per material and warehouse),
 * which ledger entries it writes, and when it must be refused. The database side (stock.ts) locks the
 * rows a posting touches, hands their current values to `planPosting`, and writes back what it returns —
 * so the rules live here once, and the property tests (stock-math.test.ts) drive them through thousands
 * of random sequences.
 *
 * Quantities are in the material's main unit, in millionths (decimal.ts). Moving average: an inbound
 * movement adds its quantity at its own cost; an outbound one leaves at the current average
 * (valuation amount ÷ quantity), and the last unit out takes whatever amount is left, so that rounding
 * never leaves value on an empty shelf. Abandoning an audit posts reversal entries: what went out comes
 * back at the cost it left at; what came in leaves at the current average like any outbound movement.
 * (Repeating the original amounts exactly would strand value: 10 in at 1, 10 in at 3, 10 out at 2, then the
 * first in-stock withdrawn would leave 0 units holding 10.)
 */

export interface StockKey {
  materialId: number;
  warehouseId: number;
  locationId: number | null;
  batchNumber: string;
  serialNumber: string;
}

export interface Valuation {
  quantity: Micro;
  amount: Micro;
}

export interface Movement {
  key: StockKey;
  /** Signed quantity in the main unit (in > 0, out < 0). Ignored when `countedTo` is given. */
  quantity: Micro;
  /** A stock check: the quantity the balance must have afterwards (the movement is the difference). */
  countedTo?: Micro;
  /** Inbound cost per main unit (a purchase price; none: the current average). */
  unitCost?: Micro;
  /**
   * Outbound cost per main unit instead of the current average (a return to the supplier leaves at what
   * its purchase came in at). Never takes more value than is on hand while stock remains.
   */
  outCost?: Micro;
  /**
   * An inbound movement whose cost is what earlier movements of this posting took out (a transfer's
   * in-side names its out-side; an assembly's products name all its components), by index in the
   * posting's movements: the amount those took, split over every inbound movement naming the same ones
   * by cost share — each one's current average cost × its quantity (else `costEstimate` × quantity; when
   * any has neither, by quantity) — exactly, the rounding remainder on the last.
   */
  costFrom?: readonly number[];
  /** A `costFrom` movement's unit cost to weigh its share by when its place has no average (a reference price). */
  costEstimate?: Micro;
  /** The bill line it comes from (kept on the ledger entry). */
  lineId: number;
  expirationDate?: string | null;
}

export interface LedgerEntry {
  key: StockKey;
  quantity: Micro;
  unitCost: Micro;
  amount: Micro;
  lineId: number;
  expirationDate?: string | null;
}

export interface StockState {
  /** Balance quantity by `balanceKey`. */
  balances: Map<string, Micro>;
  /** Valuation by `valuationKey`. */
  valuations: Map<string, Valuation>;
}

export const balanceKey = (k: StockKey) => `${k.materialId}|${k.warehouseId}|${k.locationId ?? 0}|${k.batchNumber}|${k.serialNumber}`;
export const valuationKey = (k: Pick<StockKey, 'materialId' | 'warehouseId'>) => `${k.materialId}|${k.warehouseId}`;

/**
 * The average cost of a valuation: 0 when nothing is on hand; below zero (negative stock), the cost the
 * shortfall was taken out at.
 */
export function averageCost(v: Valuation): Micro {
  if (v.quantity > 0n) return div(v.amount, v.quantity);
  return v.quantity < 0n && v.amount < 0n ? div(v.amount, v.quantity) : 0n;
}

/**
 * The refusal of a balance going below zero (or of a serial number held twice / sent out twice): serial
 * rows hold 0 or 1 whatever the negative-stock switch says.
 */
function refuse(m: Movement, balance: Micro, after: Micro, allowNegative: boolean): BizError | undefined {
  const key = m.key;
  const ONE = 1_000_000n;
  if (key.serialNumber) {
    if (after > ONE) return new BizError('SerialNumberRepeat', { additional: key.serialNumber });
    if (after < 0n) return new BizError('SerialNumberIsOutStock', { additional: key.serialNumber });
    return undefined;
  }
  if (after < 0n && !allowNegative) {
    // Named by the unit of work: the line, the material, the warehouse and location; what it asks and what there is.
    const about = { lineId: m.lineId, materialId: key.materialId, warehouseId: key.warehouseId, locationId: key.locationId };
    const figures = { need: balance - after, have: balance };
    return key.batchNumber ? refusal('BatchNumberInsufficientInventory', about, { ...figures, batch: key.batchNumber }) : refusal('InsufficientInventory', about, figures);
  }
  return undefined;
}

/**
 * Values and checks `movements` against `state` (the current rows they touch; a missing row is zero) and
 * returns the ledger entries with the rows' new values. Throws the catalogued refusal of the first
 * movement that would take a balance below zero (unless `allowNegative`) — nothing of the posting counts
 * then: the caller writes only what this returns, all or nothing.
 */
export function planPosting(state: StockState, movements: readonly Movement[], allowNegative: boolean): { entries: LedgerEntry[]; state: StockState } {
  const balances = new Map(state.balances);
  const valuations = new Map(state.valuations);
  const entries: LedgerEntry[] = [];
  // The entry of each movement by its index (undefined: it moved nothing), for `costFrom`.
  const byMovement: Array<LedgerEntry | undefined> = [];
  // The movements of each group named by `costFrom` (in order), and what is left of the group's cost to give.
  const groups = new Map<string, number[]>();
  movements.forEach((m, i) => m.costFrom && groups.set(m.costFrom.join(','), [...(groups.get(m.costFrom.join(',')) ?? []), i]));
  const shares = new Map<string, { left: Micro; weights: Map<number, Micro>; weightLeft: Micro }>();

  for (const [index, m] of movements.entries()) {
    byMovement.push(undefined);
    const bKey = balanceKey(m.key);
    const vKey = valuationKey(m.key);
    const balance = balances.get(bKey) ?? 0n;
    const quantity = m.countedTo !== undefined ? m.countedTo - balance : m.quantity;
    if (quantity === 0n) continue; // a stock check line that agrees with the book
    const valuation = valuations.get(vKey) ?? { quantity: 0n, amount: 0n };
    let amount: Micro;
    let unitCost: Micro;
    let variance = 0n;
    if (quantity > 0n) {
      if (m.costFrom) {
        amount = groupShare(shares, groups, movements, valuations, byMovement, m.costFrom, index);
        unitCost = div(amount, quantity);
      } else {
        unitCost = m.unitCost ?? averageCost(valuation);
        amount = mul(quantity, unitCost);
      }
      // Stock coming back from below zero (or onto value stranded at zero): the average starts again at
      // this receipt's cost for what remains, so an empty shelf holds no value; the difference from what
      // the shortfall went out at is a variance entry (quantity 0) of the receipt.
      const afterQuantity = valuation.quantity + quantity;
      if (valuation.quantity <= 0n && afterQuantity >= 0n && (valuation.quantity < 0n || valuation.amount !== 0n)) {
        variance = (amount * afterQuantity) / quantity - valuation.amount - amount;
      }
    } else {
      unitCost = m.outCost ?? averageCost(valuation);
      // The last units out take the rest of the value, so an empty shelf holds no amount.
      amount = valuation.quantity + quantity === 0n ? -valuation.amount : mul(quantity, unitCost);
      // A cost of its own never takes more than is on hand while stock remains.
      if (m.outCost !== undefined && valuation.quantity + quantity > 0n && valuation.amount + amount < 0n) {
        amount = -max(valuation.amount, 0n);
        unitCost = div(amount, quantity);
      }
    }
    const after = balance + quantity;
    const refused = quantity < 0n || m.key.serialNumber ? refuse(m, balance, after, allowNegative) : undefined;
    if (refused) throw refused;
    balances.set(bKey, after);
    valuations.set(vKey, { quantity: valuation.quantity + quantity, amount: valuation.amount + amount + variance });
    const entry = { key: m.key, quantity, unitCost, amount, lineId: m.lineId, expirationDate: m.expirationDate ?? null };
    entries.push(entry);
    if (variance !== 0n) entries.push({ key: m.key, quantity: 0n, unitCost: 0n, amount: variance, lineId: m.lineId, expirationDate: null });
    byMovement[byMovement.length - 1] = entry;
  }
  return { entries, state: { balances, valuations } };
}

/**
 * The amount movement `index` takes of what its `costFrom` group's outbound movements took: by cost share
 * (weights fixed when the group's first member is valued), the rest to the group's last member.
 */
function groupShare(
  shares: Map<string, { left: Micro; weights: Map<number, Micro>; weightLeft: Micro }>,
  groups: ReadonlyMap<string, number[]>,
  movements: readonly Movement[],
  valuations: ReadonlyMap<string, Valuation>,
  byMovement: ReadonlyArray<LedgerEntry | undefined>,
  from: readonly number[],
  index: number,
): Micro {
  const groupKey = from.join(',');
  const members = groups.get(groupKey)!;
  let share = shares.get(groupKey);
  if (!share) {
    let taken = 0n;
    for (const i of from) {
      if (i >= index) throw new Error(`costFrom names movement ${i}, which is not before this one`);
      taken -= byMovement[i]?.amount ?? 0n;
    }
    const estimates = members.map((i) => {
      const average = averageCost(valuations.get(valuationKey(movements[i].key)) ?? { quantity: 0n, amount: 0n });
      return average > 0n ? average : (movements[i].costEstimate ?? 0n);
    });
    const byCost = estimates.every((e) => e > 0n);
    const weights = new Map(members.map((i, k) => [i, byCost ? mul(movements[i].quantity, estimates[k]) : movements[i].quantity]));
    share = { left: max(taken, 0n), weights, weightLeft: [...weights.values()].reduce((a, b) => a + b, 0n) };
    shares.set(groupKey, share);
  }
  const weight = share.weights.get(index)!;
  const amount = weight >= share.weightLeft || share.weightLeft <= 0n ? share.left : (share.left * weight) / share.weightLeft;
  share.left -= amount;
  share.weightLeft -= weight;
  return amount;
}

/**
 * The movements that undo a bill's ledger entries: same keys and lines, opposite quantities; what went
 * out returns at the cost it left at.
 */
export function reversalOf(entries: readonly LedgerEntry[]): Movement[] {
  // Undo in reverse order: a transfer's in-side leaves before its out-side comes back.
  // A variance entry (quantity 0) is not undone by itself: what came in leaves at the current average.
  return [...entries]
    .filter((e) => e.quantity !== 0n)
    .reverse()
    .map((e) => ({
      key: e.key,
      quantity: -e.quantity,
      unitCost: e.quantity < 0n ? e.unitCost : undefined,
      lineId: e.lineId,
      expirationDate: e.expirationDate,
    }));
}

/** Text of a stock key for messages and logs. */
export function describeKey(k: StockKey): string {
  return `material ${k.materialId} @ warehouse ${k.warehouseId}${k.locationId ? ` / location ${k.locationId}` : ''}${k.batchNumber ? ` batch ${k.batchNumber}` : ''}${k.serialNumber ? ` serial ${k.serialNumber}` : ''}`;
}


export interface BatchStock {
  batchNumber: string;
  /** `YYYY-MM-DD`, or null when the batch has none. */
  expirationDate: string | null;
  locationId: number | null;
  quantity: Micro;
}

/**
 * First expiry, first out: the batches an out line of `quantity` should take — earliest expiry first,
 * batches without an expiry after those with one, then by batch number and location — each taking what it
 * holds until the quantity is covered. Batches that expired before `today` and empty ones are never
 * offered. `short` is what the offered batches cannot cover.
 */
export function pickBatches(stock: readonly BatchStock[], quantity: Micro, today: string): { picks: Array<BatchStock & { take: Micro }>; short: Micro } {
  const usable = stock
    .filter((b) => b.quantity > 0n && (b.expirationDate === null || b.expirationDate >= today))
    .sort(
      (a, b) =>
        (a.expirationDate === null ? 1 : 0) - (b.expirationDate === null ? 1 : 0) ||
        (a.expirationDate ?? '').localeCompare(b.expirationDate ?? '') ||
        a.batchNumber.localeCompare(b.batchNumber) ||
        (a.locationId ?? 0) - (b.locationId ?? 0),
    );
  const picks: Array<BatchStock & { take: Micro }> = [];
  let left = quantity;
  for (const batch of usable) {
    if (left <= 0n) break;
    const take = batch.quantity < left ? batch.quantity : left;
    picks.push({ ...batch, take });
    left -= take;
  }
  return { picks, short: left > 0n ? left : 0n };
}
