import { div, mul, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BizError } from '../../core/errors.ts';

/*
 * MRP netting in memory (docs/production.md, "MRP"): no database here — `mrp.ts` reads the inputs in a
 * fixed number of set-based queries and writes what this returns. Quantities are exact millionths of the
 * materials' main units (`Micro`), dates `YYYY-MM-DD`.
 *
 * 1. Low-level codes: a material's code is the deepest level it appears at in any structure planned
 *    (a product demanded is level 0, its components level 1…). Materials are netted in code order, so a
 *    material's gross requirement is complete — every parent that uses it was netted before — when its turn
 *    comes: one pass, whatever the depth (Odoo's scheduler runs once per level instead).
 * 2. Netting per material: what is available is stock on hand plus open supply (purchase and production
 *    orders, requisitions, other plans' suggestions not yet pushed down) less safety stock; requirements take
 *    from it in date order; what they cannot take is short. Open supply counts whatever its date: an order
 *    due late still covers (the planner expedites it rather than buying twice).
 * 3. Lot sizing per planning period (a day, week or month: the shortfalls of one period and BOM make one
 *    suggestion, due on the first of them): lot for lot, a minimum lot, or multiples of a fixed lot; what a
 *    lot brings beyond the shortfall is available to the periods after it.
 * 4. A suggestion to make is exploded through its BOM (quantity ÷ BOM quantity × line quantity × (1 + loss
 *    %)) into its components' requirements on its release date (due date less lead time).
 * Every suggestion carries its pegging: the requirements it covers and what a lot or safety stock added, which
 * sum to its quantity exactly.
 */

export type LotPolicy = 'lotForLot' | 'minimum' | 'fixed';

export interface MrpMaterial {
  id: number;
  leadTimeDays: number;
  lotPolicy: LotPolicy;
  /** The minimum or fixed lot (main unit); ignored for lot for lot. */
  lotSize: Micro;
  safetyStock: Micro;
  onHand: Micro;
  /** Open supply (main unit), whatever its date. */
  openSupply: Micro;
  /** Tagged `outsource`: made by a supplier from our materials, so a suggestion to make it is one to outsource. */
  outsource?: boolean;
}

export interface MrpBom {
  id: number;
  materialId: number;
  /** The parent quantity the lines make. */
  per: Micro;
  /** Component quantities in their main unit, loss in percent. */
  lines: ReadonlyArray<{ materialId: number; quantity: Micro; lossRate: Micro }>;
}

/** A gross requirement of a material: a demand line of the plan, or open production orders' components. */
export interface MrpRequirement {
  materialId: number;
  quantity: Micro;
  date: string;
  /** What it is: a demand line (`demand`), a component of another suggestion (`suggestion`), or allocated stock. */
  peg: Peg;
  /** The BOM to make it by (a demand line's choice); else the material's default. */
  bomId?: number;
}

export type Peg =
  | { kind: 'demand'; line: number }
  | { kind: 'suggestion'; index: number }
  | { kind: 'allocated'; billId: number }
  | { kind: 'safety' }
  | { kind: 'lot' };

export interface MrpSuggestion {
  materialId: number;
  supply: 'Purchase' | 'Produce' | 'Outsource';
  quantity: Micro;
  dueDate: string;
  releaseDate: string;
  bomId: number | null;
  /** Low-level code of the material. */
  level: number;
  /** What it covers; the quantities sum to `quantity`. */
  pegs: Array<{ peg: Peg; quantity: Micro }>;
}

export interface MrpNetting {
  materialId: number;
  level: number;
  gross: Micro;
  onHand: Micro;
  openSupply: Micro;
  safetyStock: Micro;
  planned: Micro;
}

/** The planning period suggestions are grouped by: the requirements of one period make one suggestion per BOM. */
export type MrpBucket = 'day' | 'week' | 'month';

const mondays = new Map<string, string>();
/** The first day of `day`'s period: itself, its week's Monday, or its month's first. */
export function bucketOf(day: string, bucket: MrpBucket): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 8)}01`;
  let monday = mondays.get(day);
  if (monday === undefined) {
    monday = addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
    if (mondays.size > 100_000) mondays.clear();
    mondays.set(day, monday);
  }
  return monday;
}

export interface MrpInput {
  today: string;
  /** Default `day`. */
  bucket?: MrpBucket;
  demands: readonly MrpRequirement[];
  /** Open production orders' components not yet picked: requirements the plan must keep stock for. */
  allocations?: readonly MrpRequirement[];
  materials: ReadonlyMap<number, MrpMaterial>;
  boms: ReadonlyMap<number, MrpBom>;
  /** Each material's default enabled BOM. */
  defaultBoms: ReadonlyMap<number, number>;
}

const HUNDRED = toMicro(100);
const ONE = toMicro(1);

const shifted = new Map<string, string>();
/** `day` moved by `days` (remembered: a run asks for the same few dates thousands of times). */
export function addDays(day: string, days: number): string {
  const key = `${day}${days}`;
  let found = shifted.get(key);
  if (found === undefined) {
    const date = new Date(`${day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + days);
    found = date.toISOString().slice(0, 10);
    if (shifted.size > 100_000) shifted.clear();
    shifted.set(key, found);
  }
  return found;
}

/**
 * Low-level codes of the materials reachable from `roots` through the BOMs each material is made by
 * (`bomsOf`): the longest path from a root. A structure that leads back to a material above it is refused
 * (`BomCycleDetected`) — the BOM screen refuses saving one, but a plan may choose a BOM that is not the default.
 */
export function lowLevelCodes(roots: Iterable<number>, bomsOf: (materialId: number) => readonly number[], children: (bomId: number) => readonly number[]): Map<number, number> {
  // Kahn's algorithm over the reachable graph: a material's code is settled once all its parents are.
  const edges = new Map<number, Set<number>>();
  const indegree = new Map<number, number>();
  const stack = [...new Set(roots)];
  for (const r of stack) indegree.set(r, indegree.get(r) ?? 0);
  const seen = new Set(stack);
  while (stack.length) {
    const m = stack.pop()!;
    const out = new Set<number>();
    for (const b of bomsOf(m)) for (const c of children(b)) out.add(c);
    edges.set(m, out);
    for (const c of out) {
      indegree.set(c, (indegree.get(c) ?? 0) + 1);
      if (!seen.has(c)) {
        seen.add(c);
        stack.push(c);
      }
    }
  }
  const codes = new Map<number, number>();
  const ready = [...indegree].filter(([, d]) => d === 0).map(([m]) => m);
  for (const m of ready) codes.set(m, 0);
  let settled = 0;
  while (ready.length) {
    const m = ready.pop()!;
    settled++;
    for (const c of edges.get(m) ?? []) {
      codes.set(c, Math.max(codes.get(c) ?? 0, codes.get(m)! + 1));
      const left = indegree.get(c)! - 1;
      indegree.set(c, left);
      if (left === 0) ready.push(c);
    }
  }
  if (settled < indegree.size) throw new BizError('BomCycleDetected');
  return codes;
}

/** What a lot policy orders for a shortfall (> 0). */
export function lotFor(short: Micro, policy: LotPolicy, lotSize: Micro): Micro {
  if (policy === 'minimum' && lotSize > short) return lotSize;
  if (policy === 'fixed' && lotSize > 0n) return ((short + lotSize - 1n) / lotSize) * lotSize;
  return short;
}

/** A component's requirement for `made` of its parent by one BOM line. */
export const componentQuantity = (made: Micro, per: Micro, line: { quantity: Micro; lossRate: Micro }): Micro =>
  mul(mul(div(made, per), line.quantity), ONE + div(line.lossRate, HUNDRED));

/** How far a run has got: the low-level codes netted, and the materials of the run netted. */
export interface MrpStep {
  levels: number;
  levelsDone: number;
  materials: number;
  materialsDone: number;
}

/** Runs MRP over `input`: the suggestions in low-level-code order and what each material netted. */
export function runMrp(input: MrpInput): { suggestions: MrpSuggestion[]; netting: MrpNetting[] } {
  const steps = netLevels(input);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * `runMrp` a low-level code at a time: yields after each level how far it has got (a background run reports
 * it and lets the event loop turn), and returns the run's result.
 */
export function* netLevels(input: MrpInput): Generator<MrpStep, { suggestions: MrpSuggestion[]; netting: MrpNetting[] }> {
  const bomsOf = (m: number, chosen: Iterable<number> = []) => {
    const ids = new Set(chosen);
    const d = input.defaultBoms.get(m);
    if (d !== undefined) ids.add(d);
    return [...ids];
  };
  // The BOMs each material may be made by in this run: its default and any a demand line chose.
  const chosen = new Map<number, Set<number>>();
  for (const d of input.demands) if (d.bomId !== undefined) chosen.set(d.materialId, new Set([...(chosen.get(d.materialId) ?? []), d.bomId]));
  const roots = [...input.demands, ...(input.allocations ?? [])].map((d) => d.materialId);
  const codes = lowLevelCodes(
    roots,
    (m) => bomsOf(m, chosen.get(m)),
    (b) => input.boms.get(b)?.lines.map((l) => l.materialId) ?? [],
  );
  const byLevel: number[][] = [];
  for (const [m, level] of codes) (byLevel[level] ??= []).push(m);
  const requirements = new Map<number, MrpRequirement[]>();
  const require = (r: MrpRequirement) => {
    const list = requirements.get(r.materialId);
    if (list) list.push(r);
    else requirements.set(r.materialId, [r]);
  };
  for (const r of [...input.demands, ...(input.allocations ?? [])]) require(r);

  const suggestions: MrpSuggestion[] = [];
  const netting: MrpNetting[] = [];
  let materialsDone = 0;
  for (const [level, materials] of byLevel.entries()) {
    for (const materialId of (materials ?? []).sort((a, b) => a - b)) {
      const info = input.materials.get(materialId) ?? { id: materialId, leadTimeDays: 0, lotPolicy: 'lotForLot', lotSize: 0n, safetyStock: 0n, onHand: 0n, openSupply: 0n };
      const wanted: MrpRequirement[] = (requirements.get(materialId) ?? []).slice().sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      let pool = info.onHand + info.openSupply - info.safetyStock;
      const made: MrpSuggestion[] = [];
      const start = (date: string, bomId: number | null): MrpSuggestion => {
        const s: MrpSuggestion = {
          materialId,
          supply: bomId === null ? 'Purchase' : info.outsource ? 'Outsource' : 'Produce',
          quantity: 0n,
          dueDate: date,
          releaseDate: addDays(date, -info.leadTimeDays),
          bomId,
          level,
          pegs: [],
        };
        made.push(s);
        return s;
      };
      const bomFor = (r: MrpRequirement) => r.bomId ?? input.defaultBoms.get(materialId) ?? null;
      // Safety stock not covered: a requirement of its own, due at once (before everything demanded).
      if (pool < 0n) {
        const first = wanted[0]?.date;
        wanted.unshift({ materialId, quantity: -pool, date: first && first < input.today ? first : input.today, peg: { kind: 'safety' } });
        pool = 0n;
      }
      // Period by period: requirements take from what is available; the shortfalls of a period (per BOM) make
      // one suggestion each, due on the period's first requirement, lot-sized; a lot's excess is available to
      // the periods after it.
      const bucket = input.bucket ?? 'day';
      for (let i = 0; i < wanted.length; ) {
        const period = bucketOf(wanted[i].date, bucket);
        const open = new Map<number | null, MrpSuggestion>();
        for (; i < wanted.length && bucketOf(wanted[i].date, bucket) === period; i++) {
          const r = wanted[i];
          const take = pool > 0n ? (pool < r.quantity ? pool : r.quantity) : 0n;
          pool -= take;
          const short = r.quantity - take;
          if (short <= 0n) continue;
          const bomId = bomFor(r);
          const s = open.get(bomId) ?? start(r.date, bomId);
          open.set(bomId, s);
          s.pegs.push({ peg: r.peg, quantity: short });
          s.quantity += short;
        }
        for (const s of open.values()) {
          const lot = lotFor(s.quantity, info.lotPolicy, info.lotSize);
          if (lot > s.quantity) {
            s.pegs.push({ peg: { kind: 'lot' }, quantity: lot - s.quantity });
            pool += lot - s.quantity;
            s.quantity = lot;
          }
        }
      }
      netting.push({
        materialId,
        level,
        gross: sum(wanted.filter((r) => r.peg.kind !== 'safety').map((r) => r.quantity)),
        onHand: info.onHand,
        openSupply: info.openSupply,
        safetyStock: info.safetyStock,
        planned: sum(made.map((s) => s.quantity)),
      });
      // What is made needs its components on its release date.
      for (const s of made) {
        const index = suggestions.length;
        suggestions.push(s);
        const bom = s.bomId === null ? undefined : input.boms.get(s.bomId);
        if (!bom) continue;
        for (const line of bom.lines) {
          const quantity = componentQuantity(s.quantity, bom.per, line);
          if (quantity <= 0n) continue;
          require({ materialId: line.materialId, quantity, date: s.releaseDate, peg: { kind: 'suggestion', index } });
        }
      }
    }
    materialsDone += materials?.length ?? 0;
    yield { levels: byLevel.length, levelsDone: level + 1, materials: codes.size, materialsDone };
  }
  return { suggestions, netting };
}
