import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackgroundJobView } from '@p8/contract/system';
import { enqueueJob, JobRunner, sweepFinishedJobs, type JobContext, type JobRunnerOptions } from '../src/core/background-jobs.ts';
import { withServiceContext, type Caller } from '../src/core/service-context.ts';
import { auditLog, backgroundJob, menu, session } from '../src/db/schema/index.ts';
import type { ImportResult } from '@p8/contract/upload';
import { buildApp } from '../src/app.ts';
import { adminCaller, readXlsx, staffCaller, xlsx } from './basic-fixtures.ts';
import { call, login, seedStaff, seedTenant, startTestApp, TEST_DB, unique, type TestContext, type TestTenant } from './harness.ts';

/*
 * Background jobs (core/background-jobs.ts) on the installation's database: a job survives its runner's death
 * and runs exactly once; an orderly stop gives it back; tenants take turns; a tenant sees only its own jobs.
 * The runners here are in-process stand-ins for server processes (a killed one is `abandon`ed: nothing it has
 * in hand commits, its lease lapses).
 */
let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  ctx = await startTestApp();
  a = await seedTenant(ctx.database, 'JobA');
  b = await seedTenant(ctx.database, 'JobB');
});
afterAll(() => ctx.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Queues a job as the tenant's administrator, committed. */
function queue(t: TestTenant, kind: string, subject = '', maxAttempts?: number): Promise<number> {
  const caller: Caller = { tenantId: t.tenantId, account: { tenantId: t.tenantId, adminId: t.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access };
  return withServiceContext(ctx.database, caller, (c) => enqueueJob(c, { kind, subject, maxAttempts }));
}

function runner(options: JobRunnerOptions): JobRunner {
  const { database, config } = ctx;
  return new JobRunner({ database, config, registries: ctx.app.registries, access: ctx.app.access, log: ctx.app.log }, ctx.app.registries.jobKinds, { pollMs: 30, ...options });
}

async function job(t: TestTenant, id: number) {
  const [row] = await ctx.database.withTenant(t.tenantId, (tx) => tx.select().from(backgroundJob).where(and(eq(backgroundJob.tenantId, t.tenantId), eq(backgroundJob.id, id))));
  return row;
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await pause(20)) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
  }
}

/** A gate per attempt: the job waits at it until the test opens it (a killed runner's attempt never gets through). */
const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
function gate(key: string) {
  let entry = gates.get(key);
  if (!entry) {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    entry = { open, opened };
    gates.set(key, entry);
  }
  return entry;
}

/** Writes an audit entry (the job's one write) and completes in the same transaction, after its gate. */
async function gatedWrite(job: JobContext) {
  await job.progress(1, 2);
  await gate(`${job.jobId}:${job.attempt}`).opened;
  return job.caller.transaction(async (c) => {
    c.audit({ action: 'create', entity: 'jobtest', entityId: job.jobId });
    await job.complete(c.tx, { wrote: job.jobId });
    return { wrote: job.jobId };
  });
}

describe('a background job and its runner', () => {
  beforeAll(() => {
    ctx.app.registries.jobKinds.register({ kind: 'test_gated', run: gatedWrite });
    ctx.app.registries.jobKinds.register({
      kind: 'test_stoppable',
      run: (job) =>
        new Promise((_resolve, reject) => {
          void job.progress(1, 10);
          job.signal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
  });

  it('survives its runner dying mid-way: another runner takes it after the lease and it is written exactly once', async () => {
    const first = runner({ id: 'first', leaseMs: 600 });
    const id = await queue(a, 'test_gated');
    first.start();
    // The first runner holds it, its progress readable by the job's creator.
    await until('running with progress', () => job(a, id), (j) => j.status === 'running' && j.progressDone === 1 && j.progressTotal === 2);
    const token = await login(ctx.app, a.name, a.password);
    const seen = await call<BackgroundJobView>(ctx.app, 'GET', `/api/admin/system/jobs/${id}`, { token });
    expect(seen.body.data).toMatchObject({ id, kind: 'test_gated', status: 'running', progress: { done: 1, total: 2 }, attempts: 1, createdBy: a.adminId });
    // It dies there: its attempt never gets past the gate, its lease is no longer renewed.
    first.abandon();
    const second = runner({ id: 'second', leaseMs: 600 });
    gate(`${id}:2`).open();
    second.start();
    const done = await until('succeeded', () => job(a, id), (j) => j.status === 'succeeded');
    expect(done).toMatchObject({ attempts: 2, result: { wrote: id }, errorKey: null, progressDone: 2, lockedBy: null });
    // The dead runner's attempt, let through now, cannot commit anything.
    gate(`${id}:1`).open();
    await pause(100);
    const written = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.entity, 'jobtest'), eq(auditLog.entityId, String(id)))));
    expect(written).toHaveLength(1);
    expect((await job(a, id)).attempts).toBe(2);
    await second.stop();
  });

  it('is failed cleanly (JobInterrupted) when its runners died more often than it may be attempted', async () => {
    const first = runner({ id: 'dies', leaseMs: 400 });
    const id = await queue(a, 'test_gated', '', 1);
    first.start();
    await until('running', () => job(a, id), (j) => j.status === 'running');
    first.abandon();
    const second = runner({ id: 'sweeps', leaseMs: 400 });
    second.start();
    const failed = await until('failed', () => job(a, id), (j) => j.status === 'failed');
    expect(failed).toMatchObject({ errorKey: 'JobInterrupted', attempts: 1, result: null });
    await second.stop();
    gate(`${id}:1`).open();
  });

  it('goes back to the queue, its attempt not counted, when its process stops in order', async () => {
    const stopping = runner({ id: 'stopping' });
    const id = await queue(a, 'test_stoppable');
    stopping.start();
    await until('running', () => job(a, id), (j) => j.status === 'running');
    await stopping.stop();
    expect(await job(a, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    // Not left for ever: failed as an unknown kind would be, by a runner that no longer runs it.
    await ctx.database.withTenant(a.tenantId, (tx) => tx.update(backgroundJob).set({ kind: 'no_such_kind' }).where(and(eq(backgroundJob.tenantId, a.tenantId), eq(backgroundJob.id, id))));
    const other = runner({ id: 'other' });
    other.start();
    expect(await until('failed', () => job(a, id), (j) => j.status === 'failed')).toMatchObject({ errorKey: 'JobKindUnknown', result: { additional: 'no_such_kind' } });
    await other.stop();
  });
});

describe('tenants take turns', () => {
  const started: string[] = [];
  // Two tenants that never ran a job (A and B ran some above: B, whose last start is older, would go first).
  let c: TestTenant;
  let d: TestTenant;
  beforeAll(async () => {
    c = await seedTenant(ctx.database, 'JobC');
    d = await seedTenant(ctx.database, 'JobD');
    ctx.app.registries.jobKinds.register({
      kind: 'test_turn',
      run: async (job) => {
        started.push(`${job.tenantId === c.tenantId ? 'C' : 'D'}${(job.payload as { n?: number }).n ?? ''}`);
        await pause(80);
        return null;
      },
    });
  });

  it("runs another tenant's job before a tenant's queue of heavy jobs is through, one job per tenant at a time", async () => {
    const enqueue = (t: TestTenant, n: number) =>
      withServiceContext(ctx.database, { tenantId: t.tenantId, account: { tenantId: t.tenantId, adminId: t.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access }, (c) =>
        enqueueJob(c, { kind: 'test_turn', payload: { n } }),
      );
    const ids = [await enqueue(c, 1), await enqueue(c, 2), await enqueue(c, 3), await enqueue(d, 1)];
    // Two processes, two jobs each at most: still never two of one tenant at once.
    const runners = [runner({ id: 'p1', concurrency: 2 }), runner({ id: 'p2', concurrency: 2 })];
    let overlap = false;
    const watch = setInterval(() => {
      void ctx.database.withSystem((tx) => tx.select({ tenantId: backgroundJob.tenantId }).from(backgroundJob).where(eq(backgroundJob.status, 'running'))).then((running) => {
        if (running.filter((r) => r.tenantId === c.tenantId).length > 1) overlap = true;
      });
    }, 10);
    for (const r of runners) r.start();
    await until('all done', () => Promise.all([job(c, ids[0]), job(c, ids[1]), job(c, ids[2]), job(d, ids[3])]), (jobs) => jobs.every((j) => j.status === 'succeeded'));
    clearInterval(watch);
    for (const r of runners) await r.stop();
    expect(overlap).toBe(false);
    // D queued last, yet started second: beside C's first job, not after all three.
    expect(started).toEqual(['C1', 'D1', 'C2', 'C3']);
  });
});

describe("a tenant's jobs are its own", () => {
  it('lists and shows only the own tenant’s jobs; a colleague without the job screen sees only their own', async () => {
    const subject = `rls${unique()}`;
    const id = await queue(a, 'test_none', subject);
    const tokenA = await login(ctx.app, a.name, a.password);
    const tokenB = await login(ctx.app, b.name, b.password);
    const listA = await call<BackgroundJobView[]>(ctx.app, 'GET', '/api/admin/system/jobs?pageSize=100', { token: tokenA });
    expect(listA.body.status).toBe(0);
    expect(listA.body.data.map((j) => j.id)).toContain(id);
    expect(listA.body.data.find((j) => j.id === id)).toMatchObject({ subject, status: 'queued', createdByName: expect.any(String) });
    const listB = await call<BackgroundJobView[]>(ctx.app, 'GET', '/api/admin/system/jobs?pageSize=100', { token: tokenB });
    expect(listB.body.status).toBe(0);
    expect(JSON.stringify(listB.body.data)).not.toContain(subject);
    expect((await call(ctx.app, 'GET', `/api/admin/system/jobs/${id}`, { token: tokenB })).body).toMatchObject({ message: 'DataNotExist' });
    // Under B's tenant the row does not exist at all (row-level security), even asked by its id.
    expect(await ctx.database.withTenant(b.tenantId, (tx) => tx.select().from(backgroundJob).where(eq(backgroundJob.id, id)))).toEqual([]);
    // A colleague in A without the job screen: no list, not A's administrator's job; their own job, yes.
    const staff = await seedStaff(ctx.database, a);
    const tokenStaff = await login(ctx.app, staff.name, staff.password);
    expect((await call(ctx.app, 'GET', '/api/admin/system/jobs', { token: tokenStaff })).body).toMatchObject({ message: 'Forbidden' });
    expect((await call(ctx.app, 'GET', `/api/admin/system/jobs/${id}`, { token: tokenStaff })).body).toMatchObject({ message: 'DataNotExist' });
    const own = await withServiceContext(ctx.database, { tenantId: a.tenantId, account: { tenantId: a.tenantId, adminId: staff.adminId, sessionId: '' }, config: ctx.config, registries: ctx.app.registries, log: ctx.app.log, ip: '', access: ctx.app.access }, (c) =>
      enqueueJob(c, { kind: 'test_none' }),
    );
    expect((await call<BackgroundJobView>(ctx.app, 'GET', `/api/admin/system/jobs/${own}`, { token: tokenStaff })).body.data).toMatchObject({ id: own, createdBy: staff.adminId });
  });
});

describe('an export as a background job', () => {
  it('replays the export route as its creator, keeps the workbook for them, and refuses an export the caller may not run', async () => {
    const title = `exp${unique()}`;
    const tokenA = await login(ctx.app, a.name, a.password);
    expect((await call(ctx.app, 'POST', '/api/admin/base/swiper', { token: tokenA, body: { title, image: '/a.png' } })).body.status).toBe(0);
    const queued = await call<{ id: number }>(ctx.app, 'POST', '/api/admin/system/jobs/export', { token: tokenA, body: { path: '/admin/base/swiper/export', query: { title } } });
    expect(queued.body.status, JSON.stringify(queued.body)).toBe(0);
    const id = queued.body.data.id;
    ctx.app.jobs.start();
    try {
      const done = await until('exported', async () => (await call<BackgroundJobView>(ctx.app, 'GET', `/api/admin/system/jobs/${id}`, { token: tokenA })).body.data, (j) => j.status === 'succeeded' || j.status === 'failed');
      expect(done).toMatchObject({ kind: 'export', subject: '/api/admin/base/swiper/export', title: { zh: '轮播图', en: 'Swiper' }, status: 'succeeded', result: { fileName: expect.stringContaining('.xlsx') } });
    } finally {
      await ctx.app.jobs.stop();
    }
    const file = await ctx.app.inject({ method: 'POST', url: '/api/admin/system/jobs/file', headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json' }, payload: JSON.stringify({ id }) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(file.rawPayload);
    expect(rows.map((r) => r[0])).toEqual(['标题', title]);
    // The job's own session is gone once the export is done.
    expect(await ctx.database.withSystem((tx) => tx.select().from(session).where(and(eq(session.tenantId, a.tenantId), eq(session.userAgent, `background job ${id}`))))).toEqual([]);
    // Tenant B cannot download it; a colleague without the export button cannot queue one; no such export route, no job.
    const tokenB = await login(ctx.app, b.name, b.password);
    expect((await call(ctx.app, 'POST', '/api/admin/system/jobs/file', { token: tokenB, body: { id } })).body).toMatchObject({ message: 'DataNotExist' });
    const staff = await seedStaff(ctx.database, a);
    const tokenStaff = await login(ctx.app, staff.name, staff.password);
    expect((await call(ctx.app, 'POST', '/api/admin/system/jobs/export', { token: tokenStaff, body: { path: '/admin/base/swiper/export', query: {} } })).body).toMatchObject({ message: 'Forbidden' });
    expect((await call(ctx.app, 'POST', '/api/admin/system/jobs/export', { token: tokenA, body: { path: '/admin/base/swiper/nothing', query: {} } })).body).toMatchObject({ message: 'DataNotExist' });
  });
});

describe('an import as a background job', () => {
  it('keeps the workbook in the job; a runner of another app instance imports it as its creator; the result and row errors are readable, only in its tenant', async () => {
    const api = await adminCaller(ctx, a);
    const name = `imp${unique()}`;
    const workbook = await xlsx(['*名称'], [[`${name}-1`], [`${name}-2`], [`${name}-1`]]);
    const queued = await api.upload<{ id: number }>('/api/admin/system/jobs/import?path=/admin/basic/brand/import', workbook, '品牌.xlsx');
    expect(queued.body.status, JSON.stringify(queued.body)).toBe(0);
    const id = queued.body.data.id;
    // Queued with its workbook; nothing imported while no runner has taken it.
    expect(await job(a, id)).toMatchObject({ kind: 'import', subject: '/api/admin/basic/brand/import', status: 'queued', fileName: '品牌.xlsx' });
    expect((await job(a, id)).file?.length).toBe(workbook.length);
    // Another server process on the same database takes it.
    const other = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    other.jobs.start();
    let done: BackgroundJobView;
    try {
      done = await until('imported', async () => (await api.get<BackgroundJobView>(`/api/admin/system/jobs/${id}`)).body.data, (j) => j.status === 'succeeded' || j.status === 'failed');
    } finally {
      await other.close();
    }
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: 3, total: 3 }, result: { total: 3, successCount: 2, errorCount: 1 } });
    // The job list says what it is about: the brands screen's title in both languages, and the workbook's name.
    const [screen] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select({ zh: menu.metaTitle, en: menu.metaTitleEn }).from(menu).where(and(eq(menu.tenantId, a.tenantId), eq(menu.name, 'basic_brand'))));
    expect(screen.en).not.toBe('');
    expect(done).toMatchObject({ title: screen, fileName: '品牌.xlsx' });
    expect((done.result as ImportResult).errList).toMatchObject([{ rowNum: 4 }]);
    const brands = (await api.get<Array<{ name: string; createBy?: number }>>(`/api/admin/basic/brand?name=${name}`)).body.data;
    expect(brands.map((brand) => brand.name).sort()).toEqual([`${name}-1`, `${name}-2`]);
    // Written as its creator (the audit entry of the import is theirs), and the workbook, read, left the row.
    const [audit] = await ctx.database.withTenant(a.tenantId, (tx) => tx.select().from(auditLog).where(and(eq(auditLog.tenantId, a.tenantId), eq(auditLog.action, 'import'), eq(auditLog.entity, 'brand'))));
    expect(audit).toMatchObject({ adminId: a.adminId, detail: { total: 3, successCount: 2, errorCount: 1 } });
    expect((await job(a, id)).file).toBeNull();
    // Nothing to download; tenant B sees neither the job nor the brands.
    expect((await api.post('/api/admin/system/jobs/file', { id })).body).toMatchObject({ message: 'FileNotFound' });
    const apiB = await adminCaller(ctx, b);
    expect((await apiB.get(`/api/admin/system/jobs/${id}`)).body).toMatchObject({ message: 'DataNotExist' });
    expect((await apiB.get<unknown[]>(`/api/admin/basic/brand?name=${name}`)).body.data).toEqual([]);
  });

  it('fails the job with the import’s own refusal, writing nothing; refuses to queue what the caller may not import or what is no workbook', async () => {
    const api = await adminCaller(ctx, a);
    const queued = await api.upload<{ id: number }>('/api/admin/system/jobs/import?path=/admin/basic/brand/import', await xlsx(['颜色'], [['红']]), 'wrong.xlsx');
    const id = queued.body.data.id;
    ctx.app.jobs.start();
    try {
      const failed = await until('refused', async () => (await api.get<BackgroundJobView>(`/api/admin/system/jobs/${id}`)).body.data, (j) => j.status === 'succeeded' || j.status === 'failed');
      expect(failed).toMatchObject({ status: 'failed', errorKey: 'ImportTemplateError' });
    } finally {
      await ctx.app.jobs.stop();
    }
    const staff = await staffCaller(ctx, a, []);
    expect((await staff.upload('/api/admin/system/jobs/import?path=/admin/basic/brand/import', await xlsx(['*名称'], [['x']]))).body).toMatchObject({ message: 'Forbidden' });
    expect((await api.upload('/api/admin/system/jobs/import?path=/admin/basic/brand/import', Buffer.from('not a workbook'), 'notes.txt')).body).toMatchObject({ message: 'ImportFileTypeError' });
    // Only workbook imports are queued: the print templates' JSON import is no such route.
    expect((await api.upload('/api/admin/system/jobs/import?path=/admin/system/printTemplate/import', await xlsx(['*名称'], [['x']]))).body).toMatchObject({ message: 'DataNotExist' });
  });
});

describe('finished jobs are swept', () => {
  it("deletes every tenant's succeeded and failed jobs past the retention, their files with them, in bounded batches; keeps the rest", async () => {
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const make = async (t: TestTenant, status: 'succeeded' | 'failed' | 'queued' | 'running', finishedDaysAgo: number | null) => {
      const id = await queue(t, 'test_none', `sweep${unique()}`);
      await ctx.database.withSystem((tx) =>
        tx
          .update(backgroundJob)
          .set({ status, finishedAt: finishedDaysAgo === null ? null : days(finishedDaysAgo), file: Buffer.from('kept workbook'), fileName: 'x.xlsx' })
          .where(and(eq(backgroundJob.tenantId, t.tenantId), eq(backgroundJob.id, id))),
      );
      return id;
    };
    const oldA = [await make(a, 'succeeded', 9), await make(a, 'failed', 8)];
    const oldB = [await make(b, 'succeeded', 30)];
    const kept = [await make(a, 'succeeded', 2), await make(b, 'failed', 6), await make(a, 'queued', null), await make(b, 'running', null)];
    // Bounded: two batches of one row, then the next sweep takes the rest.
    expect(await sweepFinishedJobs(ctx.database, { retentionDays: 7, batch: 1, maxBatches: 2 })).toBe(2);
    expect(await sweepFinishedJobs(ctx.database, { retentionDays: 7, batch: 1, maxBatches: 100 })).toBeGreaterThanOrEqual(1);
    for (const id of oldA) expect(await job(a, id)).toBeUndefined();
    for (const id of oldB) expect(await job(b, id)).toBeUndefined();
    expect(await job(a, kept[0])).toMatchObject({ status: 'succeeded' });
    expect(await job(b, kept[1])).toMatchObject({ status: 'failed' });
    expect(await job(a, kept[2])).toMatchObject({ status: 'queued' });
    expect(await job(b, kept[3])).toMatchObject({ status: 'running' });
    // Nothing left past the retention.
    expect(await sweepFinishedJobs(ctx.database, { retentionDays: 7 })).toBe(0);
  });
});

describe.skipIf(TEST_DB !== 'postgres')('prompt pickup on PostgreSQL', () => {
  it("wakes another app instance's runner at once by a notification when a job is queued, long before its poll", async () => {
    // The other instance looks for work only once a minute: only the notification can bring the job to it.
    const other = await buildApp({ config: { ...ctx.config, jobs: { ...ctx.config.jobs, pollMs: 60_000 } }, database: ctx.database, logger: false });
    other.registries.jobKinds.register({ kind: 'test_prompt', run: async (j) => ({ ranBy: 'other', attempt: j.attempt }) });
    other.jobs.start();
    try {
      await other.jobs.listening;
      // Let the start's own first look pass, so that the next one can only come from a notification.
      await pause(300);
      const queuedAt = Date.now();
      const id = await queue(a, 'test_prompt');
      const done = await until('picked up', () => job(a, id), (row) => row.status === 'succeeded', 10_000);
      expect(done.result).toEqual({ ranBy: 'other', attempt: 1 });
      expect(Date.now() - queuedAt).toBeLessThan(5_000);
    } finally {
      await other.close();
    }
  });
});
