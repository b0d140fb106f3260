import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { and, asc, eq } from 'drizzle-orm';
import { afterCommit, type Database, type Tx } from '../db/connection.ts';
import { adminRole, role } from '../db/schema/index.ts';
import { accessChangesOf, type AccessInvalidator } from './access-cache.ts';
import type { AuthContext } from './auth.ts';
import { writeAudit, type AuditEntry } from './audit.ts';
import { BizError } from './errors.ts';
import { nameRefusal } from './refusals.ts';
import type { Registries } from './registries.ts';

/** The optional clock of a service call: the demo data places orders in the past; routes never pass it. */
export interface At {
  at?: Date;
}

/**
 * Everything a service needs to act for someone, without an HTTP request: the open transaction (RLS set
 * to the tenant), who acts, the installation's configuration and the app's registries. The route helper
 * (core/route.ts) builds one per request; a job, a test or the bill engine pushing one bill down into
 * another builds one with `withServiceContext` — the same services, the same audit trail.
 */
export interface ServiceContext {
  /** The one transaction of this unit of work: every write and its audit entry commit or roll back together. */
  tx: Tx;
  tenantId: number;
  /** Who acts (the signed-in staff account; a background job acts as an account of the tenant too). */
  account: AuthContext;
  config: Config;
  registries: Registries;
  log: FastifyBaseLogger;
  /** Client address for the audit log ('' outside HTTP). */
  ip: string;
  /** Told after the commit when the unit of work changed who may do what (core/access-cache.ts). */
  access: AccessInvalidator;
  /**
   * Records an administrative change. Entries are written in one place, at the end of the unit of work and
   * inside its transaction (see `withServiceContext`), so a service never writes the audit table itself.
   */
  audit(entry: AuditEntry): void;
}

/** The parts of a context that exist before its transaction is opened (a route that works outside it). */
export type Caller = Omit<ServiceContext, 'tx' | 'audit'>;

/** A caller that opens its unit(s) of work itself (work that must not run inside a transaction). */
export interface TransactingCaller extends Caller {
  /** One unit of work in a tenant transaction, audited like any other. */
  transaction<T>(fn: (ctx: ServiceContext) => Promise<T>): Promise<T>;
}

/**
 * Runs `fn` in one tenant transaction with a fresh ServiceContext; the audit entries it recorded are
 * written before the transaction commits (nothing is written when `fn` throws: the whole unit rolls back).
 * Entries that change who may do what (a role, a menu, a department, a staff account) are announced to
 * the access cache after the commit.
 */
export async function withServiceContext<T>(database: Database, caller: Caller, fn: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  return database.withTenant(caller.tenantId, async (tx) => {
    const entries: AuditEntry[] = [];
    const ctx: ServiceContext = { ...caller, tx, audit: (entry) => void entries.push(entry) };
    let result: T;
    try {
      result = await fn(ctx);
    } catch (error) {
      // A refusal about records names them while its transaction can still read them.
      if (error instanceof BizError && error.refs) await nameRefusal(tx, caller.tenantId, error);
      throw error;
    }
    if (entries.length) await writeAudit(tx, caller.account, caller.ip, entries);
    // A changed role, menu, department or staff account reaches every process's access cache once committed.
    const accessChanges = accessChangesOf(caller.tenantId, entries);
    if (accessChanges.length) afterCommit(tx, () => caller.access.changed(accessChanges));
    return result;
  });
}

/**
 * The caller a tenant's periodic work acts as (the unpaid-order sweep, the attendance notices): its first
 * super administrator, so that the audit log names an account of the tenant. Undefined when it has none.
 */
export async function superAdminCaller(deps: Pick<Caller, 'config' | 'registries' | 'log' | 'access'> & { database: Database }, tenantId: number): Promise<Caller | undefined> {
  const adminId = await deps.database.withTenant(tenantId, async (tx) => {
    const [first] = await tx
      .select({ id: adminRole.adminId })
      .from(adminRole)
      .innerJoin(role, and(eq(role.tenantId, adminRole.tenantId), eq(role.id, adminRole.roleId)))
      .where(and(eq(adminRole.tenantId, tenantId), eq(role.isSuper, true)))
      .orderBy(asc(adminRole.adminId))
      .limit(1);
    return first?.id;
  });
  if (adminId === undefined) return undefined;
  return { tenantId, account: { tenantId, adminId, sessionId: '' }, config: deps.config, registries: deps.registries, log: deps.log, ip: '', access: deps.access };
}
