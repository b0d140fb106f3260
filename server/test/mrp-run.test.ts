import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundJobView } from '@p8/contract/system';
import { billButtonCode } from '@p8/contract/bills/registry';
import { MrpPlan } from '@p8/contract/bills/production';
import { JobRunner, enqueueJob, type JobRunnerOptions } from '../src/core/background-jobs.ts';
import { withServiceContext, type Caller as ServiceCaller } from '../src/core/service-context.ts';
import { backgroundJob } from '../src/db/schema/index.ts';
import { MRP_RUN_JOB, mrpRunJobKind } from '../src/modules/production/mrp-run.ts';
import { seedTenant, startTestApp, type TestContext, type TestTenant } from './harness.ts';
import { adminCaller, staffCaller, type Caller } from './basic-fixtures.ts';
import { billPath as path, billSteps, ok, refused } from './bill-fixtures.ts';

/*
 * MRP runs as background jobs (modules/production/mrp-run.ts), on PGlite and PostgreSQL (TEST_DB=postgres): a
 * run of a saved plan replaces its suggestions with exactly those its save computes; a second run while one is
 * queued or running is refused; a runner dying in the middle of a run leaves the plan as it was, and the run
 * taken again by another runner commits once.
 */

let ctx: TestContext;
let t: TestTenant;
let api: Caller;
const DAY = '2026-12-01';
const ids = { piece: 0, product: 0, sub: 0, part: 0, screw: 0, w: 0 };

interface Line {
  materialId: number;
  mrpRole?: string;
  number: number;
  needDate?: string;
  releaseDate?: string;
  bomId?: number | null;
  pegging?: string;
}
interface Bill {
  id: number;
  billCode: string;
  version?: number;
  lines: Line[];
}

const { get, saved } = billSteps<Bill>(() => api, DAY);
const suggestionsOf = (plan: Bill) => plan.lines.filter((l) => l.mrpRole !== 'Demand').map((l) => [l.mrpRole, l.materialId, l.number, l.needDate, l.releaseDate, l.bomId ?? null, l.pegging]);
const demands = () => [
  { mrpRole: 'Demand', materialId: ids.product, number: 10, needDate: '2026-12-20' },
  { mrpRole: 'Demand', materialId: ids.sub, number: 3, needDate: '2026-12-16' },
];
/** The plan as a planner left it: its demands and one suggestion of their own (which a run replaces). */
const handEdited = () => ({ planBucket: 'day', lines: [...demands(), { mrpRole: 'Purchase', materialId: ids.screw, number: 7, needDate: '2026-12-10' }] });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await pause(25)) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
  }
}
const jobOf = (id: number) => ok(api.get<BackgroundJobView>(`/api/admin/system/jobs/${id}`));
function runner(options: JobRunnerOptions): JobRunner {
  return new JobRunner({ database: ctx.database, config: ctx.config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log }, ctx.app.registries.jobKinds, { pollMs: 30, ...options });
}

beforeAll(async () => {
  ctx = await startTestApp();
  t = await seedTenant(ctx.database, 'MrpRun');
  api = await adminCaller(ctx, t);
  ids.piece = await api.create('unit', { name: 'pc' });
  const material = (code: string, extra: Record<string, unknown> = {}) => api.create('material', { code, name: code, units: [{ unitId: ids.piece, isMain: true }], ...extra });
  ids.product = await material('CTRL', { leadTimeDays: 3 });
  ids.sub = await material('BOARD', { leadTimeDays: 2 });
  ids.part = await material('CHIP', { leadTimeDays: 5, lotPolicy: 'fixed', lotSize: 50 });
  ids.screw = await material('SCREW', { safetyStock: 20 });
  ids.w = await api.create('stock', { code: 'W', name: 'Main' });
  await api.create('bom', { materialId: ids.product, version: 'V1', isDefault: true, lines: [{ materialId: ids.sub, quantity: 2 }, { materialId: ids.screw, quantity: 4 }] });
  await api.create('bom', { materialId: ids.sub, version: 'V1', isDefault: true, lines: [{ materialId: ids.part, quantity: 3, lossRate: 10 }, { materialId: ids.screw, quantity: 2 }] });
  const stock = await saved('OtherInstock', { warehouseId: ids.w, lines: [{ materialId: ids.sub, number: 5, unitPrice: 10 }, { materialId: ids.screw, number: 30, unitPrice: 0.1 }] });
  await ok(api.post(`${path('OtherInstock')}/submit`, { id: stock }));
  await ok(api.post(`${path('OtherInstock')}/audit`, { id: stock }));
});
afterAll(() => ctx.close());

describe('MRP runs as background jobs', () => {
  let expected: unknown[];
  let plan: number;

  it('computes the suggestions the save computes, replacing the planner’s, reporting the materials netted; a second run meanwhile is refused', async () => {
    // The save of a plan without suggestions runs MRP at once (as before): the suggestions to expect.
    plan = await saved('MrpPlan', { planBucket: 'day', lines: demands() });
    expected = suggestionsOf(await get('MrpPlan', plan));
    expect(expected.length).toBeGreaterThan(2);
    // The planner's own suggestion stays on a save.
    await ok(api.put(path('MrpPlan'), { id: plan, billDate: DAY, ...handEdited() }));
    const edited = await get('MrpPlan', plan);
    expect(suggestionsOf(edited).map((s) => s.slice(0, 4))).toEqual([['Purchase', ids.screw, 7, '2026-12-10']]);

    // Nobody runs jobs yet: the run stays queued, and a second one is refused.
    const { id } = await ok(api.post<{ id: number }>(`${path('MrpPlan')}/run`, { id: plan }));
    await refused(api.post(`${path('MrpPlan')}/run`, { id: plan }), 'MrpRunRunning');
    // Someone else (not the plan's creator) may not run it.
    const staff = await staffCaller(ctx, t, [billButtonCode(MrpPlan, 'update')]);
    const other = await staff.post<unknown>(`${path('MrpPlan')}/run`, { id: plan });
    expect(['OnlyCreatorCanOperate', 'BillNotExist']).toContain(other.body.message);

    const worker = runner({ id: 'mrp-worker' });
    worker.start();
    try {
      const done = await until('succeeded', () => jobOf(id), (j) => j.status === 'succeeded' || j.status === 'failed');
      expect(done).toMatchObject({ kind: MRP_RUN_JOB, status: 'succeeded', attempts: 1, result: { billCode: edited.billCode, demands: 2, suggestions: expected.length } });
      expect(done.title?.en).toBe(`MRP plan ${edited.billCode}`);
      // Its progress: the run's materials, all netted.
      expect(done.progress.total).toBe(4);
      expect(done.progress.done).toBe(4);
    } finally {
      await worker.stop();
    }
    expect(suggestionsOf(await get('MrpPlan', plan))).toEqual(expected);
    // Finished, the plan may be run again.
    const again = await ok(api.post<{ id: number }>(`${path('MrpPlan')}/run`, { id: plan }));
    await ctx.database.withSystem((tx) => tx.update(backgroundJob).set({ status: 'failed', errorKey: 'JobInterrupted', finishedAt: new Date() }).where(and(eq(backgroundJob.tenantId, t.tenantId), eq(backgroundJob.id, again.id))));
  });

  it('leaves the plan unchanged when its runner dies in the middle of the run; another runner then commits it once', async () => {
    await ok(api.put(path('MrpPlan'), { id: plan, billDate: DAY, ...handEdited() }));
    const before = await get('MrpPlan', plan);
    // A runner that dies after netting the first low-level code, inside the run's transaction.
    const dies = runner({ id: 'mrp-dies', leaseMs: 600 });
    let levels = 0;
    ctx.app.registries.jobKinds.register(
      mrpRunJobKind({
        kind: 'test_mrp_dies',
        betweenLevels: async () => {
          levels++;
          dies.abandon();
        },
      }),
    );
    const caller: ServiceCaller = { tenantId: t.tenantId, account: { tenantId: t.tenantId, adminId: t.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access };
    const id = await withServiceContext(ctx.database, caller, (c) => enqueueJob(c, { kind: 'test_mrp_dies', subject: `${path('MrpPlan')}/${plan}`, payload: { planId: plan, title: { zh: '', en: '' } } }));
    dies.start();
    await until('died mid-run', async () => levels, (n) => n >= 1);
    await pause(100);
    // Nothing of its run was committed: the plan is as the planner left it, the job still running (its lease lapsing).
    expect(await get('MrpPlan', plan)).toEqual(before);
    expect((await jobOf(id)).status).toBe('running');

    const second = runner({ id: 'mrp-second', leaseMs: 600 });
    second.start();
    try {
      const done = await until('succeeded', () => jobOf(id), (j) => j.status === 'succeeded' || j.status === 'failed');
      expect(done).toMatchObject({ status: 'succeeded', attempts: 2, result: { demands: 2, suggestions: expected.length } });
    } finally {
      await second.stop();
    }
    const after = await get('MrpPlan', plan);
    expect(suggestionsOf(after)).toEqual(expected);
    expect(after.lines).toHaveLength(2 + expected.length);
  });
});
