import { and, asc, eq, inArray, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Dept, DeptCreate, DeptNode, DeptUpdate } from '@p8/contract/system';
import type { Tx } from '../../db/connection.ts';
import { admin, department, role } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { BizError } from '../../core/errors.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { sentFields } from './common.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';
import { iso } from '../../core/envelope.ts';

const parent = alias(department, 'parent');
const leader = alias(admin, 'leader');

const deptSelection = {
  id: department.id,
  parentId: department.parentId,
  parentName: parent.name,
  name: department.name,
  leaderId: department.leaderId,
  leaderName: sql<string | null>`coalesce(nullif(${leader.realName}, ''), ${leader.name})`,
  phone: department.phone,
  email: department.email,
  sort: department.sort,
  remark: department.remark,
  enabled: department.enabled,
  isDefault: department.isDefault,
  createdAt: department.createdAt,
  updatedAt: department.updatedAt,
};

type DeptRecord = Awaited<ReturnType<typeof selectDepts>>[number];

const toDept = (r: DeptRecord): Dept => ({
  id: r.id,
  parentId: r.parentId,
  parentName: r.parentName,
  name: r.name,
  leaderId: r.leaderId,
  leaderName: r.leaderName,
  phone: r.phone ?? '',
  email: r.email ?? '',
  sort: r.sort,
  remark: r.remark ?? '',
  enabled: r.enabled,
  isDefault: r.isDefault,
  createdAt: iso(r.createdAt)!,
  updatedAt: iso(r.updatedAt)!,
});

/** Departments with their parent's and leader's names (both joins on the tenant-led primary keys). */
function selectDepts(tx: Tx) {
  return tx
    .select(deptSelection)
    .from(department)
    .leftJoin(parent, and(eq(parent.tenantId, department.tenantId), eq(parent.id, department.parentId)))
    .leftJoin(leader, and(eq(leader.tenantId, department.tenantId), eq(leader.id, department.leaderId)))
    .$dynamic();
}

const deptList: ListSpec = {
  fields: {
    id: { column: department.id, sortable: true, notIn: true },
    name: { column: department.name, filter: 'like', sortable: true },
    parentId: { column: department.parentId, filter: 'number' },
    enabled: { column: department.enabled, filter: 'bool' },
    sort: { column: department.sort, sortable: true },
    createdAt: { column: department.createdAt, sortable: true },
  },
  dateColumn: department.createdAt,
  defaultOrder: [asc(department.sort), asc(department.id)],
};

export async function listDepts(ctx: ServiceContext, query: Record<string, unknown>) {
  const { tx, tenantId } = ctx;
  const parsed = parseList(deptList, query, [eq(department.tenantId, tenantId)]);
  const page = await runPage(parsed, selectDepts(tx), tx.select(countAll()).from(department).$dynamic());
  return { ...page, data: page.data.map((r) => toDept(r)) };
}

/** The whole department tree (optionally only enabled departments), for the screen and the pickers. */
export async function deptTree(ctx: ServiceContext, enabled?: boolean): Promise<DeptNode[]> {
  const { tx, tenantId } = ctx;
  const where: SQL[] = [eq(department.tenantId, tenantId)];
  if (enabled !== undefined) where.push(eq(department.enabled, enabled));
  const found = await selectDepts(tx).where(and(...where));
  return buildTree(found.map((r) => toDept(r)));
}

export async function getDept(ctx: ServiceContext, id: number): Promise<Dept> {
  const { tx, tenantId } = ctx;
  const [row] = await selectDepts(tx).where(and(eq(department.tenantId, tenantId), eq(department.id, id)));
  if (!row) throw new BizError('DeptNotExist', { additional: id });
  return toDept(row);
}

/** Department names are unique among siblings (case-insensitive). */
async function assertSiblingNameFree(tx: Tx, tenantId: number, parentId: number | null, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: department.id })
    .from(department)
    .where(
      and(
        eq(department.tenantId, tenantId),
        parentId === null ? isNull(department.parentId) : eq(department.parentId, parentId),
        sql`lower(${department.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(department.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

async function assertDeptExists(tx: Tx, tenantId: number, id: number) {
  const [row] = await tx.select({ id: department.id }).from(department).where(and(eq(department.tenantId, tenantId), eq(department.id, id)));
  if (!row) throw new BizError('DeptNotExist', { additional: id });
}

/** A leader is a staff member of the same tenant. */
async function assertLeaderExists(tx: Tx, tenantId: number, leaderId: number) {
  const [row] = await tx.select({ id: admin.id }).from(admin).where(and(eq(admin.tenantId, tenantId), eq(admin.id, leaderId)));
  if (!row) throw new BizError('AdminNotExist', { additional: leaderId });
}

const storedText = (value: string | undefined) => (value === undefined ? undefined : value || null);

export async function createDept(ctx: ServiceContext, body: DeptCreate): Promise<Dept> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const parentId = body.parentId ?? null;
  if (parentId !== null) await assertDeptExists(tx, tenantId, parentId);
  await assertSiblingNameFree(tx, tenantId, parentId, body.name);
  if (body.leaderId != null) await assertLeaderExists(tx, tenantId, body.leaderId);
  const [row] = await tx
    .insert(department)
    .values({
      tenantId,
      parentId,
      name: body.name,
      leaderId: body.leaderId ?? null,
      phone: body.phone || null,
      email: body.email || null,
      sort: body.sort ?? 0,
      remark: body.remark || null,
    })
    .returning({ id: department.id });
  return getDept(ctx, row.id);
}

export async function updateDept(ctx: ServiceContext, body: DeptUpdate): Promise<Dept> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const current = await getDept(ctx, body.id);
  const parentId = body.parentId === undefined ? current.parentId : body.parentId;
  const name = body.name ?? current.name;
  if (parentId !== current.parentId && parentId !== null) {
    // The new parent may be neither the department itself nor one of its descendants (no cycles).
    if (parentId === body.id || (await subtreeIds(tx, 'department', tenantId, [body.id])).includes(parentId)) {
      throw new BizError('ParentCannotBeSelf', { additional: parentId });
    }
    await assertDeptExists(tx, tenantId, parentId);
  }
  if (parentId !== current.parentId || name.toLowerCase() !== current.name.toLowerCase()) {
    await assertSiblingNameFree(tx, tenantId, parentId, name, body.id);
  }
  if (body.leaderId != null && body.leaderId !== current.leaderId) await assertLeaderExists(tx, tenantId, body.leaderId);
  const sent = sentFields(body);
  await tx
    .update(department)
    .set({
      ...sent,
      phone: storedText(body.phone),
      email: storedText(body.email),
      remark: storedText(body.remark),
      updatedAt: new Date(),
    })
    .where(and(eq(department.tenantId, tenantId), eq(department.id, body.id)));
  return getDept(ctx, body.id);
}

/**
 * Deletes departments: never the default one, one that still has sub-departments (other than those
 * deleted with it), one that still has staff, or one a bill names. Custom data scopes forget the deleted departments.
 */
export async function deleteDepts(ctx: ServiceContext, requested: number[]) {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const found = await tx
    .select({ id: department.id, name: department.name, isDefault: department.isDefault })
    .from(department)
    .where(and(eq(department.tenantId, tenantId), inArray(department.id, ids)));
  assertAllFound(ids, found, 'DeptNotExist');
  const fixed = found.find((d) => d.isDefault);
  if (fixed) throw new BizError('DefaultDeptProhibitDelete', { additional: fixed.name });
  const [child] = await tx
    .select({ parentId: department.parentId })
    .from(department)
    .where(and(eq(department.tenantId, tenantId), inArray(department.parentId, ids), notInArray(department.id, ids)))
    .limit(1);
  if (child) throw new BizError('DeptHasChildrenProhibitDelete', { additional: found.find((d) => d.id === child.parentId)?.name });
  const [member] = await tx
    .select({ deptId: admin.deptId })
    .from(admin)
    .where(and(eq(admin.tenantId, tenantId), inArray(admin.deptId, ids)))
    .limit(1);
  if (member) throw new BizError('DeptInUseProhibitDelete', { additional: found.find((d) => d.id === member.deptId)?.name });
  await ctx.registries.recordUsage.refuseIfInUse(tx, tenantId, 'department', ids);

  await tx.delete(department).where(and(eq(department.tenantId, tenantId), inArray(department.id, ids)));
  const gone = sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::bigint[]`;
  await tx
    .update(role)
    .set({ scopeDeptIds: sql`array(select d from unnest(${role.scopeDeptIds}) d where d <> all(${gone}))` })
    .where(and(eq(role.tenantId, tenantId), sql`${role.scopeDeptIds} && ${gone}`));
}

export async function enableDepts(ctx: ServiceContext, requested: number[], enabled: boolean) {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const found = await tx
    .select({ id: department.id })
    .from(department)
    .where(and(eq(department.tenantId, tenantId), inArray(department.id, ids)));
  assertAllFound(ids, found, 'DeptNotExist');
  await tx
    .update(department)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(department.tenantId, tenantId), inArray(department.id, ids)));
}
