import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterCommit, type Tx } from '../db/connection.ts';
import { session } from '../db/schema/index.ts';
import type { Config } from '../config.ts';
import type { AccessCache, AccessInvalidator, CallerAccess } from './access-cache.ts';
import { unauthorized } from './errors.ts';

/** Who is calling: set by the auth hook on every /api/admin route. */
export interface AuthContext {
  tenantId: number;
  adminId: number;
  sessionId: string;
  /** What the caller may do, cached per token (set by the sign-in check; absent for callers built elsewhere). */
  access?: CallerAccess;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** false: the route is public (login, captcha, system config). Default: signed-in only. */
    auth?: boolean;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A bearer token as the server looks it up: its hash, and the tenant its first part names
 * (`<tenant>.<random>`), so that the session is found by (tenant_id, token_hash) — within one tenant's
 * rows, as every tenant table is read (docs/operations.md, "Distributing by tenant"). A token issued before
 * tokens carried their tenant has no tenant: it is looked up by its hash alone until it expires.
 */
export interface TokenKey {
  hash: string;
  /** undefined: an old-style token (32 random bytes, nothing else); null: neither shape, no session has it. */
  tenantId: number | undefined | null;
}

const LEGACY_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function tokenKey(token: string): TokenKey {
  const dot = token.indexOf('.');
  const tenantId = dot > 0 && /^\d{1,15}$/.test(token.slice(0, dot)) ? Number(token.slice(0, dot)) : undefined;
  if (tenantId !== undefined && tenantId > 0) return { hash: hashToken(token), tenantId };
  return { hash: hashToken(token), tenantId: LEGACY_TOKEN.test(token) ? undefined : null };
}

/** Opens a session and returns its bearer token `<tenant>.<random>` (never stored; only its hash is). */
export async function openSession(
  tx: Tx,
  config: Config,
  who: { tenantId: number; adminId: number; ip?: string; userAgent?: string },
): Promise<string> {
  const token = `${who.tenantId}.${randomBytes(32).toString('base64url')}`;
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

/*
 * Revocations: the sessions' rows say it, and after the commit the access cache (core/access-cache.ts) is
 * told, so that no process — this one or another behind the same Redis — honours a revoked token from the
 * next request on. `tx` must be the transaction of withSystem (afterCommit refuses a savepoint).
 */

/** Ends the caller's own session (logout). */
export async function revokeSession(tx: Tx, access: AccessInvalidator, auth: AuthContext) {
  await tx.update(session).set({ revokedAt: new Date() }).where(and(eq(session.tenantId, auth.tenantId), eq(session.id, auth.sessionId)));
  afterCommit(tx, () => access.changed([{ tenantId: auth.tenantId, adminIds: [auth.adminId] }]));
}

/** Revokes every other session of the caller ("remove other sessions"); returns how many. */
export async function revokeOtherSessions(tx: Tx, access: AccessInvalidator, auth: AuthContext): Promise<number> {
  const revoked = await tx
    .update(session)
    .set({ revokedAt: new Date() })
    .where(and(eq(session.tenantId, auth.tenantId), eq(session.adminId, auth.adminId), ne(session.id, auth.sessionId), isNull(session.revokedAt)))
    .returning({ id: session.id });
  afterCommit(tx, () => access.changed([{ tenantId: auth.tenantId, adminIds: [auth.adminId] }]));
  return revoked.length;
}

/** Revokes all sessions of an account, or of the whole tenant without `adminId` (password change/reset, lock, tenant disabled). */
export async function revokeAllSessions(tx: Tx, access: AccessInvalidator, tenantId: number, adminId?: number) {
  const where = adminId === undefined ? eq(session.tenantId, tenantId) : and(eq(session.tenantId, tenantId), eq(session.adminId, adminId));
  await tx.update(session).set({ revokedAt: new Date() }).where(and(where, isNull(session.revokedAt)));
  afterCommit(tx, () => access.changed([adminId === undefined ? { tenantId } : { tenantId, adminIds: [adminId] }]));
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/** Every route is signed-in only unless its config says `auth: false`. */
export const authPlugin = fp(async (app: FastifyInstance, opts: { access: AccessCache }) => {
  const { access } = opts;
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.auth === false || request.url.startsWith('/api/docs')) return;
    if (!request.routeOptions.url) return; // unknown route: the 404 handler answers
    const token = bearer(request);
    if (!token) throw unauthorized();
    // Sessions, roles and data scope come from the access cache: no query unless something changed.
    request.auth = await access.resolve(token);
  });
});
