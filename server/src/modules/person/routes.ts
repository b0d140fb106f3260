import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { storableText } from '@p8/contract/text';
import { commonMenusSchema, phonePattern, updatePasswordSchema, type CurrentUser } from '@p8/contract/auth';
import type { CurrentRole, MenuItem } from '@p8/contract/menu';
import type { Database, Tx } from '../../db/connection.ts';
import { admin, department, menu, tenant } from '../../db/schema/index.ts';
import { revokeOtherSessions } from '../../core/auth.ts';
import { ok } from '../../core/envelope.ts';
import { BizError } from '../../core/errors.ts';
import { hashPassword, verifyPassword } from '../../core/passwords.ts';
import { loadPermissions } from '../../core/permissions.ts';
import type { AuthContext } from '../../core/auth.ts';

export const personalInfoSchema = z.object({
  realName: storableText().trim().max(30).default(''),
  nickName: storableText().trim().max(30).default(''),
  email: z.union([z.literal(''), z.email({ message: 'EmailFormatError' })]).default(''),
  sex: z.number().int().min(0).max(2).default(0),
  avatar: storableText().max(500).default(''),
  phone: z.union([z.literal(''), storableText().regex(phonePattern, { message: 'PhoneFormatError' })]).default(''),
});

async function currentUser(tx: Tx, auth: AuthContext): Promise<CurrentUser> {
  const [row] = await tx
    .select({ admin, deptName: department.name, initialAdminId: tenant.initialAdminId })
    .from(admin)
    .innerJoin(tenant, eq(tenant.id, admin.tenantId))
    .leftJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)))
    .where(and(eq(admin.tenantId, auth.tenantId), eq(admin.id, auth.adminId)))
    .limit(1);
  if (!row) throw new BizError('AdminNotExist');
  const perms = await loadPermissions(tx, auth.tenantId, auth.adminId);
  const a = row.admin;
  return {
    id: a.id,
    tenantId: a.tenantId,
    name: a.name,
    nickName: a.nickName,
    realName: a.realName,
    phone: a.phone ?? '',
    email: a.email ?? '',
    sex: a.sex,
    avatar: a.avatar ?? '',
    roleKey: perms.roles.map((r) => r.roleKey).join(','),
    roleName: perms.roles.map((r) => r.roleName).join(','),
    deptId: a.deptId,
    deptName: row.deptName ?? '',
    isInitialAdmin: row.initialAdminId === a.id,
    commonMenus: a.commonMenus ?? [],
  };
}

/** Builds the menu tree the caller may see: screens as the tree, their buttons as their children. */
export function buildMenuTree(items: MenuItem[]): MenuItem[] {
  const byId = new Map(items.map((m) => [m.id, { ...m, children: [] as MenuItem[] }]));
  const roots: MenuItem[] = [];
  for (const item of byId.values()) {
    const parent = item.parentId === null ? undefined : byId.get(item.parentId);
    if (parent) parent.children!.push(item);
    else if (item.parentId === null) roots.push(item);
    // An item whose parent the caller may not see is dropped with it.
  }
  const sortTree = (nodes: MenuItem[]) => {
    nodes.sort((a, b) => a.sort - b.sort || a.id - b.id);
    for (const n of nodes) {
      if (n.children?.length) sortTree(n.children);
      else delete n.children;
    }
  };
  sortTree(roots);
  return roots;
}

/** The signed-in user: detail, personal data, password, common menus and menu/permission tree. */
export async function personRoutes(app: FastifyInstance, opts: { database: Database }) {
  const { database } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/current/detail', { schema: { tags: ['person'], summary: 'The signed-in user' } }, async (req) =>
    ok(await req.tenant((tx) => currentUser(tx, req.auth))),
  );

  r.put('/api/admin/current/info', { schema: { tags: ['person'], summary: 'Update personal data', body: personalInfoSchema } }, async (req) => {
    const body = req.body;
    if (body.phone) {
      // Phones sign in across tenants, so they are unique across tenants: checked on the system connection,
      // before the tenant transaction (PGlite has one connection; a nested query would wait on itself).
      const [taken] = await database.db.select({ id: admin.id, tenantId: admin.tenantId }).from(admin).where(eq(admin.phone, body.phone)).limit(1);
      if (taken && !(taken.tenantId === req.auth.tenantId && taken.id === req.auth.adminId)) throw new BizError('PhoneIsRegistered');
    }
    return ok(
      await req.tenant(async (tx) => {
        await tx
          .update(admin)
          .set({ ...body, phone: body.phone || null, email: body.email || null, avatar: body.avatar || null, updatedAt: new Date() })
          .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
        return currentUser(tx, req.auth);
      }),
    );
  });

  r.put('/api/admin/current/updatePassword', { schema: { tags: ['person'], summary: 'Change the password', body: updatePasswordSchema } }, async (req) => {
    await req.tenant(async (tx) => {
      const [row] = await tx
        .select({ passwordHash: admin.passwordHash })
        .from(admin)
        .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
      if (!row || !(await verifyPassword(row.passwordHash, req.body.oldPassword))) throw new BizError('OldPasswordError');
      await tx
        .update(admin)
        .set({ passwordHash: await hashPassword(req.body.password), updatedAt: new Date() })
        .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
    });
    // A changed password signs out every other device.
    await database.withSystem((tx) => revokeOtherSessions(tx, req.auth));
    return ok(null);
  });

  r.put('/api/admin/current/commonMenus', { schema: { tags: ['person'], summary: 'Save the home page common menus', body: commonMenusSchema } }, async (req) =>
    ok(
      await req.tenant(async (tx) => {
        const ids = [...new Set(req.body.menuIds)];
        if (ids.length > 30) throw new BizError('CommonMenuMaxThirty');
        const perms = await loadPermissions(tx, req.auth.tenantId, req.auth.adminId);
        const unknown = ids.find((id) => !perms.menuIds.has(id));
        if (unknown !== undefined) throw new BizError('DataNotExist', { additional: unknown });
        await tx
          .update(admin)
          .set({ commonMenus: ids, updatedAt: new Date() })
          .where(and(eq(admin.tenantId, req.auth.tenantId), eq(admin.id, req.auth.adminId)));
        return ids;
      }),
    ),
  );

  r.get('/api/admin/current/role', { schema: { tags: ['person'], summary: 'Menu tree with buttons, and authorized button codes' } }, async (req) =>
    ok(
      await req.tenant(async (tx): Promise<CurrentRole> => {
        const perms = await loadPermissions(tx, req.auth.tenantId, req.auth.adminId);
        const rows = perms.menuIds.size
          ? await tx
              .select()
              .from(menu)
              .where(and(eq(menu.tenantId, req.auth.tenantId), eq(menu.enabled, true), inArray(menu.id, [...perms.menuIds])))
              .orderBy(asc(menu.sort), asc(menu.id))
          : [];
        const items: MenuItem[] = rows.map((m) => ({
          id: m.id,
          parentId: m.parentId,
          path: m.path,
          name: m.name,
          redirect: m.redirect,
          component: m.component,
          metaIcon: m.metaIcon,
          metaTitle: m.metaTitle,
          metaTitleEn: m.metaTitleEn,
          metaActiveMenu: m.metaActiveMenu,
          metaIsLink: m.metaIsLink,
          metaIsHide: m.metaIsHide,
          metaIsFull: m.metaIsFull,
          metaIsAffix: m.metaIsAffix,
          metaIsKeepAlive: m.metaIsKeepAlive,
          menuType: m.menuType as MenuItem['menuType'],
          sort: m.sort,
        }));
        return { menuList: buildMenuTree(items), buttons: [...perms.buttons].sort() };
      }),
    ),
  );
}
