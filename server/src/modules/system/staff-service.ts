import { and, asc, desc, eq, exists, ilike, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Staff, StaffCreate, StaffUpdate } from '@p8/contract/system';
import { statementRows, type Tx } from '../../db/connection.ts';
import { admin, adminRole, department, role, roleMenu } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import type { RequestCaller } from '../../core/route.ts';
import { revokeAllSessions, type AuthContext } from '../../core/auth.ts';
import { dataScopeWhere } from '../../core/data-scope.ts';
import { BizError, forbidden } from '../../core/errors.ts';
import { countAll, fixedSelect, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { callerPermissions, type CallerRoles } from '../../core/permissions.ts';
import { changes } from '../../core/audit.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { assertMayManageAccount, callerReach, loadRolesById, roleBeyondReach } from '../../core/account-guard.ts';
import { assertWithinOwnPermissions, sentFields } from './common.ts';
import { subtreeIds } from '../../core/tree.ts';
import { iso } from '../../core/envelope.ts';

/** Signs accounts out everywhere (reset password, disable, lock, delete): sessions live on the owner connection. */
export async function revokeSessionsOf(caller: RequestCaller, adminIds: number[]) {
  if (!adminIds.length) return;
  await caller.database.withSystem(async (tx) => {
    for (const adminId of adminIds) await revokeAllSessions(tx, caller.access, caller.tenantId, adminId);
  });
}

interface Scope {
  perms: CallerRoles;
  /** The caller's data scope over staff rows (department = dept_id, owner = created_by), plus the caller's own row. */
  where: SQL | undefined;
}

async function staffScope(tx: Tx, auth: AuthContext): Promise<Scope> {
  const perms = await callerPermissions(tx, auth);
  const scoped = await dataScopeWhere(tx, auth, perms, { dept: admin.deptId, owner: admin.createdBy });
  return { perms, where: scoped && or(scoped, eq(admin.id, auth.adminId)) };
}

const staffSelection = {
  id: admin.id,
  name: admin.name,
  realName: admin.realName,
  nickName: admin.nickName,
  sex: admin.sex,
  avatar: admin.avatar,
  phone: admin.phone,
  email: admin.email,
  deptId: admin.deptId,
  deptName: department.name,
  enabled: admin.enabled,
  isLock: admin.isLock,
  isDefault: admin.isDefault,
  newOrderNotify: admin.newOrderNotify,
  smsNotify: admin.smsNotify,
  remark: admin.remark,
  lastLoginAt: admin.lastLoginAt,
  createdBy: admin.createdBy,
  createdAt: admin.createdAt,
  updatedAt: admin.updatedAt,
};

/** Staff rows with their department's name; never the password hash (not selected at all). */
function selectStaff(tx: Tx) {
  return tx
    .select(staffSelection)
    .from(admin)
    .leftJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)))
    .$dynamic();
}
type StaffRecord = Awaited<ReturnType<typeof selectStaff>>[number];
type RoleBrief = Staff['roles'][number];

/*
 * The list's own queries, their select lists rendered once (core/list-query.ts `fixedSelect`): the staff
 * list is the one the issue measures against a bare query at 100,000 rows.
 */
const listRows = fixedSelect<StaffRecord>(staffSelection, 'admin left join department on department.tenant_id = admin.tenant_id and department.id = admin.dept_id');
const listCount = fixedSelect<{ total: number }>(countAll(), 'admin');

/** The roles of a whole page of staff in one query (no query per row), written out: it runs on every page. */
async function rolesOf(tx: Tx, tenantId: number, adminIds: number[]): Promise<Map<number, RoleBrief[]>> {
  const byAdmin = new Map<number, RoleBrief[]>();
  if (!adminIds.length) return byAdmin;
  const held = await statementRows<{ admin_id: string | number; id: string | number; role_key: string; role_name: string }>(
    tx,
    `select ar.admin_id, r.id, r.role_key, r.role_name
       from admin_role ar join role r on r.tenant_id = ar.tenant_id and r.id = ar.role_id
      where ar.tenant_id = $1 and ar.admin_id = any($2::bigint[])
      order by r.sort, r.id`,
    [tenantId, adminIds],
  );
  for (const r of held) {
    const adminId = Number(r.admin_id);
    const list = byAdmin.get(adminId) ?? [];
    list.push({ id: Number(r.id), roleKey: r.role_key, roleName: r.role_name });
    byAdmin.set(adminId, list);
  }
  return byAdmin;
}

const toStaff = (r: StaffRecord, roles: RoleBrief[]): Staff => ({
  id: r.id,
  name: r.name,
  realName: r.realName,
  nickName: r.nickName,
  sex: r.sex,
  avatar: r.avatar ?? '',
  phone: r.phone ?? '',
  email: r.email ?? '',
  deptId: r.deptId,
  deptName: r.deptName,
  roleIds: roles.map((x) => x.id),
  roles,
  enabled: r.enabled,
  isLock: r.isLock,
  isDefault: r.isDefault,
  newOrderNotify: r.newOrderNotify,
  smsNotify: r.smsNotify,
  remark: r.remark ?? '',
  lastLoginAt: iso(r.lastLoginAt),
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt)!,
  updatedAt: iso(r.updatedAt)!,
});

const staffList: ListSpec = {
  fields: {
    id: { column: admin.id, sortable: true, notIn: true },
    name: { column: admin.name, filter: 'contains', sortable: true },
    realName: { column: admin.realName, filter: 'contains', sortable: true },
    phone: { column: admin.phone, filter: 'contains', sortable: true },
    enabled: { column: admin.enabled, filter: 'bool' },
    isLock: { column: admin.isLock, filter: 'bool' },
    createdAt: { column: admin.createdAt, sortable: true },
    lastLoginAt: { column: admin.lastLoginAt, sortable: true },
  },
  dateColumn: admin.createdAt,
  // Newest first along the (tenant_id, id) primary key.
  defaultOrder: [desc(admin.id)],
  // A tenant may hold 100,000 staff: sort indexes, trigram filters, counted table (migration 0004).
  table: admin,
};

function idsParam(value: unknown, field: string): number[] | undefined {
  if (value === undefined || value === '') return undefined;
  const list = (Array.isArray(value) ? value.join(',') : String(value)).split(',').filter(Boolean).map(Number);
  if (list.some((n) => !Number.isSafeInteger(n) || n <= 0)) throw new BizError('BadRequest', { additional: field });
  return list;
}

/**
 * A page of staff the caller may see. Beyond the declared fields: `deptId` (comma list; `includeChild=1`
 * adds their sub-departments) and `roleId` (staff holding that role).
 */
export async function listStaff(ctx: ServiceContext, query: Record<string, unknown>) {
  const { tx, account: auth } = ctx;
  const { where: scope } = await staffScope(tx, auth);
  const extra: Array<SQL | undefined> = [eq(admin.tenantId, auth.tenantId), scope];
  const deptIds = idsParam(query.deptId, 'deptId');
  if (deptIds) {
    const includeChild = query.includeChild === '1' || query.includeChild === 'true';
    extra.push(inArray(admin.deptId, includeChild ? await subtreeIds(tx, 'department', auth.tenantId, deptIds) : deptIds));
  }
  const roleIds = idsParam(query.roleId, 'roleId');
  if (roleIds) {
    extra.push(
      exists(
        tx
          .select({ one: sql`1` })
          .from(adminRole)
          .where(and(eq(adminRole.tenantId, admin.tenantId), eq(adminRole.adminId, admin.id), inArray(adminRole.roleId, roleIds))),
      ),
    );
  }
  const parsed = parseList(staffList, query, extra);
  const page = await runPage(parsed, listRows(tx), listCount(tx), { tx, tenantId: auth.tenantId });
  const roles = await rolesOf(tx, auth.tenantId, page.data.map((r) => r.id));
  return { ...page, data: page.data.map((r) => toStaff(r, roles.get(r.id) ?? [])) };
}

async function readStaff(tx: Tx, auth: AuthContext, id: number, scope: SQL | undefined): Promise<Staff> {
  const [row] = await selectStaff(tx).where(and(eq(admin.tenantId, auth.tenantId), eq(admin.id, id), scope));
  if (!row) throw new BizError('AdminNotExist', { additional: id });
  return toStaff(row, (await rolesOf(tx, auth.tenantId, [id])).get(id) ?? []);
}

/** One staff member, if within the caller's data scope (else AdminNotExist, as for an unknown id). */
export async function getStaff(ctx: ServiceContext, id: number): Promise<Staff> {
  const { tx, account: auth } = ctx;
  return readStaff(tx, auth, id, (await staffScope(tx, auth)).where);
}

async function assertDeptExists(tx: Tx, tenantId: number, deptId: number) {
  const [row] = await tx.select({ id: department.id }).from(department).where(and(eq(department.tenantId, tenantId), eq(department.id, deptId)));
  if (!row) throw new BizError('DeptNotExist', { additional: deptId });
}

/**
 * Roles to assign exist in the tenant; only a super administrator may hand out the super role, and a role
 * newly given to an account (not one it keeps) may grant only what the caller holds (assertWithinOwnPermissions).
 */
async function assertAssignableRoles(ctx: ServiceContext, perms: CallerRoles, roleIds: number[], kept: readonly number[] = []) {
  const { tx, tenantId } = ctx;
  const found = await tx
    .select({ id: role.id, roleKey: role.roleKey, isSuper: role.isSuper })
    .from(role)
    .where(and(eq(role.tenantId, tenantId), inArray(role.id, roleIds)));
  assertAllFound(roleIds, found, 'RoleNotExist');
  const superRole = found.find((r) => r.isSuper);
  if (superRole && !perms.isSuper) throw forbidden('Forbidden', superRole.roleKey);
  const added = roleIds.filter((id) => !kept.includes(id));
  if (perms.isSuper || !added.length) return;
  const granted = await tx.select({ menuId: roleMenu.menuId }).from(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.roleId, added)));
  await assertWithinOwnPermissions(ctx, granted.map((g) => g.menuId));
  // Nor a role that sees more data than the caller does (core/account-guard.ts).
  const wider = await roleBeyondReach(ctx, await callerReach(ctx), await loadRolesById(ctx, added));
  if (wider) throw forbidden('RoleBeyondOwn', wider.roleName);
}

/** `passwordHash`: hashed before the transaction opens (argon2 takes tens of milliseconds). */
export async function createStaff(ctx: ServiceContext, body: StaffCreate, passwordHash: string): Promise<Staff> {
  const { tx } = ctx;
  const auth = ctx.account;
  const scope = await staffScope(tx, auth);
  const roleIds = distinct(body.roleIds);
  await assertDeptExists(tx, auth.tenantId, body.deptId);
  await assertAssignableRoles(ctx, scope.perms, roleIds);
  const [row] = await tx
    .insert(admin)
    .values({
      tenantId: auth.tenantId,
      name: body.name,
      passwordHash,
      realName: body.realName,
      nickName: body.nickName || body.realName,
      sex: body.sex ?? 0,
      avatar: body.avatar || null,
      phone: body.phone || null,
      email: body.email || null,
      deptId: body.deptId,
      remark: body.remark || null,
      createdBy: auth.adminId,
    })
    .returning({ id: admin.id });
  await tx.insert(adminRole).values(roleIds.map((roleId) => ({ tenantId: auth.tenantId, adminId: row.id, roleId })));
  const { password: _password, ...detail } = body;
  ctx.audit({ action: 'create', entity: 'staff', entityId: row.id, detail });
  return readStaff(tx, auth, row.id, undefined);
}

export async function updateStaff(ctx: ServiceContext, body: StaffUpdate): Promise<Staff> {
  const { tx } = ctx;
  const auth = ctx.account;
  const scope = await staffScope(tx, auth);
  await assertMayManageAccount(ctx, [body.id]);
  const current = await readStaff(tx, auth, body.id, undefined);
  if (body.deptId !== undefined && body.deptId !== current.deptId) await assertDeptExists(tx, auth.tenantId, body.deptId);
  const { roleIds: requestedRoles, ...fields } = sentFields(body);
  const roleIds = requestedRoles && distinct(requestedRoles);
  if (roleIds) await assertAssignableRoles(ctx, scope.perms, roleIds, current.roleIds);
  const blankToNull = (value: string | undefined) => (value === undefined ? undefined : value || null);
  await tx
    .update(admin)
    .set({
      ...fields,
      avatar: blankToNull(body.avatar),
      phone: blankToNull(body.phone),
      email: blankToNull(body.email),
      remark: blankToNull(body.remark),
      updatedAt: new Date(),
    })
    .where(and(eq(admin.tenantId, auth.tenantId), eq(admin.id, body.id)));
  if (roleIds) {
    await tx.delete(adminRole).where(and(eq(adminRole.tenantId, auth.tenantId), eq(adminRole.adminId, body.id)));
    await tx.insert(adminRole).values(roleIds.map((roleId) => ({ tenantId: auth.tenantId, adminId: body.id, roleId })));
  }
  const detail = changes({ ...current, roleIds: [...current.roleIds].sort((a, b) => a - b) }, { ...fields, ...(roleIds ? { roleIds: [...roleIds].sort((a, b) => a - b) } : {}) });
  ctx.audit({ action: 'update', entity: 'staff', entityId: body.id, detail });
  return readStaff(tx, auth, body.id, undefined);
}

/** Deletes accounts: never yourself, never the default administrator. Returns the ids to sign out. */
export async function deleteStaff(ctx: ServiceContext, requested: number[]): Promise<number[]> {
  const { tx } = ctx;
  const auth = ctx.account;
  const ids = distinct(requested);
  if (ids.includes(auth.adminId)) throw new BizError('CannotDeleteSelf');
  const targets = await assertMayManageAccount(ctx, ids);
  const fixed = targets.find((t) => t.isDefault);
  if (fixed) throw new BizError('DefaultAdminProhibitDelete', { additional: fixed.name });
  // Staff that bills name (created, handled, audited) are disabled instead: the bills keep who did what.
  await ctx.registries.recordUsage.refuseIfInUse(tx, auth.tenantId, 'staff', ids);
  await tx.delete(adminRole).where(and(eq(adminRole.tenantId, auth.tenantId), inArray(adminRole.adminId, ids)));
  await tx.delete(admin).where(and(eq(admin.tenantId, auth.tenantId), inArray(admin.id, ids)));
  // A department led by a deleted account has no leader any more.
  await tx
    .update(department)
    .set({ leaderId: null, updatedAt: new Date() })
    .where(and(eq(department.tenantId, auth.tenantId), inArray(department.leaderId, ids)));
  ctx.audit({ action: 'delete', entity: 'staff', entityId: ids, detail: { names: targets.map((t) => t.name) } });
  return ids;
}

/**
 * Enables / disables (`enabled`) or locks / unlocks (`isLock`) accounts. Neither yourself nor the default
 * administrator can be disabled or locked. Returns the ids to sign out (those disabled or locked).
 */
export async function setStaffState(ctx: ServiceContext, requested: number[], state: { enabled: boolean } | { locked: boolean }): Promise<number[]> {
  const { tx } = ctx;
  const auth = ctx.account;
  const ids = distinct(requested);
  const shuttingOut = 'enabled' in state ? !state.enabled : state.locked;
  if (shuttingOut && ids.includes(auth.adminId)) throw new BizError('CannotDisableSelf');
  const targets = await assertMayManageAccount(ctx, ids);
  const fixed = targets.find((t) => t.isDefault);
  if (shuttingOut && fixed) throw new BizError('DefaultAdminProhibitDelete', { additional: fixed.name });
  const values =
    'enabled' in state
      ? { enabled: state.enabled }
      : // Unlocking also clears the temporary lock left by failed sign-ins.
        { isLock: state.locked, ...(state.locked ? {} : { failedLogins: 0, lockedUntil: null }) };
  await tx
    .update(admin)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(admin.tenantId, auth.tenantId), inArray(admin.id, ids)));
  const action = 'enabled' in state ? (state.enabled ? 'enable' : 'disable') : state.locked ? 'lock' : 'unlock';
  ctx.audit({ action, entity: 'staff', entityId: ids });
  return shuttingOut ? ids : [];
}

/** New-order and SMS notifications of one account. */
export async function setStaffNotify(ctx: ServiceContext, id: number, field: 'newOrderNotify' | 'smsNotify', enabled: boolean) {
  const { tx } = ctx;
  const auth = ctx.account;
  await assertMayManageAccount(ctx, [id]);
  await tx
    .update(admin)
    .set({ [field]: enabled, updatedAt: new Date() })
    .where(and(eq(admin.tenantId, auth.tenantId), eq(admin.id, id)));
  ctx.audit({ action: 'notify', entity: 'staff', entityId: id, detail: { [field]: enabled } });
}

/**
 * Sets a new password, hashed before the transaction (and clears failed sign-ins); the caller then signs
 * the account out everywhere.
 */
/**
 * Sets a colleague's password. Never the caller's own: that goes through the profile route, which asks
 * for the current password, so that a stolen token cannot become a stolen account.
 */
export async function resetStaffPassword(ctx: ServiceContext, id: number, passwordHash: string) {
  const { tx } = ctx;
  const auth = ctx.account;
  if (id === auth.adminId) throw new BizError('CannotResetOwnPassword');
  await assertMayManageAccount(ctx, [id]);
  await tx
    .update(admin)
    .set({ passwordHash, failedLogins: 0, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(admin.tenantId, auth.tenantId), eq(admin.id, id)));
  ctx.audit({ action: 'reset-password', entity: 'staff', entityId: id });
}

/**
 * Colleagues to pick as message receivers or reviewers: every enabled staff member of the tenant, with
 * only what a picker shows. Not limited by data scope — a user who may see only their own records
 * must still be able to address a colleague — and therefore exposes nothing beyond name and department.
 */
export async function listStaffOptions(ctx: ServiceContext, query: { keyword?: string; notInId?: string; limit?: number }) {
  const { tx, account: auth } = ctx;
  const conditions = [eq(admin.tenantId, auth.tenantId), eq(admin.enabled, true)];
  const keyword = query.keyword?.trim();
  if (keyword) {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(admin.realName, pattern), ilike(admin.name, pattern))!);
  }
  const excluded = (query.notInId ?? '').split(',').filter(Boolean).map(Number).filter(Number.isSafeInteger);
  if (excluded.length) conditions.push(notInArray(admin.id, excluded));
  return tx
    .select({ id: admin.id, name: admin.name, realName: admin.realName, deptId: admin.deptId, deptName: department.name })
    .from(admin)
    .leftJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)))
    .where(and(...conditions))
    .orderBy(asc(admin.realName), asc(admin.id))
    .limit(Math.min(query.limit ?? 50, 200));
}
