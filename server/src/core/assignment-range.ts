import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ASSIGN_RANGE_SWITCH, type AssignableRecord, type Assignment } from '@p8/contract/basic';
import { tenantConfigSchema } from '@p8/contract/tenant-config';
import type { Tx } from '../db/connection.ts';
import { admin, adminRole, department, recordAssignment, role, tenant } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';
import { BizError } from './errors.ts';

/**
 * Assignment ranges: a tenant may assign suppliers, customers, materials and warehouses to
 * departments or staff. While the tenant's `applyRange<Record>` switch is on, a user sees only the records
 * assigned to them or to their department; the super role sees everything. While it is off, every record
 * belongs to everyone. This is the one place that rule is written: lists, details, exports and pickers of
 * the basic records use it, and so will the bill screens that pick those records.
 */
export async function assignmentRangeWhere(tx: Tx, auth: AuthContext, recordType: AssignableRecord, idColumn: AnyPgColumn): Promise<SQL | undefined> {
  const caller = await rangeOf(tx, auth, recordType);
  if (!caller) return sql`false`;
  if (!caller.limited) return undefined;
  const mine = caller.deptId == null ? sql`${recordAssignment.adminId} = ${auth.adminId}` : sql`(${recordAssignment.adminId} = ${auth.adminId} or ${recordAssignment.deptId} = ${caller.deptId})`;
  return sql`exists (select 1 from ${recordAssignment} where ${recordAssignment.tenantId} = ${auth.tenantId}
    and ${recordAssignment.recordType} = ${recordType} and ${recordAssignment.recordId} = ${idColumn} and ${mine})`;
}

/** Whether the range limits this caller for this record type (switch on, not the super role), and their department. */
async function rangeOf(tx: Tx, auth: AuthContext, recordType: AssignableRecord): Promise<{ limited: boolean; deptId: number | null } | undefined> {
  const [caller] = await tx
    .select({
      config: tenant.config,
      deptId: admin.deptId,
      isSuper: sql<boolean>`exists (select 1 from ${adminRole} join ${role} on ${role.tenantId} = ${adminRole.tenantId} and ${role.id} = ${adminRole.roleId}
        where ${adminRole.tenantId} = ${auth.tenantId} and ${adminRole.adminId} = ${auth.adminId} and ${role.isSuper} and ${role.enabled})`,
    })
    .from(tenant)
    .innerJoin(admin, and(eq(admin.tenantId, tenant.id), eq(admin.id, auth.adminId)))
    .where(eq(tenant.id, auth.tenantId));
  if (!caller) return undefined;
  const config = tenantConfigSchema.parse(caller.config ?? {});
  return { limited: !!config[ASSIGN_RANGE_SWITCH[recordType]] && !caller.isSuper, deptId: caller.deptId };
}

/**
 * A record created by someone the range limits is assigned to them: otherwise it would vanish from their
 * lists the moment they saved it (and the create, which reads the record back, would answer NotExist).
 * Records created by the super role, or while the range is off, stay unassigned until someone assigns them.
 * `recordIds` may be a function, so an import looks its rows up only when they are to be assigned.
 */
export async function assignToCreator(
  tx: Tx,
  auth: AuthContext,
  recordType: AssignableRecord,
  recordIds: number[] | (() => Promise<number[]>),
): Promise<void> {
  if (!(await rangeOf(tx, auth, recordType))?.limited) return;
  const ids = typeof recordIds === 'function' ? await recordIds() : recordIds;
  // 4 parameters a row: stay well under PostgreSQL's 65,535 per statement.
  for (let start = 0; start < ids.length; start += 5000) {
    await tx.insert(recordAssignment).values(ids.slice(start, start + 5000).map((recordId) => ({ tenantId: auth.tenantId, recordType, recordId, adminId: auth.adminId })));
  }
}

/** Replaces the assignment of each record with the given departments and staff (empty lists clear it). */
export async function assignRecords(
  tx: Tx,
  tenantId: number,
  recordType: AssignableRecord,
  recordIds: number[],
  target: Assignment,
): Promise<void> {
  const deptIds = [...new Set(target.deptIds)];
  const adminIds = [...new Set(target.adminIds)];
  if (deptIds.length) {
    const found = await tx.select({ id: department.id }).from(department).where(and(eq(department.tenantId, tenantId), inArray(department.id, deptIds)));
    const missing = deptIds.find((d) => !found.some((f) => f.id === d));
    if (missing !== undefined) throw new BizError('DeptNotExist', { additional: missing });
  }
  if (adminIds.length) {
    const found = await tx.select({ id: admin.id }).from(admin).where(and(eq(admin.tenantId, tenantId), inArray(admin.id, adminIds)));
    const missing = adminIds.find((a) => !found.some((f) => f.id === a));
    if (missing !== undefined) throw new BizError('AdminNotExist', { additional: missing });
  }
  await tx
    .delete(recordAssignment)
    .where(and(eq(recordAssignment.tenantId, tenantId), eq(recordAssignment.recordType, recordType), inArray(recordAssignment.recordId, recordIds)));
  const rows = recordIds.flatMap((recordId) => [
    ...deptIds.map((deptId) => ({ tenantId, recordType, recordId, deptId })),
    ...adminIds.map((adminId) => ({ tenantId, recordType, recordId, adminId })),
  ]);
  // 4 parameters a row: stay well under PostgreSQL's 65,535 per statement.
  for (let start = 0; start < rows.length; start += 5000) await tx.insert(recordAssignment).values(rows.slice(start, start + 5000));
}

/** The departments and staff one record is assigned to. */
export async function assignmentOf(tx: Tx, tenantId: number, recordType: AssignableRecord, recordId: number): Promise<Assignment> {
  const rows = await tx
    .select({ deptId: recordAssignment.deptId, adminId: recordAssignment.adminId })
    .from(recordAssignment)
    .where(and(eq(recordAssignment.tenantId, tenantId), eq(recordAssignment.recordType, recordType), eq(recordAssignment.recordId, recordId)));
  return {
    deptIds: rows.flatMap((r) => (r.deptId == null ? [] : [r.deptId])),
    adminIds: rows.flatMap((r) => (r.adminId == null ? [] : [r.adminId])),
  };
}

/** Drops the assignments of deleted records. */
export async function forgetAssignments(tx: Tx, tenantId: number, recordType: AssignableRecord, recordIds: number[]): Promise<void> {
  if (!recordIds.length) return;
  await tx
    .delete(recordAssignment)
    .where(and(eq(recordAssignment.tenantId, tenantId), eq(recordAssignment.recordType, recordType), inArray(recordAssignment.recordId, recordIds)));
}
