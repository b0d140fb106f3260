import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Envelope } from '@p8/contract/envelope';
import type { Label } from '@p8/contract/bills/status';
import type { ImportProgress, ImportResult } from '@p8/contract/upload';
import type { Config } from '../config.ts';
import type { Database, Tx } from '../db/connection.ts';
import { backgroundJob } from '../db/schema/index.ts';
import { enqueueJob, type JobContext, type JobKind } from './background-jobs.ts';
import { BizError } from './errors.ts';
import { langOf, throwIfCancelled, yieldToEventLoop, type ExcelColumn } from './excel.ts';
import { replayableRoute, replayAsCreator, replayRefusal } from './replayed-routes.ts';
import type { RequestCaller } from './route.ts';
import { discard, extensionOf, limitBytes, receiveSingleFile } from './uploads.ts';

/*
 * Imports as background jobs. Every `POST {path}/import` route of the app stays as it is (it reads the upload
 * and answers the import's result); the import dialog queues `POST /api/admin/system/jobs/import?path=…` with
 * the workbook instead. The workbook is kept in the job's row, and a runner — in any process — replays the
 * import route with it as the account that queued it (core/replayed-routes.ts). The replay carries a secret
 * of this process that binds the route's `ImportJob` to the background job: the import reports its progress
 * to the job, stops when the job is stopped, and marks it succeeded inside its own last transaction (the rows
 * and the job's success commit together or not at all). An import that wrote nothing (all refused) is
 * completed by the kind afterwards with its result.
 *
 * All imports share one shutdown signal: on SIGTERM (app.close) it aborts them, each import stops at its
 * next batch with ImportCancelled, and its transaction rolls back, so the server exits promptly and no
 * import is left half-written (a job's import goes back to the queue).
 */

export const IMPORT_JOB = 'import';

/** The header of a replayed import naming its background job (a secret of this process, never sent by a client). */
const REPLAY_HEADER = 'x-p8-import-replay';

export interface ImportJob {
  /** Aborted when the server shuts down (or the background job running the import is stopped). */
  readonly signal: AbortSignal;
  /** Row errors listed in the result at most; errorCount still counts them all. */
  readonly maxErrors: number;
  /**
   * Rows a row-by-row import writes per batch (`IMPORT_ROWS_PER_BATCH`). On PGlite each batch is a transaction
   * of its own (a staged import) holding the one connection while it runs: small enough that the other
   * tenants wait for at most one batch of a few hundred inserts through the records' services.
   */
  readonly rowsPerBatch: number;
  /** The template's columns, once the upload is read against them: the result names a refused cell's column by its title. */
  columns?: readonly ExcelColumn[];
  report(update: Partial<ImportProgress>): void;
  /**
   * Between two batches of writes, holding no transaction of its own on the embedded database: lets the
   * event loop (and other requests) turn, then throws ImportCancelled when the server is shutting down.
   */
  checkpoint(): Promise<void>;
  /**
   * Called by the import's last transaction (`tx`, the one that commits its rows) with its result: marks the
   * background job running the import succeeded in that same transaction. Nothing for a direct request.
   */
  complete(tx: Tx, result: ImportResult): Promise<void>;
}

async function checkpoint(signal: AbortSignal) {
  await yieldToEventLoop();
  throwIfCancelled(signal);
}

interface Replay {
  job: JobContext;
  completed: boolean;
}

export class ImportJobs {
  private readonly shutdown = new AbortController();
  /** The background jobs whose import is being replayed in this process, by the replay's secret. */
  private readonly replays = new Map<string, Replay>();
  constructor(private readonly config: Pick<Config, 'import'>) {}

  get signal() {
    return this.shutdown.signal;
  }

  /** Aborts every running import (server shutdown). */
  cancelAll() {
    this.shutdown.abort();
  }

  /** The job of an import request: bound to its background job when the request is a job's replay. */
  begin(req: FastifyRequest): ImportJob {
    const secret = req.headers[REPLAY_HEADER];
    const replay = typeof secret === 'string' ? this.replays.get(secret) : undefined;
    const base = { maxErrors: this.config.import.maxErrors, rowsPerBatch: this.config.import.rowsPerBatch };
    if (!replay) return { ...base, signal: this.signal, report() {}, checkpoint: () => checkpoint(this.signal), complete: async () => {} };
    const signal = AbortSignal.any([this.signal, replay.job.signal]);
    let progress: ImportProgress = { phase: 'uploading', rowsRead: 0, rowsChecked: 0, rowsWritten: 0 };
    return {
      ...base,
      signal,
      // The job's progress: rows read while reading (no total yet), then rows checked or written of the total.
      report(update) {
        progress = { ...progress, ...update };
        const reading = progress.phase === 'reading' || progress.total === undefined;
        const done = reading ? progress.rowsRead : progress.phase === 'checking' ? progress.rowsChecked : progress.rowsWritten;
        replay.job.progress(done, reading ? null : progress.total).catch(() => {}); // a lost lease aborts the signal
      },
      checkpoint: () => checkpoint(signal),
      async complete(tx, result) {
        await completeImport(replay.job, tx, result);
        replay.completed = true;
      },
    };
  }

  /** Runs `replay` with the job reachable by the headers it is given; answers whether the import completed the job. */
  async replaying<T>(job: JobContext, replay: (headers: Record<string, string>) => Promise<T>): Promise<{ answer: T; completed: boolean }> {
    const secret = randomUUID();
    const entry: Replay = { job, completed: false };
    this.replays.set(secret, entry);
    try {
      const answer = await replay({ [REPLAY_HEADER]: secret });
      return { answer, completed: entry.completed };
    } finally {
      this.replays.delete(secret);
    }
  }
}

/** Marks an import job succeeded with its result in `tx`, all its rows done; the workbook, read, leaves the row. */
async function completeImport(job: JobContext, tx: Tx, result: ImportResult) {
  await tx.update(backgroundJob).set({ file: null, progressTotal: result.total }).where(and(eq(backgroundJob.tenantId, job.tenantId), eq(backgroundJob.id, job.jobId)));
  await job.complete(tx, result);
}

/**
 * The job as one batch of an import runs it: same signal and limits, its own row counts not reported (they
 * are the batch's; the import reports its progress between batches).
 */
export const batchOf = (job: ImportJob): ImportJob => ({ ...job, report() {} });

/** An import run outside a route (tests, scripts): never cancelled, default error cap. */
export function detachedImportJob(maxErrors = 1000): ImportJob {
  const signal = new AbortController().signal;
  return { signal, maxErrors, rowsPerBatch: 250, report() {}, checkpoint: () => checkpoint(signal), complete: async () => {} };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The running imports: see core/import-job.ts. */
    importJobs: ImportJobs;
  }
}

export const importJobsPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const jobs = new ImportJobs(opts.config);
  app.decorate('importJobs', jobs);
  // preClose runs before Fastify waits for the in-flight requests: the imports among them end at once.
  app.addHook('preClose', async () => jobs.cancelAll());
});

/** Turns the import of a request into a reported job: phase 'failed' when it throws. */
export async function reportedImport<T>(job: ImportJob, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    job.report({ phase: 'done' });
    return result;
  } catch (error) {
    job.report({ phase: 'failed' });
    throw error;
  }
}

interface ImportPayload {
  /** The import route's URL. */
  path: string;
  lang: string;
  /** The screen imported into, for the job list. */
  title: Label | null;
}

/** A file name fit to keep and show: no control characters, at most 200 characters. */
const keptName = (name: string) => name.replace(/\p{Cc}/gu, '').slice(0, 200);

/**
 * `POST /api/admin/system/jobs/import?path=…`: after the caller's permission for that import, receives the
 * workbook (within the Excel upload limit) and queues its import with the workbook in the job's row.
 */
export async function queueImport(caller: RequestCaller, request: FastifyRequest, path: string): Promise<{ id: number }> {
  const { url, title } = await caller.transaction((ctx) => replayableRoute(ctx, request.server.importRoutes, path));
  const file = await receiveSingleFile(request, caller.config, limitBytes(caller.config, 'excel'));
  try {
    const ext = extensionOf(file.filename);
    if (ext !== 'xlsx' && ext !== 'xls') throw new BizError('ImportFileTypeError', { additional: ext || keptName(file.filename) });
    if (!file.size) throw new BizError('PleaseSelectFile');
    const bytes = await readFile(file.path);
    const payload: ImportPayload = { path: url, lang: langOf(request), title };
    const id = await caller.transaction((ctx) => enqueueJob(ctx, { kind: IMPORT_JOB, subject: url.split('?')[0], payload, file: { bytes, name: keptName(file.filename) } }));
    return { id };
  } finally {
    await discard(file);
  }
}

/** The import job kind: replays the import route with the kept workbook as the job's creator. */
export function importJobKind(app: FastifyInstance, database: Database, config: Config): JobKind {
  return {
    kind: IMPORT_JOB,
    async run(job) {
      const { path, lang } = job.payload as ImportPayload;
      const [row] = await job.caller.transaction((ctx) =>
        ctx.tx.select({ file: backgroundJob.file, fileName: backgroundJob.fileName }).from(backgroundJob).where(and(eq(backgroundJob.tenantId, job.tenantId), eq(backgroundJob.id, job.jobId))),
      );
      if (!row?.file) throw new BizError('FileNotFound', { additional: job.jobId });
      // The route reads the workbook by its extension; the name itself stays in the job (a header may not carry it as sent).
      const boundary = `----p8job${randomBytes(12).toString('hex')}`;
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.${extensionOf(row.fileName ?? '') || 'xlsx'}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const payload = Buffer.concat([Buffer.from(head), Buffer.from(row.file), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const { answer, completed } = await app.importJobs.replaying(job, (headers) =>
        replayAsCreator(app, database, config, job, { url: path, lang, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload }),
      );
      const envelope = answer.statusCode === 200 ? (answer.json() as Envelope<ImportResult>) : undefined;
      if (!envelope || envelope.status !== 0) throw replayRefusal(answer.body);
      // An import that wrote nothing (its rows all refused) did not complete the job: its result does now.
      if (!completed) await job.caller.transaction((ctx) => completeImport(job, ctx.tx, envelope.data));
      return undefined;
    },
  };
}
