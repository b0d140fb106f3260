import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IMPORT_JOB_ID, type ImportPhase, type ImportProgress } from '@p8/contract/upload';
import type { Config } from '../config.ts';
import { throwIfCancelled, yieldToEventLoop, type ExcelColumn } from './excel.ts';

/*
 * A running import as its dialog sees it. The client names its import with a random id
 * (`POST {path}/import?jobId=…`) and polls `GET /api/admin/import/progress/:jobId` while the upload's
 * answer is pending; the import reports its phase and row counts as it goes. Progress is kept in this
 * process only (a few numbers per import, forgotten a while after the end): a poll that reaches another
 * server process answers null and the dialog just shows no count.
 *
 * All imports share one shutdown signal: on SIGTERM (app.close) it aborts them, each import stops at its
 * next batch with ImportCancelled, and its transaction rolls back, so the server exits promptly and no
 * import is left half-written.
 */

export interface ImportJob {
  /** Aborted when the server shuts down. */
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
}

async function checkpoint(signal: AbortSignal) {
  await yieldToEventLoop();
  throwIfCancelled(signal);
}

/** How long the progress of a finished import stays readable. */
const KEEP_FINISHED_MS = 60_000;

export class ImportJobs {
  private readonly shutdown = new AbortController();
  private readonly progress = new Map<string, { value: ImportProgress; finishedAt?: number }>();
  constructor(private readonly config: Pick<Config, 'import'>) {}

  get signal() {
    return this.shutdown.signal;
  }

  /** Aborts every running import (server shutdown). */
  cancelAll() {
    this.shutdown.abort();
  }

  /** The job of an import request; its progress is readable by the same user under the client's job id. */
  begin(req: FastifyRequest): ImportJob {
    this.forgetFinished();
    const jobId = IMPORT_JOB_ID.safeParse((req.query as Record<string, unknown> | undefined)?.jobId);
    const key = jobId.success ? keyOf(req, jobId.data) : undefined;
    const entry = { value: { phase: 'uploading' as ImportPhase, rowsRead: 0, rowsChecked: 0, rowsWritten: 0 } as ImportProgress, finishedAt: undefined as number | undefined };
    if (key) this.progress.set(key, entry);
    return {
      signal: this.signal,
      maxErrors: this.config.import.maxErrors,
      rowsPerBatch: this.config.import.rowsPerBatch,
      report(update) {
        entry.value = { ...entry.value, ...update };
        if (update.phase === 'done' || update.phase === 'failed') entry.finishedAt = Date.now();
      },
      checkpoint: () => checkpoint(this.signal),
    };
  }

  read(req: FastifyRequest, jobId: string): ImportProgress | null {
    return this.progress.get(keyOf(req, jobId))?.value ?? null;
  }

  private forgetFinished() {
    const now = Date.now();
    for (const [key, entry] of this.progress) if (entry.finishedAt !== undefined && now - entry.finishedAt > KEEP_FINISHED_MS) this.progress.delete(key);
  }
}

const keyOf = (req: FastifyRequest, jobId: string) => `${req.auth.tenantId}:${req.auth.adminId}:${jobId}`;

/** An import run outside a route (tests, scripts): never cancelled, default error cap. */
/**
 * The job as one batch of an import runs it: same signal and limits, its own row counts not reported (they
 * are the batch's; the import reports its progress between batches).
 */
export const batchOf = (job: ImportJob): ImportJob => ({ ...job, report() {} });

export function detachedImportJob(maxErrors = 1000): ImportJob {
  const signal = new AbortController().signal;
  return { signal, maxErrors, rowsPerBatch: 250, report() {}, checkpoint: () => checkpoint(signal) };
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
