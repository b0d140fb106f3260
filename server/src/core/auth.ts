import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Tx } from '../db/connection.ts';
import { admin, session, tenant } from '../db/schema/index.ts';
import type { Config } from '../config.ts';
import { BizError, unauthorized } from './errors.ts';

/** Who is calling: set by the auth hook on every /api/admin route. */
export interface AuthContext {
  tenantId: number;
  adminId: number;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** Runs `fn` in one transaction under the caller's tenant (RLS applies). */
    tenant<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  }
  interface FastifyContextConfig {
    /** false: the route is public (login, captcha, system config). Default: signed-in only. */
    auth?: boolean;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opens a session and returns its bearer token (never stored; only its hash is). */
export async function openSession(
  tx: Tx,
  config: Config,
  who: { tenantId: number; adminId: number; ip?: string; userAgent?: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(session).values({
    tokenHash: hashToken(token),
    tenantId: who.tenantId,
    adminId: who.adminId,
    ip: who.ip,
    userAgent: who.userAgent?.slice(0, 300),
    expiresAt: new Date(Date.now() + config.session.absoluteHours * 3600_000),
  });
  return token;
}

export async function revokeSession(tx: Tx, sessionId: string) {
  await tx.update(session).set({ revokedAt: new Date() }).where(eq(session.id, sessionId));
}

/** Revokes every other session of the caller ("remove other sessions"); returns how many. */
export async function revokeOtherSessions(tx: Tx, auth: AuthContext): Promise<number> {
  const revoked = await tx
    .update(session)
    .set({ revokedAt: new Date() })
    .where(and(eq(session.tenantId, auth.tenantId), eq(session.adminId, auth.adminId), ne(session.id, auth.sessionId), isNull(session.revokedAt)))
    .returning({ id: session.id });
  return revoked.length;
}

/** Revokes all sessions of an account (password change/reset, lock, tenant disabled). */
export async function revokeAllSessions(tx: Tx, tenantId: number, adminId?: number) {
  const where = adminId === undefined ? eq(session.tenantId, tenantId) : and(eq(session.tenantId, tenantId), eq(session.adminId, adminId));
  await tx.update(session).set({ revokedAt: new Date() }).where(and(where, isNull(session.revokedAt)));
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

// Touching last_seen_at on every request would write on every read; once a minute keeps idle expiry exact enough.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the bearer token to a live session: not revoked, not idle past the limit, not past its
 * absolute expiry, its tenant enabled and its account neither disabled nor locked.
 */
export async function resolveSession(database: Database, config: Config, token: string): Promise<AuthContext> {
  const [row] = await database.db
    .select({
      id: session.id,
      tenantId: session.tenantId,
      adminId: session.adminId,
      lastSeenAt: session.lastSeenAt,
      expiresAt: session.expiresAt,
      revokedAt: session.revokedAt,
      tenantEnabled: tenant.enabled,
      tenantLogoff: tenant.isLogoff,
      adminEnabled: admin.enabled,
      adminLocked: admin.isLock,
    })
    .from(session)
    .innerJoin(tenant, eq(tenant.id, session.tenantId))
    .innerJoin(admin, and(eq(admin.tenantId, session.tenantId), eq(admin.id, session.adminId)))
    .where(eq(session.tokenHash, hashToken(token)))
    .limit(1);
  const now = Date.now();
  if (!row || row.revokedAt) throw unauthorized();
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + config.session.idleMinutes * 60_000 <= now) {
    throw unauthorized('SessionExpired');
  }
  if (!row.tenantEnabled || row.tenantLogoff) throw new BizError('TenantIsDisabled', { status: 40100 });
  if (!row.adminEnabled || row.adminLocked) throw new BizError('AdminIsLock', { status: 40100 });
  if (now - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await database.db.update(session).set({ lastSeenAt: new Date(now) }).where(eq(session.id, row.id));
  }
  return { tenantId: row.tenantId, adminId: row.adminId, sessionId: row.id };
}

/** Every route is signed-in only unless its config says `auth: false`. */
export const authPlugin = fp(async (app: FastifyInstance, opts: { database: Database; config: Config }) => {
  const { database, config } = opts;
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.decorateRequest('tenant', function tenantTx<T>(this: FastifyRequest, fn: (tx: Tx) => Promise<T>) {
    if (!this.auth) throw unauthorized();
    return database.withTenant(this.auth.tenantId, fn);
  });
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.auth === false || request.url.startsWith('/api/docs')) return;
    if (!request.routeOptions.url) return; // unknown route: the 404 handler answers
    const token = bearer(request);
    if (!token) throw unauthorized();
    request.auth = await resolveSession(database, config, token);
  });
});
