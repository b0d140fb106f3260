import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Label } from '@p8/contract/bills/status';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { backgroundJob } from '../db/schema/index.ts';
import { enqueueJob, type JobKind } from './background-jobs.ts';
import { XLSX_MIME } from './excel.ts';
import { replayableRoute, replayAsCreator, replayRefusal, type ReplayableRoutes } from './replayed-routes.ts';
import type { ServiceContext } from './service-context.ts';

/*
 * Exports as background jobs. Every `POST …/export` route of the app stays as it is (it answers the workbook
 * itself); the export button queues `POST /api/admin/system/jobs/export` with that route's path and the list's
 * query instead, and a runner — in any process — replays the route for the account that queued it
 * (core/replayed-routes.ts). The workbook is kept in the job's row (so any process can hand it out), and its
 * creator downloads it with `POST /api/admin/system/jobs/file`.
 */

export const EXPORT_JOB = 'export';

interface ExportPayload {
  path: string;
  query: Record<string, unknown>;
  lang: string;
  /** The exported list's screen, for the job list. */
  title: Label | null;
}

/** Queues the export of `path` with the list's `query`, after the caller's permission for that export. */
export async function queueExport(ctx: ServiceContext, routes: ReplayableRoutes, body: { path: string; query: Record<string, unknown> }, lang: string): Promise<{ id: number }> {
  const { url: path, title } = await replayableRoute(ctx, routes, body.path);
  const payload: ExportPayload = { path, query: body.query, lang, title };
  return { id: await enqueueJob(ctx, { kind: EXPORT_JOB, subject: path.split('?')[0], payload }) };
}

/** The file name of a `content-disposition: attachment; filename="…"; filename*=UTF-8''…` answer. */
function attachmentName(header: string | undefined): string {
  const utf8 = header?.match(/filename\*=UTF-8''([^;]+)/i);
  if (utf8) return decodeURIComponent(utf8[1]);
  return header?.match(/filename="([^"]*)"/i)?.[1] ?? 'export.xlsx';
}

/** The export job kind: replays the export route as the job's creator and keeps the workbook in the job. */
export function exportJobKind(app: FastifyInstance, database: Database, config: Config): JobKind {
  return {
    kind: EXPORT_JOB,
    async run(job) {
      const { path, query, lang } = job.payload as ExportPayload;
      await job.progress(0, 1);
      const answer = await replayAsCreator(app, database, config, job, { url: path, lang, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(query ?? {}) });
      if (answer.statusCode !== 200 || !String(answer.headers['content-type'] ?? '').startsWith(XLSX_MIME)) throw replayRefusal(answer.body);
      const file = answer.rawPayload;
      const fileName = attachmentName(answer.headers['content-disposition'] as string | undefined);
      await job.caller.transaction(async (ctx) => {
        await ctx.tx.update(backgroundJob).set({ file, fileName }).where(and(eq(backgroundJob.tenantId, job.tenantId), eq(backgroundJob.id, job.jobId)));
        await job.complete(ctx.tx, { fileName, size: file.length });
      });
      return undefined;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's export routes, which an export job may replay. */
    exportRoutes: ReplayableRoutes;
    /** The app's import routes, which an import job replays (core/import-job.ts). */
    importRoutes: ReplayableRoutes;
  }
}
