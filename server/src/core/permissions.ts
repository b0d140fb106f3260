import { and, eq, inArray } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { hasPermission, type PermissionCode } from '@p8/contract/permission';
import type { Database, Tx } from '../db/connection.ts';
import { adminRole, menu, role, roleMenu } from '../db/schema/index.ts';
import type { AuthContext } from './auth.ts';
import { forbidden } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Button code(s) the caller must hold: an array = all, 'a|b' = any, a plain string = that code
     * — the same rule the web's <Auth> applies.
     */
    permission?: PermissionCode;
  }
}

/** The caller's enabled roles: enough for data scopes (core/data-scope.ts) and super-role checks. */
export interface CallerRoles {
  isSuper: boolean;
  roles: Array<{ id: number; roleKey: string; roleName: string; isSuper: boolean; dataScope: string; scopeDeptIds: number[] }>;
}

export interface Permissions extends CallerRoles {
  /** Menu ids the caller may open (all enabled menus for the super role). */
  menuIds: Set<number>;
  /** The names of those menus (`mall_order`…): what the home dashboard's sections are shown by. */
  menuNames: Set<string>;
  /** Button codes the caller holds. */
  buttons: Set<string>;
}

/** The caller's roles only — one indexed query; lists that need just the data scope use this. */
export async function loadRoles(tx: Tx, tenantId: number, adminId: number): Promise<CallerRoles> {
  const roles = await tx
    .select({ id: role.id, roleKey: role.roleKey, roleName: role.roleName, isSuper: role.isSuper, dataScope: role.dataScope, scopeDeptIds: role.scopeDeptIds })
    .from(adminRole)
    .innerJoin(role, and(eq(role.tenantId, adminRole.tenantId), eq(role.id, adminRole.roleId)))
    .where(and(eq(adminRole.tenantId, tenantId), eq(adminRole.adminId, adminId), eq(role.enabled, true)));
  return { isSuper: roles.some((r) => r.isSuper), roles };
}

/** What the caller may do, computed once per request from their roles (STYLE: compute permissions once). */
export async function loadPermissions(tx: Tx, tenantId: number, adminId: number): Promise<Permissions> {
  const { isSuper, roles } = await loadRoles(tx, tenantId, adminId);
  const menus = isSuper
    ? await tx.select({ id: menu.id, name: menu.name, menuType: menu.menuType }).from(menu).where(and(eq(menu.tenantId, tenantId), eq(menu.enabled, true)))
    : roles.length
      ? await tx
          .selectDistinct({ id: menu.id, name: menu.name, menuType: menu.menuType })
          .from(roleMenu)
          .innerJoin(menu, and(eq(menu.tenantId, roleMenu.tenantId), eq(menu.id, roleMenu.menuId)))
          .where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.roleId, roles.map((r) => r.id)), eq(menu.enabled, true)))
      : [];
  return {
    isSuper,
    roles,
    menuIds: new Set(menus.map((m) => m.id)),
    menuNames: new Set(menus.map((m) => m.name)),
    buttons: new Set(menus.filter((m) => m.menuType === 'Button').map((m) => m.name)),
  };
}

/**
 * The caller's permissions (roles, menus, button codes): from the access cache (core/access-cache.ts) when
 * the request came through the sign-in check, so a request reads them at most once per change; otherwise
 * loaded. Services use this rather than loadPermissions / loadRoles for the caller.
 */
export function callerPermissions(tx: Tx, auth: AuthContext): Promise<Permissions> {
  return auth.access ? auth.access.permissions(tx) : loadPermissions(tx, auth.tenantId, auth.adminId);
}

/** Checks the route's `config.permission` before the handler runs; 40300 when the caller lacks it. */
export const permissionPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
  app.addHook('preHandler', async (request) => {
    const needed = request.routeOptions.config?.permission;
    if (!needed || !request.auth) return;
    const { auth } = request;
    const perms = auth.access
      ? await auth.access.permissions()
      : await opts.database.withTenant(auth.tenantId, (tx) => loadPermissions(tx, auth.tenantId, auth.adminId));
    if (perms.isSuper) return;
    if (!hasPermission(perms.buttons, needed)) throw forbidden('Forbidden', typeof needed === 'string' ? needed : needed.join(','));
  });
});
