import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { and } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';
import { admin } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';
import type { CallerRoles } from './permissions.ts';

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

export interface ScopedColumns {
  /** The department that owns the row. */
  dept: AnyPgColumn;
  /** The staff member who owns (created / is) the row. */
  owner: AnyPgColumn;
}

export async function dataScopeWhere(tx: Tx, auth: AuthContext, perms: CallerRoles, columns: ScopedColumns): Promise<SQL | undefined> {
  if (perms.isSuper || perms.roles.some((r) => r.dataScope === 'All')) return undefined;
  const parts: SQL[] = [];
  const custom = [...new Set(perms.roles.filter((r) => r.dataScope === 'Custom').flatMap((r) => r.scopeDeptIds))];
  if (custom.length) parts.push(inArray(columns.dept, custom));
  if (perms.roles.some((r) => r.dataScope === 'Dept')) {
    // Cached per token and version when the request came through the sign-in check (core/access-cache.ts).
    const deptId = auth.access ? await auth.access.deptId(tx) : await loadDeptId(tx, auth.tenantId, auth.adminId);
    if (deptId != null) parts.push(eq(columns.dept, deptId));
  }
  // Every role sees at least its own rows (Self is the floor of every scope).
  parts.push(eq(columns.owner, auth.adminId));
  return parts.length === 1 ? parts[0] : (or(...parts) ?? sql`false`);
}

/** The account's own department (the scope "Dept"). */
export async function loadDeptId(tx: Tx, tenantId: number, adminId: number): Promise<number | null> {
  const [me] = await tx.select({ deptId: admin.deptId }).from(admin).where(and(eq(admin.tenantId, tenantId), eq(admin.id, adminId)));
  return me?.deptId ?? null;
}
