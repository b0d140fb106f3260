import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Label } from '@p8/contract/bills/status';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { hasPermission } from '@p8/contract/permission';
import { isErrorKey } from '@p8/contract/errors';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { menu, session } from '../db/schema/index.ts';
import { hashToken, openSession } from './auth.ts';
import type { JobContext } from './background-jobs.ts';
import { BizError } from './errors.ts';
import { callerPermissions } from './permissions.ts';
import type { ServiceContext } from './service-context.ts';

/*
 * Routes a background job replays as the account that queued it: every `POST …/export` (core/export-jobs.ts)
 * and every workbook upload `POST …/import` (core/import-job.ts) of the app. The route is checked when the job is queued (its
 * permission, for the queuing account) and runs again, unchanged, in whichever process takes the job — with a
 * session of its own for the length of the replay, so the same permissions, data scope and audit as a request.
 */

/** The app's `POST …<suffix>` routes (path parameters included) and the permission each checks. */
export class ReplayableRoutes {
  private readonly routes: Array<{ pattern: RegExp; permission: string | readonly string[] | undefined }> = [];
  constructor(private readonly suffix: '/export' | '/import') {}
  /** Fastify's onRoute hook: notes every such route as it is added. */
  readonly onRoute = (route: RouteOptions) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST') || !route.url.endsWith(this.suffix)) return;
    // An import job replays a workbook upload (not, say, the print templates' JSON import).
    if (this.suffix === '/import' && !(route.schema as { consumes?: string[] } | undefined)?.consumes?.includes('multipart/form-data')) return;
    const pattern = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/?#]+')}$`);
    this.routes.push({ pattern, permission: (route.config as { permission?: string } | undefined)?.permission });
  };
  /** The route a path (without its query string) reaches, if any. */
  find(pathname: string) {
    return this.routes.find((r) => r.pattern.test(pathname));
  }
}

/** `/admin/x/export` (the web's path) or `/api/admin/x/export`: the route's URL. */
export const routeUrl = (path: string) => (path.startsWith('/api/') ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`);

/**
 * The route `path` (query string allowed) reaches, after the caller's permission for it: its URL, and the title
 * (zh, en) of the screen whose button that permission is — what the job list says the job is about.
 */
export async function replayableRoute(ctx: ServiceContext, routes: ReplayableRoutes, path: string): Promise<{ url: string; title: Label | null }> {
  const url = routeUrl(path);
  const route = routes.find(url.split('?')[0]);
  if (!route) throw new BizError('DataNotExist', { additional: path });
  const needed = route.permission;
  if (needed) {
    const perms = await callerPermissions(ctx.tx, ctx.account);
    if (!perms.isSuper && !hasPermission(perms.menuNames, needed)) throw new BizError('Forbidden', { status: 40300, additional: typeof needed === 'string' ? needed : needed.join(',') });
  }
  return { url, title: typeof needed === 'string' ? await screenTitle(ctx, needed) : null };
}

/** The title of the screen (the parent menu) of a button code, in the tenant's menu. */
async function screenTitle(ctx: ServiceContext, buttonCode: string): Promise<Label | null> {
  const screen = alias(menu, 'screen');
  const [row] = await ctx.tx
    .select({ zh: screen.metaTitle, en: screen.metaTitleEn })
    .from(menu)
    .innerJoin(screen, and(eq(screen.tenantId, menu.tenantId), eq(screen.id, menu.parentId)))
    .where(and(eq(menu.tenantId, ctx.tenantId), eq(menu.name, buttonCode)))
    .limit(1);
  return row ?? null;
}

/** Replays `POST url` as the job's creator (a session of its own, removed after) and answers the response. */
export async function replayAsCreator(
  app: FastifyInstance,
  database: Database,
  config: Config,
  job: Pick<JobContext, 'tenantId' | 'jobId' | 'caller'>,
  request: { url: string; lang: string; headers?: Record<string, string>; payload: string | Buffer },
) {
  const token = await database.withSystem((tx) => openSession(tx, config, { tenantId: job.tenantId, adminId: job.caller.account.adminId, userAgent: `background job ${job.jobId}` }));
  try {
    return await app.inject({
      method: 'POST',
      url: request.url,
      headers: { authorization: `Bearer ${token}`, 'accept-language': request.lang, 'x-no-loading': '1', ...request.headers },
      payload: request.payload,
    });
  } finally {
    await database.withSystem((tx) => tx.delete(session).where(and(eq(session.tenantId, job.tenantId), eq(session.tokenHash, hashToken(token)))));
  }
}

/** The refusal a replayed route answered (its envelope's key and additional), as the job's error. */
export function replayRefusal(body: string): BizError {
  try {
    const envelope = JSON.parse(body) as { message?: unknown; additional?: unknown };
    if (typeof envelope.message === 'string' && isErrorKey(envelope.message)) {
      return new BizError(envelope.message, envelope.additional === undefined ? {} : { additional: String(envelope.additional) });
    }
  } catch {
    // not an envelope
  }
  return new BizError('ServerError');
}
