import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import type { DataScope, Role, RoleCopy, RoleCreate, RolePermission, RoleScope, RoleUpdate } from '@p8/contract/system';
import type { Tx } from '../../db/connection.ts';
import { adminRole, department, menu, role, roleMenu } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { assertMayManageRole, assertScopeWithinReach, callerReach, scopeWithinReach, type Reach } from '../../core/account-guard.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { changes } from '../../core/audit.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { assertWithinOwnPermissions, menuWithAncestorIds, sentFields } from './common.ts';
import { iso } from '../../core/envelope.ts';

type RoleRecord = typeof role.$inferSelect;

const toRole = (r: RoleRecord, userCount: number): Role => ({
  id: r.id,
  roleKey: r.roleKey,
  roleName: r.roleName,
  isSuper: r.isSuper,
  isDefault: r.isDefault,
  dataScope: r.dataScope as DataScope,
  deptIds: r.scopeDeptIds,
  sort: r.sort,
  remark: r.remark ?? '',
  enabled: r.enabled,
  userCount,
  createdAt: iso(r.createdAt)!,
  updatedAt: iso(r.updatedAt)!,
});

/** How many staff hold each role: one grouped query for a whole page (admin_role_role_idx). */
async function userCounts(tx: Tx, tenantId: number, roleIds: number[]): Promise<Map<number, number>> {
  if (!roleIds.length) return new Map();
  const counted = await tx
    .select({ roleId: adminRole.roleId, n: count() })
    .from(adminRole)
    .where(and(eq(adminRole.tenantId, tenantId), inArray(adminRole.roleId, roleIds)))
    .groupBy(adminRole.roleId);
  return new Map(counted.map((c) => [c.roleId, Number(c.n)]));
}

const roleList: ListSpec = {
  fields: {
    id: { column: role.id, sortable: true, notIn: true },
    roleKey: { column: role.roleKey, filter: 'like', sortable: true },
    roleName: { column: role.roleName, filter: 'like', sortable: true },
    dataScope: { column: role.dataScope, filter: 'eq' },
    enabled: { column: role.enabled, filter: 'bool' },
    sort: { column: role.sort, sortable: true },
    createdAt: { column: role.createdAt, sortable: true },
  },
  dateColumn: role.createdAt,
  defaultOrder: [asc(role.sort), asc(role.id)],
};

export async function listRoles(ctx: ServiceContext, query: Record<string, unknown>) {
  const { tx, tenantId } = ctx;
  const parsed = parseList(roleList, query, [eq(role.tenantId, tenantId)]);
  const page = await runPage(parsed, tx.select().from(role).$dynamic(), tx.select(countAll()).from(role).$dynamic());
  const counts = await userCounts(tx, tenantId, page.data.map((r) => r.id));
  return { ...page, data: page.data.map((r) => toRole(r, counts.get(r.id) ?? 0)) };
}

async function loadRole(tx: Tx, tenantId: number, id: number): Promise<RoleRecord> {
  const [row] = await tx.select().from(role).where(and(eq(role.tenantId, tenantId), eq(role.id, id)));
  if (!row) throw new BizError('RoleNotExist', { additional: id });
  return row;
}

export async function getRole(ctx: ServiceContext, id: number): Promise<Role> {
  const { tx, tenantId } = ctx;
  const row = await loadRole(tx, tenantId, id);
  return toRole(row, (await userCounts(tx, tenantId, [id])).get(id) ?? 0);
}

async function assertKeyFree(tx: Tx, tenantId: number, roleKey: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.tenantId, tenantId), eq(role.roleKey, roleKey), exceptId === undefined ? undefined : ne(role.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('RoleKeyRepeat', { additional: roleKey });
}

export async function createRole(ctx: ServiceContext, body: RoleCreate): Promise<Role> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  await assertKeyFree(tx, tenantId, body.roleKey);
  // A new role sees all data only when its maker does; else it starts at the narrowest scope (own data),
  // which the maker may widen up to their own (setRoleScope).
  const dataScope = (await callerReach(ctx)).all ? 'All' : 'Self';
  const [row] = await tx
    .insert(role)
    .values({ tenantId, roleKey: body.roleKey, roleName: body.roleName, dataScope, sort: body.sort ?? 0, remark: body.remark || null })
    .returning();
  ctx.audit({ action: 'create', entity: 'role', entityId: row.id, detail: body });
  return toRole(row, 0);
}

export async function updateRole(ctx: ServiceContext, body: RoleUpdate): Promise<Role> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const current = await loadRole(tx, tenantId, body.id);
  await assertMayManageRole(ctx, current, 'update');
  // The super role is what every tenant's first administrator holds and what the product knows it by.
  const renames = (body.roleKey !== undefined && body.roleKey !== current.roleKey) || (body.roleName !== undefined && body.roleName !== current.roleName);
  if (current.isSuper && renames) throw new BizError('SuperRoleProhibitChangeKey', { additional: current.roleKey });
  if (body.roleKey !== undefined && body.roleKey !== current.roleKey) await assertKeyFree(tx, tenantId, body.roleKey, body.id);
  const sent = sentFields(body);
  await tx
    .update(role)
    .set({ ...sent, remark: body.remark === undefined ? undefined : body.remark || null, updatedAt: new Date() })
    .where(and(eq(role.tenantId, tenantId), eq(role.id, body.id)));
  ctx.audit({ action: 'update', entity: 'role', entityId: body.id, detail: changes(current, sent) });
  return getRole(ctx, body.id);
}

/** Deletes roles: never the default (super) role, nor one still held by staff, nor one beyond the caller's reach. */
export async function deleteRoles(ctx: ServiceContext, requested: number[]) {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const found = await tx.select().from(role).where(and(eq(role.tenantId, tenantId), inArray(role.id, ids)));
  assertAllFound(ids, found, 'RoleNotExist');
  let reach: Reach | undefined;
  for (const r of found) reach = await assertMayManageRole(ctx, r, 'delete', reach);
  const fixed = found.find((r) => r.isDefault);
  if (fixed) throw new BizError('DefaultRoleProhibitDelete', { additional: fixed.roleName });
  const [held] = await tx
    .select({ roleId: adminRole.roleId })
    .from(adminRole)
    .where(and(eq(adminRole.tenantId, tenantId), inArray(adminRole.roleId, ids)))
    .limit(1);
  if (held) throw new BizError('RoleInUseProhibitDelete', { additional: found.find((r) => r.id === held.roleId)?.roleName });
  await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.roleId, ids)));
  await tx.delete(role).where(and(eq(role.tenantId, tenantId), inArray(role.id, ids)));
  ctx.audit({ action: 'delete', entity: 'role', entityId: ids, detail: { names: found.map((r) => r.roleName) } });
}

/**
 * The menu ids a role grants. The super role holds every menu implicitly (it has no role_menu rows), so a
 * copy of it receives every menu of the tenant explicitly — an ordinary role that can then be trimmed.
 */
async function grantedMenuIds(tx: Tx, tenantId: number, source: RoleRecord): Promise<number[]> {
  if (source.isSuper) return (await tx.select({ id: menu.id }).from(menu).where(eq(menu.tenantId, tenantId))).map((m) => m.id);
  const granted = await tx
    .select({ menuId: roleMenu.menuId })
    .from(roleMenu)
    .where(and(eq(roleMenu.tenantId, tenantId), eq(roleMenu.roleId, source.id)));
  return granted.map((g) => g.menuId);
}

export async function getRolePermission(ctx: ServiceContext, id: number): Promise<number[]> {
  const { tx, tenantId } = ctx;
  return (await grantedMenuIds(tx, tenantId, await loadRole(tx, tenantId, id))).sort((a, b) => a - b);
}

async function insertCopy(tx: Tx, tenantId: number, source: RoleRecord, roleKey: string, roleName: string) {
  const [copy] = await tx
    .insert(role)
    .values({
      tenantId,
      roleKey,
      roleName,
      dataScope: source.dataScope,
      scopeDeptIds: source.scopeDeptIds,
      sort: source.sort,
      remark: source.remark,
      enabled: source.enabled,
    })
    .returning();
  const menuIds = await grantedMenuIds(tx, tenantId, source);
  if (menuIds.length) await tx.insert(roleMenu).values(menuIds.map((menuId) => ({ tenantId, roleId: copy.id, menuId })));
  return copy;
}

/** A copy keeps its source's data scope: no copy of a role that sees more than the caller. */
async function assertCopyableScope(ctx: ServiceContext, source: RoleRecord) {
  if (!scopeWithinReach(await callerReach(ctx), source.dataScope, source.scopeDeptIds)) throw forbidden('RoleBeyondOwn', source.roleName);
}

/** A new role with the source's data scope and permissions under the given key and name. */
export async function copyRole(ctx: ServiceContext, body: RoleCopy): Promise<Role> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const source = await loadRole(tx, tenantId, body.id);
  await assertWithinOwnPermissions(ctx, await grantedMenuIds(tx, tenantId, source));
  await assertCopyableScope(ctx, source);
  await assertKeyFree(tx, tenantId, body.roleKey);
  const copy = await insertCopy(tx, tenantId, source, body.roleKey, body.roleName);
  ctx.audit({ action: 'copy', entity: 'role', entityId: copy.id, detail: { from: source.id, roleKey: body.roleKey, roleName: body.roleName } });
  return toRole(copy, 0);
}

/** Copies each role as `<name> (copy)` with the first free key among `<key>_copy`, `<key>_copy2`, … */
export async function copyRolesBatch(ctx: ServiceContext, requested: number[]): Promise<Role[]> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const sources = await tx.select().from(role).where(and(eq(role.tenantId, tenantId), inArray(role.id, ids)));
  assertAllFound(ids, sources, 'RoleNotExist');
  // A tenant has tens of roles, not thousands: its keys fit in memory, and new keys join the set as they are made.
  const taken = new Set((await tx.select({ roleKey: role.roleKey }).from(role).where(eq(role.tenantId, tenantId))).map((r) => r.roleKey));
  const copies: Role[] = [];
  for (const source of ids.map((id) => sources.find((s) => s.id === id)!)) {
    await assertWithinOwnPermissions(ctx, await grantedMenuIds(tx, tenantId, source));
    await assertCopyableScope(ctx, source);
    const prefix = `${source.roleKey}_copy`;
    let roleKey = prefix;
    for (let n = 2; taken.has(roleKey); n++) roleKey = `${prefix}${n}`;
    taken.add(roleKey);
    const copy = await insertCopy(tx, tenantId, source, roleKey, `${source.roleName} (copy)`);
    copies.push(toRole(copy, 0));
  }
  ctx.audit({
    action: 'copy',
    entity: 'role',
    entityId: copies.map((c) => c.id),
    detail: { from: ids, roleKeys: copies.map((c) => c.roleKey) },
  });
  return copies;
}

/**
 * Sets a role's data scope; the super role sees everything and cannot be restricted. Not a role the caller
 * holds, not one beyond their reach, and never wider than the caller's own scope (core/account-guard.ts).
 */
export async function setRoleScope(ctx: ServiceContext, body: RoleScope): Promise<Role> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const current = await loadRole(tx, tenantId, body.id);
  const reach = await assertMayManageRole(ctx, current, 'scope');
  if (current.isSuper) throw new BizError('SuperRoleProhibitSetPermission');
  let deptIds: number[] = [];
  if (body.dataScope === 'Custom') {
    deptIds = distinct(body.deptIds);
    if (!deptIds.length) throw new BizError('PleaseSelectDept', { additional: 'deptIds' });
    const found = await tx
      .select({ id: department.id })
      .from(department)
      .where(and(eq(department.tenantId, tenantId), inArray(department.id, deptIds)));
    assertAllFound(deptIds, found, 'DeptNotExist');
  }
  assertScopeWithinReach(reach, body.dataScope, deptIds);
  await tx
    .update(role)
    .set({ dataScope: body.dataScope, scopeDeptIds: deptIds, updatedAt: new Date() })
    .where(and(eq(role.tenantId, tenantId), eq(role.id, body.id)));
  ctx.audit({
    action: 'scope',
    entity: 'role',
    entityId: body.id,
    detail: { from: { dataScope: current.dataScope, deptIds: current.scopeDeptIds }, to: { dataScope: body.dataScope, deptIds } },
  });
  return getRole(ctx, body.id);
}

/**
 * Replaces the menus and buttons a role grants. Granting a button grants the screens above it (else the
 * button would sit on a screen the user cannot open). The super role's permissions cannot be set.
 */
export async function setRolePermission(ctx: ServiceContext, body: RolePermission): Promise<number[]> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const current = await loadRole(tx, tenantId, body.id);
  await assertMayManageRole(ctx, current, 'permission');
  if (current.isSuper) throw new BizError('SuperRoleProhibitSetPermission');
  const requested = distinct(body.menuIds);
  const found = requested.length
    ? await tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, tenantId), inArray(menu.id, requested)))
    : [];
  assertAllFound(requested, found, 'DataNotExist');
  const menuIds = (await menuWithAncestorIds(tx, tenantId, requested)).sort((a, b) => a - b);
  const before = await grantedMenuIds(tx, tenantId, current);
  const had = new Set(before);
  const has = new Set(menuIds);
  await assertWithinOwnPermissions(ctx, [...menuIds.filter((id) => !had.has(id)), ...before.filter((id) => !has.has(id))]);
  await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), eq(roleMenu.roleId, body.id)));
  if (menuIds.length) await tx.insert(roleMenu).values(menuIds.map((menuId) => ({ tenantId, roleId: body.id, menuId })));
  ctx.audit({
    action: 'permission',
    entity: 'role',
    entityId: body.id,
    detail: { added: menuIds.filter((id) => !had.has(id)), removed: before.filter((id) => !has.has(id)).sort((a, b) => a - b) },
  });
  return menuIds;
}
