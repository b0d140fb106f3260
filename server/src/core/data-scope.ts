import { eq, inArray, or, SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { and } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';
import { admin } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';
import { callerPermissions, type CallerRoles } from './permissions.ts';
import type { ServiceContext } from './service-context.ts';

/**
 * Data scope of the caller's roles as one WHERE condition, applied by every list and detail of
 * department-owned data (one helper, never re-written per module).
 *   All    — everything;
 *   Custom — rows of the role's chosen departments;
 *   Dept   — rows of the caller's own department;
 *   Self   — rows the caller owns.
 * A caller with several roles sees the union. The super role sees everything.
 */
export const DataScope = ['All', 'Custom', 'Dept', 'Self'] as const;
export type DataScope = (typeof DataScope)[number];

/** A column, or a column of an aliased table in hand-written SQL (`sql\`b.created_by\``). */
type ScopeColumn = AnyPgColumn | SQL;
const asSql = (column: ScopeColumn): SQL => (column instanceof SQL ? column : sql`${column}`);

export interface ScopedColumns {
  /** The department that owns the row. */
  dept: ScopeColumn;
  /** The staff member who owns (created / is) the row. */
  owner: ScopeColumn;
  /** Others who count as owners too (a service order's assignee). */
  alsoOwners?: ScopeColumn[];
}

export async function dataScopeWhere(tx: Tx, auth: AuthContext, perms: CallerRoles, columns: ScopedColumns): Promise<SQL | undefined> {
  if (perms.isSuper || perms.roles.some((r) => r.dataScope === 'All')) return undefined;
  const parts: SQL[] = [];
  const custom = [...new Set(perms.roles.filter((r) => r.dataScope === 'Custom').flatMap((r) => r.scopeDeptIds))];
  if (custom.length) parts.push(inArray(asSql(columns.dept), custom));
  if (perms.roles.some((r) => r.dataScope === 'Dept')) {
    const deptId = await callerDeptId(tx, auth);
    if (deptId != null) parts.push(eq(asSql(columns.dept), deptId));
  }
  // Every role sees at least its own rows (Self is the floor of every scope).
  for (const owner of [columns.owner, ...(columns.alsoOwners ?? [])]) parts.push(eq(asSql(owner), auth.adminId));
  return parts.length === 1 ? parts[0] : (or(...parts) ?? sql`false`);
}

/** The account's own department (the scope "Dept"). */
export async function loadDeptId(tx: Tx, tenantId: number, adminId: number): Promise<number | null> {
  const [me] = await tx.select({ deptId: admin.deptId }).from(admin).where(and(eq(admin.tenantId, tenantId), eq(admin.id, adminId)));
  return me?.deptId ?? null;
}

/**
 * The caller's data scope over department-owned records (bills, mall and service orders, finance
 * documents) as one condition; undefined when the caller sees everything. Every list, count, sum, export,
 * picker and read or write by id of such records adds it, so a row outside the scope is simply not there
 * (a detail by id answers the same refusal as a missing row).
 */
export async function callerScope(ctx: Pick<ServiceContext, 'tx' | 'account'>, columns: ScopedColumns): Promise<SQL | undefined> {
  return dataScopeWhere(ctx.tx, ctx.account, await callerPermissions(ctx.tx, ctx.account), columns);
}

/**
 * The department a record created now belongs to: its creator's department at that moment (kept on the
 * record, so moving the creator later does not move their past records; docs/decisions.md).
 */
export function creatorDeptId(ctx: Pick<ServiceContext, 'tx' | 'account'>): Promise<number | null> {
  return callerDeptId(ctx.tx, ctx.account);
}

/** The caller's department: cached per token and version when the request came through the sign-in check (core/access-cache.ts). */
function callerDeptId(tx: Tx, auth: AuthContext): Promise<number | null> {
  return auth.access ? auth.access.deptId(tx) : loadDeptId(tx, auth.tenantId, auth.adminId);
}
