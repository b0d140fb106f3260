import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BizError } from '../../core/errors.ts';
import { addDays, bucketOf, componentQuantity, lotFor, lowLevelCodes, runMrp, type LotPolicy, type MrpBucket, type MrpBom, type MrpInput, type MrpMaterial } from './mrp-netting.ts';

const U = (n: number | string) => toMicro(n);
const TODAY = '2026-12-01';

function material(id: number, over: Partial<MrpMaterial> = {}): MrpMaterial {
  return { id, leadTimeDays: 0, lotPolicy: 'lotForLot', lotSize: 0n, safetyStock: 0n, onHand: 0n, openSupply: 0n, ...over };
}

/** A product 1 made of 2 × sub-assembly 2 (10 % loss) and 1 × part 3; the sub-assembly of 3 × part 3 and 1 × part 4. */
function small(over: Partial<Record<number, Partial<MrpMaterial>>> = {}): Omit<MrpInput, 'demands'> {
  const boms = new Map<number, MrpBom>([
    [11, { id: 11, materialId: 1, per: U(1), lines: [{ materialId: 2, quantity: U(2), lossRate: U(10) }, { materialId: 3, quantity: U(1), lossRate: 0n }] }],
    [12, { id: 12, materialId: 2, per: U(2), lines: [{ materialId: 3, quantity: U(6), lossRate: 0n }, { materialId: 4, quantity: U(2), lossRate: 0n }] }],
  ]);
  return {
    today: TODAY,
    boms,
    defaultBoms: new Map([
      [1, 11],
      [2, 12],
    ]),
    materials: new Map([1, 2, 3, 4].map((id) => [id, material(id, over[id])])),
  };
}

describe('MRP netting', () => {
  it('explodes by low-level code: a part used on two levels is netted once with both requirements', () => {
    const { suggestions, netting } = runMrp({ ...small({ 3: { onHand: U(5) }, 2: { leadTimeDays: 2 }, 1: { leadTimeDays: 3 } }), demands: [{ materialId: 1, quantity: U(10), date: '2026-12-20', peg: { kind: 'demand', line: 1 } }] });
    const by = (m: number) => suggestions.filter((s) => s.materialId === m);
    expect(by(1)).toMatchObject([{ supply: 'Produce', quantity: U(10), dueDate: '2026-12-20', releaseDate: '2026-12-17', bomId: 11, level: 0 }]);
    // 10 × 2 × 1.1 = 22 sub-assemblies, due when the product starts.
    expect(by(2)).toMatchObject([{ supply: 'Produce', quantity: U(22), dueDate: '2026-12-17', releaseDate: '2026-12-15', level: 1 }]);
    // Part 3: 10 for the product (12-17) + 22 ÷ 2 × 6 = 66 for the sub-assembly (12-15), less 5 on hand: the earliest date takes the stock.
    expect(by(3)).toMatchObject([
      { supply: 'Purchase', quantity: U(61), dueDate: '2026-12-15', level: 2 },
      { supply: 'Purchase', quantity: U(10), dueDate: '2026-12-17', level: 2 },
    ]);
    expect(by(4)).toMatchObject([{ quantity: U(22), level: 2 }]);
    expect(netting.find((n) => n.materialId === 3)).toMatchObject({ gross: U(76), onHand: U(5), planned: U(71) });
  });

  it('nets stock, open supply and safety stock, and sizes lots', () => {
    const demands = [
      { materialId: 3, quantity: U(30), date: '2026-12-10', peg: { kind: 'demand' as const, line: 1 } },
      { materialId: 3, quantity: U(30), date: '2026-12-11', peg: { kind: 'demand' as const, line: 2 } },
    ];
    const run = (m: Partial<MrpMaterial>) => runMrp({ ...small({ 3: m }), demands }).suggestions;
    expect(run({ onHand: U(40), openSupply: U(20) })).toEqual([]);
    expect(run({ onHand: U(40), openSupply: U(20), safetyStock: U(5) })).toMatchObject([{ quantity: U(5), dueDate: '2026-12-11', pegs: [{ peg: { kind: 'demand', line: 2 }, quantity: U(5) }] }]);
    // Fixed lots of 25: the first date needs 30 → 50, whose 20 extra covers part of the second date's 30 → 25 more.
    expect(run({ lotPolicy: 'fixed', lotSize: U(25) }).map((s) => [s.quantity, s.pegs.map((p) => p.peg.kind)])).toEqual([
      [U(50), ['demand', 'lot']],
      [U(25), ['demand', 'lot']],
    ]);
    expect(run({ lotPolicy: 'minimum', lotSize: U(100) }).map((s) => s.quantity)).toEqual([U(100)]);
    // Stock below safety with nothing demanded: replenished today.
    expect(runMrp({ ...small({ 4: { onHand: U(1), safetyStock: U(3) } }), demands: [{ materialId: 4, quantity: 0n, date: '2026-12-30', peg: { kind: 'demand', line: 1 } }] }).suggestions).toMatchObject([
      { materialId: 4, quantity: U(2), dueDate: TODAY, pegs: [{ peg: { kind: 'safety' } }] },
    ]);
  });

  it('refuses a structure that contains itself', () => {
    const input = small();
    const boms = new Map(input.boms);
    boms.set(13, { id: 13, materialId: 3, per: U(1), lines: [{ materialId: 1, quantity: U(1), lossRate: 0n }] });
    const run = () => runMrp({ ...input, boms, defaultBoms: new Map([...input.defaultBoms, [3, 13]]), demands: [{ materialId: 1, quantity: U(1), date: TODAY, peg: { kind: 'demand', line: 1 } }] });
    expect(run).toThrow(BizError);
    expect(run).toThrow('BomCycleDetected');
  });

  it('computes the longest path as the low-level code', () => {
    const graph: Record<number, number[]> = { 1: [2, 4], 2: [3], 3: [4] };
    const codes = lowLevelCodes([1], (m) => (graph[m] ? [m] : []), (b) => graph[b] ?? []);
    expect(Object.fromEntries(codes)).toEqual({ 1: 0, 2: 1, 3: 2, 4: 3 });
  });

  it('dates: lead time counts back over month ends; periods start on Mondays and firsts', () => {
    expect(addDays('2026-03-02', -3)).toBe('2026-02-27');
    expect(bucketOf('2026-12-06', 'week')).toBe('2026-11-30');
    expect(bucketOf('2026-11-30', 'week')).toBe('2026-11-30');
    expect(bucketOf('2026-12-17', 'month')).toBe('2026-12-01');
  });

  it('groups the requirements of a period into one suggestion, due on the first of them', () => {
    const demands = [
      { materialId: 3, quantity: U(5), date: '2026-12-08', peg: { kind: 'demand' as const, line: 1 } },
      { materialId: 3, quantity: U(7), date: '2026-12-10', peg: { kind: 'demand' as const, line: 2 } },
      { materialId: 3, quantity: U(1), date: '2026-12-15', peg: { kind: 'demand' as const, line: 3 } },
    ];
    const weekly = runMrp({ ...small(), bucket: 'week', demands }).suggestions;
    expect(weekly.map((s) => [s.quantity, s.dueDate, s.pegs.length])).toEqual([
      [U(12), '2026-12-08', 2],
      [U(1), '2026-12-15', 1],
    ]);
    expect(runMrp({ ...small(), bucket: 'month', demands }).suggestions.map((s) => s.quantity)).toEqual([U(13)]);
  });
});

// ---------------------------------------------------------------- properties over random structures

/** A random acyclic structure: material i's BOM uses only materials numbered above i. */
const structure = fc
  .record({
    count: fc.integer({ min: 2, max: 9 }),
    seed: fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 30 })), { maxLength: 20 }),
    made: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
    params: fc.array(
      fc.record({
        onHand: fc.integer({ min: 0, max: 500 }),
        openSupply: fc.integer({ min: 0, max: 300 }),
        safetyStock: fc.integer({ min: 0, max: 50 }),
        policy: fc.constantFrom<LotPolicy>('lotForLot', 'minimum', 'fixed'),
        lotSize: fc.integer({ min: 1, max: 120 }),
        leadTimeDays: fc.integer({ min: 0, max: 10 }),
      }),
      { minLength: 9, maxLength: 9 },
    ),
    demands: fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 12 }),
    bucket: fc.constantFrom<MrpBucket>('day', 'week', 'month'),
  })
  .map(({ count, seed, made, params, demands, bucket }): MrpInput => {
    const boms = new Map<number, MrpBom>();
    const defaultBoms = new Map<number, number>();
    for (const [a, b, quantity, loss] of seed) {
      const [parent, child] = [Math.min(a, b, count), Math.min(Math.max(a, b), count)];
      if (parent >= child || !made[parent - 1]) continue;
      const bomId = 100 + parent;
      const bom = boms.get(bomId) ?? { id: bomId, materialId: parent, per: U(1 + (parent % 3)), lines: [] };
      // Quantities with up to three decimals: exact in millionths.
      boms.set(bomId, { ...bom, lines: [...bom.lines, { materialId: child, quantity: U(quantity / 1000), lossRate: U(loss) }] });
      defaultBoms.set(parent, bomId);
    }
    const materials = new Map(
      params.slice(0, count).map((p, i) => [
        i + 1,
        material(i + 1, { onHand: U(p.onHand), openSupply: U(p.openSupply), safetyStock: U(p.safetyStock), lotPolicy: p.policy, lotSize: U(p.lotSize), leadTimeDays: p.leadTimeDays }),
      ]),
    );
    return {
      today: TODAY,
      bucket,
      boms,
      defaultBoms,
      materials,
      demands: demands.map(([m, quantity, day], line) => ({ materialId: Math.min(m, count), quantity: U(quantity / 1000), date: addDays(TODAY, day), peg: { kind: 'demand', line: line + 1 } })),
    };
  });

describe('MRP netting, properties', () => {
  it('pegging sums to each suggestion; a material plans exactly what stock and open supply do not cover, rounded by its lot', () => {
    fc.assert(
      fc.property(structure, (input) => {
        const { suggestions, netting } = runMrp(input);
        for (const s of suggestions) expect(s.pegs.reduce((t, p) => t + p.quantity, 0n)).toBe(s.quantity);
        // The gross requirement of each material, rebuilt from the demands and the suggestions' explosions.
        const gross = new Map<number, Micro>();
        const add = (m: number, q: Micro) => gross.set(m, (gross.get(m) ?? 0n) + q);
        for (const d of input.demands) add(d.materialId, d.quantity);
        for (const s of suggestions) {
          const bom = s.bomId === null ? undefined : input.boms.get(s.bomId);
          for (const line of bom?.lines ?? []) {
            const q = componentQuantity(s.quantity, bom!.per, line);
            if (q > 0n) add(line.materialId, q);
          }
        }
        for (const n of netting) {
          const m = input.materials.get(n.materialId)!;
          expect(n.gross).toBe(gross.get(n.materialId) ?? 0n);
          const uncovered = n.gross + m.safetyStock - m.onHand - m.openSupply;
          const planned = suggestions.filter((s) => s.materialId === n.materialId).reduce((t, s) => t + s.quantity, 0n);
          expect(planned).toBe(n.planned);
          if (uncovered <= 0n) expect(planned).toBe(0n);
          else if (m.lotPolicy === 'lotForLot') expect(planned).toBe(uncovered);
          else {
            // Never less than what is uncovered; lots add at most one lot per suggestion beyond it.
            expect(planned >= uncovered).toBe(true);
            const made = suggestions.filter((s) => s.materialId === n.materialId);
            expect(planned - uncovered <= BigInt(made.length) * m.lotSize).toBe(true);
            for (const s of made) if (m.lotPolicy === 'fixed') expect(s.quantity % m.lotSize).toBe(0n);
          }
        }
        // Components are planned after their parents: levels never go up along the list.
        for (let i = 1; i < suggestions.length; i++) expect(suggestions[i].level >= suggestions[i - 1].level).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lot sizing never orders less than short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 0, max: 10 ** 6 }), fc.constantFrom<LotPolicy>('lotForLot', 'minimum', 'fixed'), (short, lot, policy) => {
        const q = lotFor(BigInt(short), policy, BigInt(lot));
        expect(q >= BigInt(short)).toBe(true);
        if (policy === 'fixed' && lot > 0) expect(q % BigInt(lot)).toBe(0n);
      }),
    );
  });
});
