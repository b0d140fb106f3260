import { and, eq, inArray, or } from 'drizzle-orm';
import type { DataScope } from '@p8/contract/system';
import type { Tx } from '../db/connection.ts';
import { admin, adminRole, menu, role, roleMenu } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';
import { dataScopeWhere, loadDeptId } from './data-scope.ts';
import { forbidden } from './errors.ts';
import { assertAllFound } from './ids.ts';
import { callerPermissions, type Permissions } from './permissions.ts';

/**
 * Who may manage whom. Without the super role a caller reaches only what their own roles give them: the
 * menus and buttons they hold and the data scope they have. An account or a role that would give anyone
 * more than that is out of reach — managing the account (password, phone, roles, enabling, deleting…)
 * would let the caller sign in as someone stronger, and changing the role would let them widen a role they
 * can then hand out. Every service that changes an account calls `assertMayManageAccount`, every service
 * that changes a role `assertMayManageRole`; handing out a role checks `roleBeyondReach`. One rule, so a
 * route added later inherits it by calling the guard, and the walker test in system-reach.test.ts fails
 * for a new account or role route that does not.
 */

interface GuardContext {
  tx: Tx;
  account: AuthContext;
  tenantId: number;
}

/** The caller's own reach: their permissions, and their data scope as the union of their roles' scopes. */
export interface Reach {
  perms: Permissions;
  /** Some role of theirs sees all data (or the super role). */
  all: boolean;
  /** Some role of theirs sees its holder's department. */
  dept: boolean;
  /** The caller's own department (what "Dept" means for them). */
  deptId: number | null;
  /** Departments their Custom roles see. */
  custom: Set<number>;
}

export async function callerReach(ctx: GuardContext): Promise<Reach> {
  const perms = await callerPermissions(ctx.tx, ctx.account);
  const all = perms.isSuper || perms.roles.some((r) => r.dataScope === 'All');
  const dept = perms.roles.some((r) => r.dataScope === 'Dept');
  const deptId = dept && !all ? (ctx.account.access ? await ctx.account.access.deptId(ctx.tx) : await loadDeptId(ctx.tx, ctx.tenantId, ctx.account.adminId)) : null;
  const custom = new Set(perms.roles.filter((r) => r.dataScope === 'Custom').flatMap((r) => r.scopeDeptIds));
  return { perms, all, dept, deptId, custom };
}

/**
 * Whether a data scope stays within the caller's own: All only for a caller who sees all; a Custom list
 * only of departments the caller sees; Dept for a caller who has Dept themselves; Self always.
 */
export function scopeWithinReach(reach: Reach, dataScope: string, deptIds: readonly number[]): boolean {
  if (reach.all || dataScope === 'Self') return true;
  if (dataScope === 'Dept') return reach.dept;
  if (dataScope === 'Custom') return deptIds.every((d) => reach.custom.has(d) || (reach.dept && d === reach.deptId));
  return false;
}

interface RoleRow {
  id: number;
  roleName: string;
  isSuper: boolean;
  dataScope: string;
  scopeDeptIds: number[];
}

/**
 * The first of these roles that gives more than the caller has (the super role; a menu or button the
 * caller lacks; a wider data scope), or undefined when all are within reach. Only enabled menus count:
 * a disabled menu gives nobody anything.
 */
export async function roleBeyondReach(ctx: GuardContext, reach: Reach, roles: readonly RoleRow[]): Promise<RoleRow | undefined> {
  if (reach.perms.isSuper || !roles.length) return undefined;
  const superRole = roles.find((r) => r.isSuper);
  if (superRole) return superRole;
  const wider = roles.find((r) => !scopeWithinReach(reach, r.dataScope, r.scopeDeptIds));
  if (wider) return wider;
  const granted = await ctx.tx
    .selectDistinct({ roleId: roleMenu.roleId, menuId: roleMenu.menuId })
    .from(roleMenu)
    .innerJoin(menu, and(eq(menu.tenantId, roleMenu.tenantId), eq(menu.id, roleMenu.menuId)))
    .where(and(eq(roleMenu.tenantId, ctx.tenantId), inArray(roleMenu.roleId, roles.map((r) => r.id)), eq(menu.enabled, true)));
  const beyond = granted.find((g) => !reach.perms.menuIds.has(g.menuId));
  return beyond && roles.find((r) => r.id === beyond.roleId);
}

const roleColumns = { id: role.id, roleName: role.roleName, isSuper: role.isSuper, dataScope: role.dataScope, scopeDeptIds: role.scopeDeptIds };

/** The roles of these ids, all of which must exist (RoleNotExist). */
export async function loadRolesById(ctx: GuardContext, ids: readonly number[]): Promise<RoleRow[]> {
  if (!ids.length) return [];
  const found = await ctx.tx.select(roleColumns).from(role).where(and(eq(role.tenantId, ctx.tenantId), inArray(role.id, [...ids])));
  assertAllFound([...ids], found, 'RoleNotExist');
  return found;
}

/**
 * The accounts a change targets, refused unless the caller may manage every one of them:
 *   - each exists within the caller's data scope (else AdminNotExist, as for an unknown id: you cannot
 *     change whom you cannot see);
 *   - none holds a role beyond the caller's reach (the super role, a code the caller lacks, a wider data
 *     scope): 40300 `AccountBeyondOwn` naming the account. Every role held counts, enabled or not.
 * The caller's own account passes both (it is in scope and its roles are the caller's own).
 */
export async function assertMayManageAccount(ctx: GuardContext, ids: readonly number[]) {
  const reach = await callerReach(ctx);
  const scoped = await dataScopeWhere(ctx.tx, ctx.account, reach.perms, { dept: admin.deptId, owner: admin.createdBy });
  const found = await ctx.tx
    .select({ id: admin.id, name: admin.name, isDefault: admin.isDefault })
    .from(admin)
    .where(and(eq(admin.tenantId, ctx.tenantId), inArray(admin.id, [...ids]), scoped && or(scoped, eq(admin.id, ctx.account.adminId))));
  assertAllFound([...ids], found, 'AdminNotExist');
  if (reach.perms.isSuper) return found;
  const held = await ctx.tx
    .select({ adminId: adminRole.adminId, ...roleColumns })
    .from(adminRole)
    .innerJoin(role, and(eq(role.tenantId, adminRole.tenantId), eq(role.id, adminRole.roleId)))
    .where(and(eq(adminRole.tenantId, ctx.tenantId), inArray(adminRole.adminId, [...ids])));
  const roles = [...new Map(held.map((h) => [h.id, h])).values()];
  const beyond = await roleBeyondReach(ctx, reach, roles);
  if (beyond) {
    const holder = held.find((h) => h.id === beyond.id)!;
    throw forbidden('AccountBeyondOwn', found.find((f) => f.id === holder.adminId)?.name);
  }
  return found;
}

/** What a role change does: the scope route also refuses a role the caller holds (no one widens their own reach). */
export type RoleChange = 'update' | 'scope' | 'permission' | 'delete';

/**
 * Refuses a change of a role the caller may not manage: one beyond their reach (40300 `RoleBeyondOwn`),
 * and for its data scope also one the caller holds (40300 `OwnRoleScopeProhibitChange`) — else a role
 * manager would set their own role to All and see every department. The super role holder passes.
 */
export async function assertMayManageRole(ctx: GuardContext, target: RoleRow, change: RoleChange, reach?: Reach) {
  const mine = reach ?? (await callerReach(ctx));
  if (mine.perms.isSuper) return mine;
  if (change === 'scope' && mine.perms.roles.some((r) => r.id === target.id)) throw forbidden('OwnRoleScopeProhibitChange', target.roleName);
  if (await roleBeyondReach(ctx, mine, [target])) throw forbidden('RoleBeyondOwn', target.roleName);
  return mine;
}

/** A data scope the caller sets on a role stays within their own (40300 `DataScopeBeyondOwn`). */
export function assertScopeWithinReach(reach: Reach, dataScope: DataScope, deptIds: readonly number[]) {
  if (!scopeWithinReach(reach, dataScope, deptIds)) throw forbidden('DataScopeBeyondOwn', dataScope);
}
