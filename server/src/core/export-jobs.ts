import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { hasPermission } from '@p8/contract/permission';
import type { ErrorKey } from '@p8/contract/errors';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { backgroundJob, session } from '../db/schema/index.ts';
import { hashToken, openSession } from './auth.ts';
import { enqueueJob, type JobKind } from './background-jobs.ts';
import { BizError } from './errors.ts';
import { XLSX_MIME } from './excel.ts';
import { callerPermissions } from './permissions.ts';
import type { ServiceContext } from './service-context.ts';

/*
 * Exports as background jobs. Every `POST …/export` route of the app stays as it is (it answers the workbook
 * itself); the export button queues `POST /api/admin/system/jobs/export` with that route's path and the list's
 * query instead, and a runner — in any process — replays the route for the account that queued it: a session of
 * its own for the length of the replay (removed after), the same permission check, data scope, filters and
 * columns. The workbook is kept in the job's row (so any process can hand it out), and its creator downloads it
 * with `POST /api/admin/system/jobs/file`.
 */

export const EXPORT_JOB = 'export';

interface ExportPayload {
  path: string;
  query: Record<string, unknown>;
  lang: string;
}

/** The app's export routes (`POST …/export`, path parameters included) and the permission each checks. */
export class ExportRoutes {
  private readonly routes: Array<{ pattern: RegExp; permission: string | readonly string[] | undefined }> = [];
  /** Fastify's onRoute hook: notes every export route as it is added. */
  readonly onRoute = (route: RouteOptions) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST') || !route.url.endsWith('/export')) return;
    const pattern = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/?#]+')}$`);
    this.routes.push({ pattern, permission: (route.config as { permission?: string } | undefined)?.permission });
  };
  /** The export route a path (without its query string) reaches, if any. */
  find(pathname: string) {
    return this.routes.find((r) => r.pattern.test(pathname));
  }
}

/** `/admin/x/export` (the web's path) or `/api/admin/x/export`: the route's URL. */
const routeUrl = (path: string) => (path.startsWith('/api/') ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`);

/** Queues the export of `path` with the list's `query`, after the caller's permission for that export. */
export async function queueExport(ctx: ServiceContext, routes: ExportRoutes, body: { path: string; query: Record<string, unknown> }, lang: string): Promise<{ id: number }> {
  const path = routeUrl(body.path);
  const route = routes.find(path.split('?')[0]);
  if (!route) throw new BizError('DataNotExist', { additional: body.path });
  const needed = route.permission;
  if (needed) {
    const perms = await callerPermissions(ctx.tx, ctx.account);
    if (!perms.isSuper && !hasPermission(perms.menuNames, needed)) throw new BizError('Forbidden', { status: 40300, additional: typeof needed === 'string' ? needed : needed.join(',') });
  }
  const payload: ExportPayload = { path, query: body.query, lang };
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
      const token = await database.withSystem((tx) => openSession(tx, config, { tenantId: job.tenantId, adminId: job.caller.account.adminId, userAgent: `background job ${job.jobId}` }));
      try {
        await job.progress(0, 1);
        const answer = await app.inject({
          method: 'POST',
          url: path,
          headers: { authorization: `Bearer ${token}`, 'accept-language': lang, 'content-type': 'application/json', 'x-no-loading': '1' },
          payload: JSON.stringify(query ?? {}),
        });
        if (answer.statusCode !== 200 || !String(answer.headers['content-type'] ?? '').startsWith(XLSX_MIME)) {
          let key: ErrorKey = 'ServerError';
          try {
            key = (JSON.parse(answer.body) as { message: ErrorKey }).message ?? key;
          } catch {
            // not an envelope
          }
          throw new BizError(key);
        }
        const file = answer.rawPayload;
        const fileName = attachmentName(answer.headers['content-disposition'] as string | undefined);
        await job.caller.transaction(async (ctx) => {
          await ctx.tx.update(backgroundJob).set({ file, fileName }).where(and(eq(backgroundJob.tenantId, job.tenantId), eq(backgroundJob.id, job.jobId)));
          await job.complete(ctx.tx, { fileName, size: file.length });
        });
        return undefined;
      } finally {
        await database.withSystem((tx) => tx.delete(session).where(and(eq(session.tenantId, job.tenantId), eq(session.tokenHash, hashToken(token)))));
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's export routes, which an export job may replay (core/export-jobs.ts). */
    exportRoutes: ExportRoutes;
  }
}
