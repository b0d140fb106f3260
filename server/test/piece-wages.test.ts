import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinanceDifference } from '@p8/contract/finance';
import { seedTenant, startTestApp, type TestContext } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, ok, refused } from './bill-fixtures.ts';

/*
 * Piece wages through the API (PGlite; PostgreSQL with TEST_DB=postgres): audited process reports taken into
 * piece-rate accounting (工序核算) — a worker's line theirs, a team's line shared by the members' shares, exact —
 * the reports' accounting progress, and the period's salary bill taking each worker's piece wages as a pay
 * line (Dr 5001 direct labour), with the locks between them: accounting audited after, or withdrawn under, an
 * audited salary of its period is refused, and a salary whose piece wages changed since its save.
 */

let ctx: TestContext;
let api: Caller;
const DAY = '2026-11-24';
const PERIOD = '2026-11';
const ids = { piece: 0, kit: 0, cut: 0, solder: 0, team: 0, a: 0, b: 0, c: 0 };

interface Line {
  id: number;
  materialId: number;
  role?: string;
  staffId?: number;
  number: number;
  unitPrice?: number;
  priceTotal?: number;
  pieceWage?: string;
  amount?: string;
  progress: Record<string, { state: string }>;
}
interface Bill {
  id: number;
  billStatus: string;
  progress: Record<string, string>;
  priceTotal: number | string;
  lines: Line[];
}

const { get, pass, saved } = billSteps<Bill>(() => api, DAY);

async function balance(code: string) {
  const trial = await ok(api.get<{ accounts: Array<{ code: string; balance: string }> }>('/api/admin/finance/trialBalance'));
  return Number(trial.accounts.find((a) => a.code === code)?.balance ?? 0);
}

/** An audited order for `number` kits; its cut and solder steps from the kit's routing. */
async function orderSteps(number: number) {
  const id = await saved('ProductionOrder', { lines: [{ role: 'Product', materialId: ids.kit, number }] });
  await pass('ProductionOrder', id);
  const steps = (await get('ProductionOrder', id)).lines.filter((l) => l.role === 'Process');
  return { cut: steps[0], solder: steps[1] };
}

beforeAll(async () => {
  ctx = await startTestApp();
  const t = await seedTenant(ctx.database, 'PieceWages');
  api = await adminCaller(ctx, t);
  ids.a = (await staffCaller(ctx, t)).adminId;
  ids.b = (await staffCaller(ctx, t)).adminId;
  ids.c = (await staffCaller(ctx, t)).adminId;
  ids.piece = await api.create('unit', { name: 'pc' });
  ids.kit = await api.create('material', { code: 'K', name: 'Kit', units: [{ unitId: ids.piece, isMain: true }] });
  const part = await api.create('material', { code: 'P', name: 'Part', units: [{ unitId: ids.piece, isMain: true }] });
  // Cutting is the team's (A two shares, B one), soldering a worker's.
  ids.team = await api.create('team', { code: 'T1', name: 'Cutters', members: [{ staffId: ids.a, share: 2 }, { staffId: ids.b, share: 1 }] });
  ids.cut = await api.create('process', { name: 'Cut', pieceRate: 0.5 });
  ids.solder = await api.create('process', { name: 'Solder', pieceRate: 1.2 });
  const routing = await api.create('routing', { name: 'Cut, solder', steps: [{ processId: ids.cut, teamId: ids.team }, { processId: ids.solder }] });
  await api.create('bom', { materialId: ids.kit, version: 'V1', isDefault: true, routingId: routing, lines: [{ materialId: part, quantity: 1 }] });
});
afterAll(() => ctx.close());

describe('work teams', () => {
  it('list each member once, with a positive share', async () => {
    const detail = await ok(api.get<{ members: Array<{ staffId: number; share: number }> }>(`/api/admin/basic/team/${ids.team}`));
    expect(detail.members.map((m) => [m.staffId, Number(m.share)])).toEqual([
      [ids.a, 2],
      [ids.b, 1],
    ]);
    await refused(api.post('/api/admin/basic/team', { code: 'T2', name: 'Twice', members: [{ staffId: ids.a, share: 1 }, { staffId: ids.a, share: 1 }] }), 'TeamMemberRepeat');
    await refused(api.post('/api/admin/basic/team', { code: 'T3', name: 'Nothing', members: [{ staffId: ids.a, share: 0 }] }), 'NumberMustGreaterThanZero');
  });
});

describe('piece-rate accounting', () => {
  it("pays a worker's pieces to the worker and a team's to its members by share, exactly", async () => {
    const { cut, solder } = await orderSteps(10);
    // Ten cut by the team, six soldered by C.
    const report = (await ok(api.post<{ id: number }>(`${path('ProcessReport')}/pushDown`, { sourceType: 'ProductionOrder', sourceLineIds: [cut.id, solder.id], numbers: [{ sourceLineId: solder.id, number: 6 }] }))).id;
    const draft = await get('ProcessReport', report);
    await ok(api.put(path('ProcessReport'), { id: report, billDate: DAY, lines: draft.lines.map((l, i) => ({ ...l, staffId: i === 1 ? ids.c : null })) }));
    await pass('ProcessReport', report);
    const reported = (await get('ProcessReport', report)).lines;
    expect(reported[0].progress.accounting.state).toBe('NoAccounting');

    const accounting = (await ok(api.post<{ id: number }>(`${path('ProcessAccounting')}/pushDown`, { sourceType: 'ProcessReport', sourceLineIds: reported.map((l) => l.id) }))).id;
    let mine = await get('ProcessAccounting', accounting);
    // 10 × 2/3 = 6.667 (the tenant's three quantity digits) and the rest 3.333 at 0.50; C's 6 at 1.20.
    expect(mine.lines.map((l) => [l.staffId, l.number, l.unitPrice, l.priceTotal])).toEqual([
      [ids.a, 6.667, 0.5, 3.33],
      [ids.b, 3.333, 0.5, 1.67],
      [ids.c, 6, 1.2, 7.2],
    ]);
    // Submitted only with its pay period.
    await refused(api.post(`${path('ProcessAccounting')}/submit`, { id: accounting }), 'PleaseSelectSalaryPeriod');
    await ok(api.put(path('ProcessAccounting'), { id: accounting, billDate: DAY, salaryPeriod: PERIOD, lines: mine.lines }));
    mine = await get('ProcessAccounting', accounting);
    expect(mine.lines.map((l) => l.staffId)).toEqual([ids.a, ids.b, ids.c]);
    await pass('ProcessAccounting', accounting);
    expect((await get('ProcessReport', report)).progress.accounting).toBe('AllAccounting');
    // Nothing more to take from the report; the report keeps its audit under its accounting.
    await refused(api.post(`${path('ProcessAccounting')}/pushDown`, { sourceType: 'ProcessReport', sourceLineIds: [reported[0].id] }), 'BillAllPushed');
    await refused(api.post(`${path('ProcessReport')}/abandonAudit`, { id: report }), 'ExistChildrenBillProhibitAbandonAudit');
    // A line saved by hand names its worker; a team's line pushed down needs a team with members.
    await refused(api.post(path('ProcessAccounting'), { billDate: DAY, salaryPeriod: PERIOD, lines: [{ materialId: ids.kit, number: 1, teamId: ids.team, sourceLineId: reported[0].id }] }), 'PleaseSelectWorker');
    const empty = await api.create('team', { code: 'T0', name: 'Empty' });
    const { cut: emptyCut } = await orderSteps(1);
    const byEmpty = await saved('ProcessReport', { lines: [{ materialId: ids.kit, number: 1, processId: ids.cut, teamId: empty, sourceLineId: emptyCut.id }] });
    await pass('ProcessReport', byEmpty);
    const [emptyLine] = (await get('ProcessReport', byEmpty)).lines;
    await refused(api.post(`${path('ProcessAccounting')}/pushDown`, { sourceType: 'ProcessReport', sourceLineIds: [emptyLine.id] }), 'TeamHasNoMembers');
    // A report line of nobody in particular: its draft waits for the worker, and is not submitted without one.
    const { cut: anyCut } = await orderSteps(1);
    const byNobody = await saved('ProcessReport', { lines: [{ materialId: ids.kit, number: 1, processId: ids.cut, sourceLineId: anyCut.id }] });
    await pass('ProcessReport', byNobody);
    const [nobodyLine] = (await get('ProcessReport', byNobody)).lines;
    const waiting = (await ok(api.post<{ id: number }>(`${path('ProcessAccounting')}/pushDown`, { sourceType: 'ProcessReport', sourceLineIds: [nobodyLine.id] }))).id;
    const [unnamed] = (await get('ProcessAccounting', waiting)).lines;
    expect(unnamed.staffId ?? null).toBeNull();
    await refused(api.post(`${path('ProcessAccounting')}/submit`, { id: waiting }), 'PleaseSelectSalaryPeriod');
    await refused(api.put(path('ProcessAccounting'), { id: waiting, billDate: DAY, salaryPeriod: '2026-12', lines: [{ ...unnamed, staffId: null }] }), 'PleaseSelectWorker');
    await ok(api.put(path('ProcessAccounting'), { id: waiting, billDate: DAY, salaryPeriod: '2026-12', lines: [{ ...unnamed, staffId: ids.c }] }));
    await ok(api.post(`${path('ProcessAccounting')}/submit`, { id: waiting }));
  });

  it('goes into the period salary as piece wages, debited to production cost, and is held by it', async () => {
    const before = { wip: await balance('5001'), expense: await balance('6602') };
    // A salary bill naming A only gains B and C, who have piece wages this period.
    const salary = await saved('Salary', { salaryPeriod: PERIOD, lines: [{ staffId: ids.a, basePay: 5000 }] });
    let pay = await get('Salary', salary);
    expect(pay.lines.map((l) => [l.staffId, Number(l.pieceWage), Number(l.amount)])).toEqual([
      [ids.a, 3.33, 5003.33],
      [ids.b, 1.67, 1.67],
      [ids.c, 7.2, 7.2],
    ]);

    // More of C's soldering accounted after the salary was saved: the salary must be saved again.
    const { cut, solder } = await orderSteps(4);
    const report = await saved('ProcessReport', {
      lines: [
        { materialId: ids.kit, number: 4, processId: ids.cut, unitPrice: 0.5, staffId: ids.a, sourceLineId: cut.id },
        { materialId: ids.kit, number: 4, processId: ids.solder, unitPrice: 1.2, staffId: ids.c, sourceLineId: solder.id },
      ],
    });
    await pass('ProcessReport', report);
    const more = await saved('ProcessAccounting', { salaryPeriod: PERIOD, lines: (await get('ProcessReport', report)).lines.slice(1).map((l) => ({ materialId: l.materialId, number: l.number, staffId: ids.c, unitPrice: 1.2, sourceLineId: l.id })) });
    await pass('ProcessAccounting', more);
    await ok(api.post(`${path('Salary')}/submit`, { id: salary }));
    await refused(api.post(`${path('Salary')}/audit`, { id: salary }), 'PieceWagesChanged');
    await ok(api.post(`${path('Salary')}/refuse`, { id: salary, reason: 'piece wages changed' }));
    pay = await get('Salary', salary);
    await ok(api.put(path('Salary'), { id: salary, billDate: DAY, salaryPeriod: PERIOD, lines: pay.lines.map((l) => ({ staffId: l.staffId, basePay: l.staffId === ids.a ? 5000 : 0 })) }));
    pay = await get('Salary', salary);
    expect(pay.lines.map((l) => Number(l.pieceWage))).toEqual([3.33, 1.67, 12]);
    await pass('Salary', salary);
    // Piece wages 17.00 are the workshop's direct labour; A's base pay an administrative expense.
    expect((await balance('5001')) - before.wip).toBeCloseTo(17, 6);
    expect((await balance('6602')) - before.expense).toBeCloseTo(5000, 6);

    // Paid piece wages hold their accounting; no more piece wages go into the audited period.
    await refused(api.post(`${path('ProcessAccounting')}/abandonAudit`, { id: more }), 'PieceWagesInSalaryProhibitAbandonAudit');
    const late = await saved('ProcessAccounting', { salaryPeriod: PERIOD, lines: (await get('ProcessReport', report)).lines.slice(0, 1).map((l) => ({ materialId: l.materialId, number: l.number, staffId: ids.a, unitPrice: 0.5, sourceLineId: l.id })) });
    await ok(api.post(`${path('ProcessAccounting')}/submit`, { id: late }));
    await refused(api.post(`${path('ProcessAccounting')}/audit`, { id: late }), 'SalaryAuditedForPieceWages');
    expect(await ok(api.post<FinanceDifference[]>('/api/admin/finance/verify'))).toEqual([]);
  });
});
