import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Tx } from '../db/connection.ts';
import { admin, session, tenant } from '../db/schema/index.ts';
import type { AuditEntry } from './audit.ts';
import { tokenKey, type AuthContext, type TokenKey } from './auth.ts';
import { loadDeptId } from './data-scope.ts';
import { BizError, unauthorized } from './errors.ts';
import { loadPermissions, type Permissions } from './permissions.ts';
import type { SharedState } from './shared-state.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions, permissions and data scopes per token, and their invalidation (set by buildApp). */
    access: AccessCache;
  }
}

/**
 * A change of who may do what, to be announced after it committed. Without `adminIds` it concerns every
 * account of the tenant (a role, a menu, a department, the tenant itself); with them, those accounts (their
 * roles, department, state, password, sessions).
 */
export interface AccessChange {
  tenantId: number;
  adminIds?: number[];
}

/** Announces changes: what the revocation functions (core/auth.ts) and the service context need. */
export interface AccessInvalidator {
  changed(changes: AccessChange[]): Promise<void>;
}

/** What the caller may do, read once per token and version (core/permissions.ts, core/data-scope.ts use it). */
export interface CallerAccess {
  /** Roles, menus and button codes; `tx` when the request's transaction is open (PGlite has one connection). */
  permissions(tx?: Tx): Promise<Permissions>;
  /** The caller's own department (the data scope "Dept"). */
  deptId(tx: Tx): Promise<number | null>;
}

/*
 * Audited entities (ServiceContext.audit) whose change alters who may do what. A role, a menu or a
 * department concerns the whole tenant (role grants and data scopes, the super role's "every enabled menu",
 * scope departments); a staff entry concerns the accounts it names (roles held, department, enabled,
 * locked, password, deleted). core/service-context.ts announces them after the commit, so a service that
 * changes one of these records needs no call of its own.
 */
const TENANT_WIDE_ENTITIES = new Set(['role', 'menu', 'dept']);
const ACCOUNT_ENTITIES = new Set(['staff']);

/** The access changes a unit of work's audit entries imply. */
export function accessChangesOf(tenantId: number, entries: readonly AuditEntry[]): AccessChange[] {
  if (entries.some((e) => TENANT_WIDE_ENTITIES.has(e.entity))) return [{ tenantId }];
  const adminIds = entries
    .filter((e) => ACCOUNT_ENTITIES.has(e.entity) && e.entityId !== undefined)
    .flatMap((e) => [e.entityId ?? []].flat())
    .map(Number)
    .filter(Number.isSafeInteger);
  return adminIds.length ? [{ tenantId, adminIds: [...new Set(adminIds)] }] : [];
}

// Version keys in the shared state: one for everything, one per tenant, one per account.
const GLOBAL_KEY = 'access:v:all';
const tenantKey = (tenantId: number) => `access:v:t:${tenantId}`;
const accountKey = (tenantId: number, adminId: number) => `access:v:a:${tenantId}:${adminId}`;
const touchKey = (tenantId: number, sessionId: string) => `${tenantId}:${sessionId}`;
// A version that has run out is started afresh under a new random value, which no cached entry carries.
const VERSION_TTL_SECONDS = 30 * 24 * 3600;
/** A cached entry is checked against the database at least this often whatever its versions say (see decisions.md). */
export const MAX_AGE_MS = 60_000;
/** last_seen_at moves at most once a minute per session: idle expiry is counted in minutes. */
export const TOUCH_INTERVAL_MS = 60_000;
/** Touches are written in one statement this often (and when the app closes). */
const FLUSH_INTERVAL_MS = 5_000;
const MAX_ENTRIES = 50_000;

interface SessionEntry {
  sessionId: string;
  tenantId: number;
  adminId: number;
  expiresAt: number;
  /** The latest use known here: the database's value when checked, moved by this process's touches. */
  lastSeenAt: number;
  /** The versions read before the check; undefined: checked before its versions were known (not trusted again). */
  stamp: string | undefined;
  checkedAt: number;
}

interface AccountEntry {
  stamp: string;
  checkedAt: number;
  permissions?: Permissions;
  deptId?: number | null;
}

/**
 * Resolves bearer tokens to callers and keeps, per token, the session checks and, per account, the roles,
 * permissions and department, so that a signed-in request pays no query before its own.
 *
 * Correctness comes from version stamps, not from messages: every request reads three versions (all,
 * its tenant, its account) from the shared state in one round trip — Redis when REDIS_URL is set, so all
 * processes see the same — and uses a cached entry only when it was loaded under exactly those versions.
 * A change announces itself after its commit by giving the versions it concerns a new random value, so
 * the next request on any process reloads from the database. Versions are read before the rows they
 * stamp, so a change that commits in between leaves a stale stamp, never stale rows under a new one.
 * When the shared state cannot be read nothing cached is used (and this process's cache is dropped).
 */
export class AccessCache implements AccessInvalidator {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly accounts = new Map<string, AccountEntry>();
  /** `<tenant>:<session id>` → latest use not yet written. */
  private readonly touches = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly shared: SharedState,
    private readonly log: FastifyBaseLogger,
  ) {
    // Redis came back after an outage: a change announced meanwhile may not have reached it.
    shared.onResync(() => this.clear());
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Turns a bearer token into the caller, or refuses it (40100) as the database would. */
  async resolve(token: string): Promise<AuthContext> {
    const key = tokenKey(token);
    const tokenHash = key.hash;
    const now = Date.now();
    let entry = this.sessions.get(tokenHash);
    let stamp: string | undefined;
    if (entry) {
      stamp = await this.stamp(entry.tenantId, entry.adminId);
      const trusted = stamp !== undefined && entry.stamp === stamp && now - entry.checkedAt <= MAX_AGE_MS;
      const live = entry.expiresAt > now && entry.lastSeenAt + this.config.session.idleMinutes * 60_000 > now;
      if (!trusted || !live) entry = await this.check(key, stamp, now);
    } else {
      // First sight of this token here: the check tells whose it is, then the versions are read for the
      // permissions loaded after them; the session entry itself is trusted from its next check on.
      entry = await this.check(key, undefined, now);
      stamp = await this.stamp(entry.tenantId, entry.adminId);
    }
    if (now - entry.lastSeenAt > TOUCH_INTERVAL_MS) {
      entry.lastSeenAt = now;
      this.touches.set(touchKey(entry.tenantId, entry.sessionId), now);
    }
    return { tenantId: entry.tenantId, adminId: entry.adminId, sessionId: entry.sessionId, access: this.callerAccess(entry.tenantId, entry.adminId, stamp) };
  }

  /**
   * Announces changes that committed: their versions get new values, so every process reloads what they
   * concern on its next request. Tried three times; if the shared state cannot take them, the error is
   * logged and this process drops its cache (other processes fall back on MAX_AGE_MS).
   */
  async changed(changes: AccessChange[]): Promise<void> {
    const keys = new Set<string>();
    for (const change of changes) {
      if (change.adminIds) for (const adminId of change.adminIds) keys.add(accountKey(change.tenantId, adminId));
      else keys.add(tenantKey(change.tenantId));
    }
    await this.bump([...keys]);
  }

  /** Everything may have changed (the menu template was synchronised at start): every process reloads. */
  everythingChanged(): Promise<void> {
    return this.bump([GLOBAL_KEY]);
  }

  /** Writes the pending touches (last_seen_at) in one statement per 500 sessions. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = [...this.touches];
      this.touches.clear();
      for (let i = 0; i < batch.length; i += 500) {
        const part = batch.slice(i, i + 500);
        const rows = sql.join(
          part.map(([key, at]) => {
            const [tenantId, id] = key.split(':');
            return sql`(${Number(tenantId)}::bigint, ${id}::uuid, ${new Date(at).toISOString()}::timestamptz)`;
          }),
          sql`, `,
        );
        try {
          await this.database.db.execute(sql`
            update ${session} set last_seen_at = seen.at
              from (values ${rows}) as seen(tenant_id, id, at)
             where ${session.tenantId} = seen.tenant_id and ${session.id} = seen.id and ${session.lastSeenAt} < seen.at`);
        } catch (error) {
          this.log.warn({ err: error }, 'access cache: writing session touches failed; kept for the next flush');
          for (const [id, at] of part) if ((this.touches.get(id) ?? 0) < at) this.touches.set(id, at);
        }
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is pending (the app's onClose, before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.clear();
  }

  private clear() {
    this.sessions.clear();
    this.accounts.clear();
  }

  private async bump(keys: string[]): Promise<void> {
    if (!keys.length) return;
    let failure: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await Promise.all(keys.map((key) => this.shared.set(key, randomUUID(), VERSION_TTL_SECONDS)));
        return;
      } catch (error) {
        failure = error;
      }
    }
    this.clear();
    this.log.error({ err: failure, keys }, 'access cache: a change could not be announced; other processes see it within MAX_AGE_MS');
  }

  /** The three versions that stamp a cached entry, in one round trip; undefined when they cannot be read. */
  private async stamp(tenantId: number, adminId: number): Promise<string | undefined> {
    const keys = [GLOBAL_KEY, tenantKey(tenantId), accountKey(tenantId, adminId)];
    try {
      const values = await this.shared.getMany(keys);
      for (const [i, value] of values.entries()) {
        if (value !== undefined) continue;
        // Never set, expired or lost: start it under a fresh value (another process may win the race).
        const fresh = randomUUID();
        values[i] = (await this.shared.setIfAbsent(keys[i], fresh, VERSION_TTL_SECONDS)) ? fresh : await this.shared.get(keys[i]);
        if (values[i] === undefined) return undefined;
      }
      return values.join('|');
    } catch (error) {
      this.clear();
      this.log.warn({ err: error }, 'access cache: versions unreadable; answering from the database');
      return undefined;
    }
  }

  /**
   * The database's word on a session: not revoked, not idle past the limit, not past its absolute expiry,
   * its tenant enabled and its account neither disabled nor locked. A refused token leaves the cache.
   */
  private async check(key: TokenKey, stamp: string | undefined, now: number): Promise<SessionEntry> {
    const tokenHash = key.hash;
    if (key.tenantId === null) throw unauthorized();
    const [row] = await this.database.db
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
      // A token without its tenant (issued before tokens carried it) is found by its hash alone, across
      // tenants, until such tokens have expired (docs/operations.md, "Distributing by tenant").
      .where(key.tenantId === undefined ? eq(session.tokenHash, tokenHash) : and(eq(session.tenantId, key.tenantId), eq(session.tokenHash, tokenHash)))
      .limit(1);
    this.sessions.delete(tokenHash);
    if (!row) throw unauthorized();
    // Before the revocation: disabling a tenant also revokes its sessions, and their holders are told why.
    if (!row.tenantEnabled || row.tenantLogoff) throw new BizError('TenantIsDisabled', { status: 40100 });
    if (row.revokedAt) throw unauthorized();
    // A use this process has not written yet counts as much as a written one.
    const lastSeenAt = Math.max(row.lastSeenAt.getTime(), this.touches.get(touchKey(row.tenantId, row.id)) ?? 0);
    if (row.expiresAt.getTime() <= now || lastSeenAt + this.config.session.idleMinutes * 60_000 <= now) throw unauthorized('SessionExpired');
    if (!row.adminEnabled || row.adminLocked) throw new BizError('AdminIsLock', { status: 40100 });
    const entry: SessionEntry = { sessionId: row.id, tenantId: row.tenantId, adminId: row.adminId, expiresAt: row.expiresAt.getTime(), lastSeenAt, stamp, checkedAt: now };
    remember(this.sessions, tokenHash, entry);
    return entry;
  }

  /** The caller's roles, permissions and department: from the account's entry when its stamp matches. */
  private callerAccess(tenantId: number, adminId: number, stamp: string | undefined): CallerAccess {
    const key = `${tenantId}:${adminId}`;
    // Within one request each is read once even when nothing may be cached (no stamp).
    let permissions: Promise<Permissions> | undefined;
    let deptId: Promise<number | null> | undefined;
    const cached = (): AccountEntry | undefined => {
      const entry = this.accounts.get(key);
      const now = Date.now();
      // A module that expires closes its menus and routes at that instant, not at the next change.
      const fresh = now - (entry?.checkedAt ?? 0) <= MAX_AGE_MS && (entry?.permissions?.validUntil ?? Infinity) > now;
      return stamp !== undefined && entry?.stamp === stamp && fresh ? entry : undefined;
    };
    const keep = (fill: (entry: AccountEntry) => void) => {
      if (stamp === undefined) return;
      let entry = cached();
      if (!entry) {
        entry = { stamp, checkedAt: Date.now() };
        remember(this.accounts, key, entry);
      }
      fill(entry);
    };
    return {
      permissions: (tx) => {
        const hit = cached()?.permissions;
        if (hit) return Promise.resolve(hit);
        const opts = { platformTenantId: this.config.platform.tenantId };
        permissions ??= (tx ? loadPermissions(tx, tenantId, adminId, opts) : this.database.withTenant(tenantId, (own) => loadPermissions(own, tenantId, adminId, opts))).then(
          (loaded) => {
            keep((entry) => (entry.permissions = loaded));
            return loaded;
          },
        );
        return permissions;
      },
      deptId: (tx) => {
        const hit = cached();
        if (hit && hit.deptId !== undefined) return Promise.resolve(hit.deptId);
        deptId ??= loadDeptId(tx, tenantId, adminId).then((loaded) => {
          keep((entry) => (entry.deptId = loaded));
          return loaded;
        });
        return deptId;
      },
    };
  }
}

/** Adds an entry, dropping the oldest ones past MAX_ENTRIES (a Map iterates in insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size <= MAX_ENTRIES) return;
  for (const oldest of map.keys()) {
    if (map.size <= MAX_ENTRIES * 0.9) break;
    map.delete(oldest);
  }
}
