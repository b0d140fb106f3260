import { startPeriodic } from './periodic.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Client, Pool } from 'pg';
import type { ErrorKey } from '@p8/contract/errors';
import type { Config } from '../config.ts';
import { afterCommit, rows, type Database, type Tx } from '../db/connection.ts';
import { backgroundJob } from '../db/schema/index.ts';
import type { AccessInvalidator } from './access-cache.ts';
import { BizError } from './errors.ts';
import type { Registries } from './registries.ts';
import { withServiceContext, type Caller, type ServiceContext, type TransactingCaller } from './service-context.ts';

/*
 * Background jobs: long work a request starts (an import, an export, an MRP run; later cost runs) and any server
 * process runs, kept in the tenant table `background_job` of the installation's own database (PostgreSQL or
 * the embedded PGlite: one code path, docs/decisions.md "Background jobs on the database's own table").
 *
 * - A request queues a job in its own transaction (`enqueueJob`): it exists exactly when the request commits.
 * - Each process runs a `JobRunner`: it claims the next job (one short owner transaction under an advisory
 *   lock, so claims never race), holds it by a lease (`locked_by`, `locked_until`) that it renews while the job
 *   runs, and runs the job's kind as the account that queued it.
 * - Exactly once: a kind's writes and the job's `succeeded` are one transaction (`JobContext.complete`), and
 *   that update only matches while this runner still holds this attempt (a fencing check), so a runner that
 *   lost its lease rolls its work back. A process killed mid-job leaves the job `running` with a lapsing lease;
 *   the next claim after `locked_until` takes it again (its transaction had rolled back) or, its attempts
 *   spent, fails it with `JobInterrupted`.
 * - Fair: at most `perTenant` running jobs per tenant across all processes, and of the tenants with work
 *   waiting the one whose last job started longest ago goes first — one tenant's queue of heavy imports never
 *   holds another tenant's job back by more than the jobs already running.
 * - An orderly stop (SIGTERM) aborts the running jobs (each rolls back at its next checkpoint) and gives them
 *   back to the queue without spending an attempt, so another process takes them at once.
 * - Prompt: on PostgreSQL a queued job notifies every runner (LISTEN/NOTIFY, sent at commit); the poll is the
 *   fallback, and the only way on the embedded database (whose one process wakes its own runner).
 * - Finished jobs are swept after the retention (`sweepFinishedJobs`), their files with them.
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** What a kind's `run` gets: who, what, and the ways to report and finish. */
export interface JobContext {
  readonly jobId: number;
  readonly tenantId: number;
  readonly attempt: number;
  readonly payload: unknown;
  /** The account that queued the job, with its own transactions (RLS, audit) as a request would have. */
  readonly caller: TransactingCaller;
  /** Aborted when the process stops or the job's lease was lost: stop at the next checkpoint. */
  readonly signal: AbortSignal;
  /** Reports progress (written at most every half second; also renews the lease). */
  progress(done: number, total?: number | null): Promise<void>;
  /**
   * Marks the job succeeded with `result` inside `tx`, the transaction holding the job's writes, so both commit
   * together or neither does. Throws (rolling `tx` back) when this runner no longer holds the job.
   */
  complete(tx: Tx, result: unknown): Promise<void>;
}

export interface JobKind {
  kind: string;
  /** Attempts before a job interrupted by its process dying is failed (default 2). */
  maxAttempts?: number;
  /**
   * Runs the job. Its writes go through `job.caller.transaction`, the last one calling `job.complete`; a kind
   * that writes nothing may just return its result (the runner completes the job with it).
   */
  run(job: JobContext): Promise<unknown>;
}

/** The kinds of jobs an app runs (each module registers its own), and who is told that one was queued. */
export class JobKinds {
  private readonly kinds = new Map<string, JobKind>();
  private readonly listeners = new Set<() => void>();
  register(kind: JobKind): void {
    if (this.kinds.has(kind.kind)) throw new Error(`job kind ${kind.kind} registered twice`);
    this.kinds.set(kind.kind, kind);
  }
  get(kind: string): JobKind | undefined {
    return this.kinds.get(kind);
  }
  /** `listener` is called after a job queued in this process has committed (this process's runner). */
  onQueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  queued(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The channel of PostgreSQL's notifications that a job was queued (LISTEN by every runner on PostgreSQL). */
export const JOB_CHANNEL = 'p8_jobs';

/**
 * Queues a job in the caller's tenant transaction, as the caller; once that commits, this process's runner is
 * woken, and on PostgreSQL every other process's runner by a notification (else they find it within their poll).
 * Answers the job's id.
 */
export async function enqueueJob(
  ctx: ServiceContext,
  job: { kind: string; subject?: string; payload?: unknown; maxAttempts?: number; /** A file the job works on (an import's workbook). */ file?: { bytes: Buffer; name: string } },
): Promise<number> {
  const [row] = await ctx.tx
    .insert(backgroundJob)
    .values({
      tenantId: ctx.tenantId,
      kind: job.kind,
      subject: job.subject ?? '',
      payload: job.payload ?? {},
      createdBy: ctx.account.adminId,
      maxAttempts: job.maxAttempts ?? ctx.registries.jobKinds.get(job.kind)?.maxAttempts ?? 2,
      ...(job.file ? { file: job.file.bytes, fileName: job.file.name } : {}),
    })
    .returning({ id: backgroundJob.id });
  // PostgreSQL delivers the notification when this transaction commits: every listening runner looks at once.
  await ctx.tx.execute(sql`select pg_notify(${JOB_CHANNEL}, '')`);
  afterCommit(ctx.tx, async () => ctx.registries.jobKinds.queued());
  return row.id;
}

/** The job was taken over by another runner (its lease lapsed): this runner's work must roll back. */
export class JobLeaseLost extends Error {
  constructor() {
    super('the job was taken over by another runner');
  }
}

export interface JobRunnerOptions {
  /** Jobs this process runs at once (default 2). */
  concurrency?: number;
  /** Running jobs per tenant across all processes (default 1). */
  perTenant?: number;
  /** How long a claim holds a job without renewal (default 30 s; renewed every third of it). */
  leaseMs?: number;
  /** How often an idle runner looks for work queued by other processes (default 1 s). */
  pollMs?: number;
  /** This runner's name in `locked_by` (default: a random one). */
  id?: string;
}

export interface JobRunnerDeps {
  database: Database;
  config: Config;
  registries: Registries;
  access: AccessInvalidator;
  log: FastifyBaseLogger;
}

interface ClaimedJob {
  tenant_id: string | number;
  id: string | number;
  kind: string;
  payload: unknown;
  attempts: number;
  created_by: string | number;
}

/** The advisory lock that makes claims one at a time across processes (a constant: 'p8jobs'). */
const CLAIM_LOCK = 0x7038_6a6f_6273;

export class JobRunner {
  readonly id: string;
  private readonly concurrency: number;
  private readonly perTenant: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void>; tenantId: number; jobId: number; attempt: number }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private pumping: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  /** Set by `abandon`: nothing this runner still has in hand may commit. */
  private abandoned = false;
  /** PostgreSQL: the connection listening for queued jobs, and the timer of its next attempt after a loss. */
  private listener: Client | undefined;
  private relisten: NodeJS.Timeout | undefined;
  /** Settles once this runner listens for notifications of queued jobs (PostgreSQL; at once on the embedded database). */
  listening: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: JobRunnerDeps,
    private readonly kinds: JobKinds,
    options: JobRunnerOptions = {},
  ) {
    this.id = options.id ?? `${process.pid}-${randomUUID().slice(0, 8)}`;
    this.concurrency = options.concurrency ?? 2;
    this.perTenant = options.perTenant ?? 1;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 1_000;
  }

  /**
   * Starts looking for work: at once on `wake` (a job queued in this process), on PostgreSQL at once on a
   * notification (a job queued by any process), and every `pollMs` (the fallback, and the only way on the
   * embedded database — one process, whose own queuing wakes it).
   */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.unsubscribe = this.kinds.onQueued(() => this.wake());
    this.listening = this.listen();
    this.wake();
  }

  /** LISTENs on a connection of its own (not one of the pool's); after a loss, again in a few seconds. */
  private async listen(): Promise<void> {
    const { database, log } = this.deps;
    if (database.kind !== 'postgres' || this.stopped) return;
    const { default: pg } = await import('pg');
    const client = new pg.Client((database.db.$client as Pool).options);
    client.on('notification', () => this.wake());
    client.on('error', (error) => log.warn({ err: error }, 'background jobs: the notification connection failed'));
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listenLater();
    });
    try {
      await client.connect();
      await client.query(`listen ${JOB_CHANNEL}`);
    } catch (error) {
      log.warn({ err: error }, 'background jobs: could not listen for queued jobs; polling meanwhile');
      await client.end().catch(() => {});
      this.listenLater();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    this.wake(); // what was queued while no one listened
  }

  private listenLater() {
    if (this.stopped || this.relisten) return;
    this.relisten = setTimeout(() => {
      this.relisten = undefined;
      this.listening = this.listen();
    }, 5_000);
    this.relisten.unref();
  }

  private async unlisten(): Promise<void> {
    clearTimeout(this.relisten);
    this.relisten = undefined;
    const client = this.listener;
    this.listener = undefined;
    await this.listening.catch(() => {});
    await client?.end().catch(() => {});
  }

  /**
   * The embedded database serves one process: a job still `running` at start was held by this installation's
   * previous process, which is gone — its lease lapses now rather than in `leaseMs`.
   */
  async releaseOrphans(): Promise<void> {
    await this.deps.database.withSystem((tx) => tx.execute(sql`update background_job set locked_until = now() - interval '1 second' where status = 'running'`));
  }

  /** Looks for work now (a job was just queued in this process). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'background jobs: claiming failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** How many jobs this runner is running now. */
  get busy(): number {
    return this.running.size;
  }

  /**
   * Stops: no more claims; the running jobs are aborted and, once they have rolled back, given back to the
   * queue without spending an attempt (another process takes them at once).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await this.unlisten();
    await this.pumping;
    const held = [...this.running.values()];
    for (const job of held) job.abort.abort();
    await Promise.all(held.map((job) => job.done));
  }

  /**
   * Dies without a word, as a killed process would: claims stop, the running jobs are abandoned where they are
   * (their transactions never commit) and their leases left to lapse. For the tests.
   */
  abandon(): void {
    this.stopped = true;
    this.abandoned = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    void this.unlisten();
    for (const job of this.running.values()) job.abort.abort(new JobLeaseLost());
    this.running.clear();
  }

  private async pump(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      const claimed = await this.claim();
      if (!claimed) return;
      this.launch(claimed);
    }
  }

  /** Fails the jobs whose runner died with their attempts spent, then claims the fairest next job. */
  private async claim(): Promise<ClaimedJob | undefined> {
    const leaseSeconds = this.leaseMs / 1000;
    return this.deps.database.withSystem(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
      await tx.execute(
        sql`update background_job set status = 'failed', error_key = 'JobInterrupted', finished_at = now(), updated_at = now(), locked_by = null, locked_until = null
            where status = 'running' and locked_until < now() and attempts >= max_attempts`,
      );
      const [row] = await rows<ClaimedJob>(
        tx,
        sql`with busy as (
              select tenant_id, count(*) as n from background_job where status = 'running' and locked_until >= now() group by tenant_id
            ), last_start as (
              select tenant_id, max(started_at) as at from background_job where started_at is not null group by tenant_id
            ), next as (
              select j.tenant_id, j.id from background_job j
              left join busy b on b.tenant_id = j.tenant_id
              left join last_start l on l.tenant_id = j.tenant_id
              where (j.status = 'queued' or (j.status = 'running' and j.locked_until < now()))
                and coalesce(b.n, 0) < ${this.perTenant}
              order by l.at asc nulls first, j.id asc
              limit 1
            )
            update background_job j set status = 'running', attempts = j.attempts + 1, locked_by = ${this.id},
              locked_until = now() + make_interval(secs => ${leaseSeconds}), started_at = now(), updated_at = now()
            from next where j.tenant_id = next.tenant_id and j.id = next.id
            returning j.tenant_id, j.id, j.kind, j.payload, j.attempts, j.created_by`,
      );
      return row;
    });
  }

  private launch(row: ClaimedJob): void {
    const tenantId = Number(row.tenant_id);
    const jobId = Number(row.id);
    const attempt = Number(row.attempts);
    const key = `${tenantId}:${jobId}`;
    const abort = new AbortController();
    const entry = { abort, tenantId, jobId, attempt, done: Promise.resolve() };
    this.running.set(key, entry);
    entry.done = this.execute(row, tenantId, jobId, attempt, abort).finally(() => {
      if (this.running.get(key) === entry) this.running.delete(key);
      this.wake();
    });
  }

  /** The conditions under which this runner still holds the job (the fencing check of every write it makes). */
  private held(tenantId: number, jobId: number, attempt: number) {
    return and(eq(backgroundJob.tenantId, tenantId), eq(backgroundJob.id, jobId), eq(backgroundJob.status, 'running'), eq(backgroundJob.lockedBy, this.id), eq(backgroundJob.attempts, attempt));
  }

  private async execute(row: ClaimedJob, tenantId: number, jobId: number, attempt: number, abort: AbortController): Promise<void> {
    const { database, config, registries, access, log } = this.deps;
    const adminId = Number(row.created_by);
    const base: Caller = { tenantId, account: { tenantId, adminId, sessionId: '' }, config, registries, log, ip: '', access };
    const caller: TransactingCaller = { ...base, transaction: (fn) => withServiceContext(database, base, fn) };
    const lease = () => sql`now() + make_interval(secs => ${this.leaseMs / 1000})`;
    let completed = false;
    let lastProgress = 0;
    // The lease is renewed every third of its length; a renewal that finds the job no longer ours aborts it.
    const renew = setInterval(() => {
      if (this.abandoned) return clearInterval(renew);
      void database
        .withSystem((tx) => tx.update(backgroundJob).set({ lockedUntil: lease(), updatedAt: new Date() }).where(this.held(tenantId, jobId, attempt)).returning({ id: backgroundJob.id }))
        .then((renewed) => renewed.length || abort.abort(new JobLeaseLost()), (error: unknown) => log.warn({ err: error, jobId }, 'background jobs: lease renewal failed'));
    }, this.leaseMs / 3);
    const context: JobContext = {
      jobId,
      tenantId,
      attempt,
      payload: row.payload,
      caller,
      signal: abort.signal,
      progress: async (done, total) => {
        if (this.abandoned) throw new JobLeaseLost();
        const now = Date.now();
        if (now - lastProgress < 500 && (total === undefined || total === null || done < total)) return;
        lastProgress = now;
        await database.withSystem((tx) =>
          tx.update(backgroundJob).set({ progressDone: done, ...(total === undefined ? {} : { progressTotal: total }), lockedUntil: lease(), updatedAt: new Date() }).where(this.held(tenantId, jobId, attempt)),
        );
      },
      complete: async (tx, result) => {
        if (this.abandoned) throw new JobLeaseLost();
        const done = await tx
          .update(backgroundJob)
          .set({ status: 'succeeded', result: result ?? null, progressDone: sql`coalesce(${backgroundJob.progressTotal}, ${backgroundJob.progressDone})`, finishedAt: new Date(), updatedAt: new Date(), lockedBy: null, lockedUntil: null })
          .where(this.held(tenantId, jobId, attempt))
          .returning({ id: backgroundJob.id });
        if (!done.length) throw new JobLeaseLost();
        completed = true;
      },
    };
    try {
      const kind = this.kinds.get(row.kind);
      if (!kind) throw new BizError('JobKindUnknown', { additional: row.kind });
      const result = await kind.run(context);
      if (!completed) await caller.transaction((ctx) => context.complete(ctx.tx, result));
    } catch (error) {
      if (abort.signal.aborted && abort.signal.reason instanceof JobLeaseLost) return; // another runner has it, or this one was abandoned
      if (abort.signal.aborted) {
        // An orderly stop: back to the queue, this attempt not counted.
        await database
          .withSystem((tx) => tx.update(backgroundJob).set({ status: 'queued', attempts: sql`${backgroundJob.attempts} - 1`, lockedBy: null, lockedUntil: null, updatedAt: new Date() }).where(this.held(tenantId, jobId, attempt)))
          .catch((e: unknown) => log.warn({ err: e, jobId }, 'background jobs: could not give a stopped job back'));
        return;
      }
      const key: ErrorKey = error instanceof BizError ? error.key : 'ServerError';
      if (!(error instanceof BizError)) log.error({ err: error, jobId, kind: row.kind }, 'background job failed');
      await database
        .withSystem((tx) =>
          tx
            .update(backgroundJob)
            .set({ status: 'failed', errorKey: key, result: error instanceof BizError && error.additional ? { additional: error.additional } : null, finishedAt: new Date(), updatedAt: new Date(), lockedBy: null, lockedUntil: null })
            .where(this.held(tenantId, jobId, attempt)),
        )
        .catch((e: unknown) => log.error({ err: e, jobId }, 'background jobs: could not record a failure'));
    } finally {
      clearInterval(renew);
    }
  }
}

/**
 * Deletes the finished jobs (succeeded or failed) of every tenant that finished more than `retentionDays` ago,
 * their files with them: `batch` rows a transaction on the owner connection, at most `maxBatches` a sweep (the
 * next sweep takes the rest). Answers how many went. The table holds no more than the retention's jobs, so a
 * sweep's scan stays as small as that.
 */
export async function sweepFinishedJobs(database: Database, { retentionDays, batch = 500, maxBatches = 20, now = new Date() }: { retentionDays: number; batch?: number; maxBatches?: number; now?: Date }): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let removed = 0;
  for (let round = 0; round < maxBatches; round++) {
    const gone = await database.withSystem((tx) =>
      rows<{ id: string | number }>(
        tx,
        sql`with old as (
              select tenant_id, id from background_job where status in ('succeeded', 'failed') and finished_at < ${cutoff}::timestamptz limit ${batch}
            )
            delete from background_job j using old where j.tenant_id = old.tenant_id and j.id = old.id returning j.id`,
      ),
    );
    removed += gone.length;
    if (gone.length < batch) break;
  }
  return removed;
}

/** Sweeps the finished jobs a minute after start and then hourly (a sweep still going skips a tick); answers the stop function. */
export function startJobSweep(deps: { database: Database; config: Config; log: FastifyBaseLogger }, intervalMs = 3600_000, delayMs = 60_000): () => Promise<void> {
  const sweep = () =>
    sweepFinishedJobs(deps.database, { retentionDays: deps.config.jobs.retentionDays }).then(
      (n) => void (n > 0 && deps.log.info({ removed: n }, 'background jobs: finished jobs past their retention removed')),
      (error: unknown) => deps.log.error({ err: error }, 'background jobs: the sweep failed'),
    );
  return startPeriodic(sweep, intervalMs, delayMs);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's runner of background jobs (started by main.ts; the tests start their own). */
    jobs: JobRunner;
  }
}
