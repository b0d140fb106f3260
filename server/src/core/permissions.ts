import { and, eq, inArray } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { hasPermission, type PermissionCode } from '@p8/contract/permission';
import type { Database, Tx } from '../db/connection.ts';
import { adminRole, menu, role, roleMenu, tenant } from '../db/schema/index.ts';
import { MODULE_AREA, moduleClosesAt, PLATFORM_SCREEN, type ModuleType } from '@p8/contract/platform';
import type { ModuleEntry } from '@p8/contract/tenant-config';
import type { AuthContext } from './auth.ts';
import { forbidden } from './errors.ts';
import type { OpenRead, ReadKind } from './route.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Button code(s) the caller must hold: an array = all, 'a|b' = any, a plain string = that code
     * — the same rule the web's <Auth> applies.
     */
    permission?: PermissionCode;
    /**
     * The area the route belongs to (its server module's name, or a bill type's area): when the tenant's
     * module of that type has expired, the route answers 40300 `ModuleExpired` (core/route.ts sets it).
     */
    area?: string;
    /**
     * How a signed-in GET declared who may read it (core/route.ts): the screen it serves, the screens
     * using a picker, or one of the open reads (`openRead` names which).
     */
    read?: ReadKind;
    openRead?: OpenRead;
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
  /** The tenant's licensed modules whose expiry has passed: their menus are left out above. */
  expiredModules: Set<string>;
  /** When the next module of the tenant expires (ms): what is cached must be reloaded by then. */
  validUntil?: number;
}

/** What only the platform tenant's super administrators are given. */
function platformOnly(name: string) {
  return name === PLATFORM_SCREEN || name.startsWith(`${PLATFORM_SCREEN}_`);
}

/** The tenant's expired modules, and when the next one expires. */
async function moduleState(tx: Tx, tenantId: number, now: number) {
  const [row] = await tx.select({ moduleList: tenant.moduleList }).from(tenant).where(eq(tenant.id, tenantId));
  const expiredModules = new Set<string>();
  let validUntil: number | undefined;
  for (const m of (row?.moduleList as ModuleEntry[] | undefined) ?? []) {
    const at = moduleClosesAt(m.expiresAt);
    if (at === undefined) continue;
    // By the area it closes (outsourcing's licence is type `outsource`).
    if (at <= now) expiredModules.add(MODULE_AREA[m.type as ModuleType] ?? m.type);
    else validUntil = Math.min(validUntil ?? Infinity, at);
  }
  return { expiredModules, validUntil };
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

/**
 * What the caller may do, computed once per request from their roles (STYLE: compute permissions once).
 * Two things are taken away whatever the roles say: the menus of an expired module (every menu under the
 * top-level menu named by the module type), and the platform screens outside the platform tenant's super
 * administrators (`platformTenantId`; without it nobody gets them).
 */
export async function loadPermissions(tx: Tx, tenantId: number, adminId: number, opts: { platformTenantId?: number } = {}): Promise<Permissions> {
  const { isSuper, roles } = await loadRoles(tx, tenantId, adminId);
  const { expiredModules, validUntil } = await moduleState(tx, tenantId, Date.now());
  const granted = isSuper
    ? await tx.select({ id: menu.id, name: menu.name, menuType: menu.menuType }).from(menu).where(and(eq(menu.tenantId, tenantId), eq(menu.enabled, true)))
    : roles.length
      ? await tx
          .selectDistinct({ id: menu.id, name: menu.name, menuType: menu.menuType })
          .from(roleMenu)
          .innerJoin(menu, and(eq(menu.tenantId, roleMenu.tenantId), eq(menu.id, roleMenu.menuId)))
          .where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.roleId, roles.map((r) => r.id)), eq(menu.enabled, true)))
      : [];
  let closed = new Set<number>();
  if (expiredModules.size) {
    const tree = await tx.select({ id: menu.id, parentId: menu.parentId, name: menu.name }).from(menu).where(eq(menu.tenantId, tenantId));
    const byId = new Map(tree.map((m) => [m.id, m]));
    const rootOf = (id: number) => {
      let item = byId.get(id);
      for (let depth = 0; item?.parentId != null && depth < 20; depth++) item = byId.get(item.parentId);
      return item?.name;
    };
    closed = new Set(tree.filter((m) => expiredModules.has(rootOf(m.id) ?? '')).map((m) => m.id));
  }
  const platform = isSuper && opts.platformTenantId === tenantId;
  const menus = granted.filter((m) => !closed.has(m.id) && (platform || !platformOnly(m.name)));
  return {
    isSuper,
    roles,
    expiredModules,
    validUntil,
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

/**
 * Checks, for a signed-in request: before its input is validated, that its area's module has not expired
 * (40300 `ModuleExpired`, for everyone: a closed module answers the same whatever is sent); then the
 * route's `config.permission` (40300 when the caller lacks it). A code is held when the caller's roles grant
 * the menu entry of that name: a button for a write, a screen (a menu, which granting any of its buttons
 * grants too) or a `…_view` button for a read.
 */
export const permissionPlugin = fp(async (app: FastifyInstance, opts: { database: Database; platformTenantId: number }) => {
  const permissionsOf = (auth: AuthContext) =>
    auth.access
      ? auth.access.permissions()
      : opts.database.withTenant(auth.tenantId, (tx) => loadPermissions(tx, auth.tenantId, auth.adminId, { platformTenantId: opts.platformTenantId }));
  app.addHook('preValidation', async (request) => {
    const area = request.routeOptions.config?.area;
    if (!area || !request.auth) return;
    if ((await permissionsOf(request.auth)).expiredModules.has(area)) throw forbidden('ModuleExpired', area);
  });
  // Before validation too: a caller without the code learns nothing of what the route accepts.
  app.addHook('preValidation', async (request) => {
    const needed = request.routeOptions.config?.permission;
    if (!needed || !request.auth) return;
    const perms = await permissionsOf(request.auth);
    if (perms.isSuper) return;
    if (!hasPermission(perms.menuNames, needed)) throw forbidden('Forbidden', typeof needed === 'string' ? needed : needed.join(','));
  });
});
