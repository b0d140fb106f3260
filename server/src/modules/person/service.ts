import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { phonePattern, type CurrentUser, type UpdatePassword } from '@p8/contract/auth';
import type { CurrentRole, MenuItem } from '@p8/contract/menu';
import { storableText } from '@p8/contract/text';
import { admin, department, loginPhone, menu, tenant } from '../../db/schema/index.ts';
import { revokeOtherSessions } from '../../core/auth.ts';
import { BizError } from '../../core/errors.ts';
import { distinct } from '../../core/ids.ts';
import { hashPassword, verifyPassword } from '../../core/passwords.ts';
import { callerPermissions } from '../../core/permissions.ts';
import type { RequestCaller } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { buildTree } from '../../core/tree.ts';

/** The signed-in user's own account: detail, personal data, password, common menus and menu/permission tree. */

export const personalInfoSchema = z.object({
  realName: storableText().trim().max(30).default(''),
  nickName: storableText().trim().max(30).default(''),
  email: z.union([z.literal(''), z.email({ message: 'EmailFormatError' })]).default(''),
  sex: z.number().int().min(0).max(2).default(0),
  avatar: storableText().max(500).default(''),
  phone: z.union([z.literal(''), storableText().regex(phonePattern, { message: 'PhoneFormatError' })]).default(''),
});
type PersonalInfo = z.output<typeof personalInfoSchema>;

/** The caller's own row: every write here is to it and nothing else. */
const mine = (ctx: Pick<ServiceContext, 'account'>) => and(eq(admin.tenantId, ctx.account.tenantId), eq(admin.id, ctx.account.adminId));

export async function currentUser(ctx: ServiceContext): Promise<CurrentUser> {
  const [row] = await ctx.tx
    .select({ admin, deptName: department.name, initialAdminId: tenant.initialAdminId })
    .from(admin)
    .innerJoin(tenant, eq(tenant.id, admin.tenantId))
    .leftJoin(department, and(eq(department.tenantId, admin.tenantId), eq(department.id, admin.deptId)))
    .where(mine(ctx))
    .limit(1);
  if (!row) throw new BizError('AdminNotExist');
  const perms = await callerPermissions(ctx.tx, ctx.account);
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

export async function updatePersonalInfo(caller: RequestCaller, body: PersonalInfo): Promise<CurrentUser> {
  if (body.phone) {
    // Phones sign in across tenants, so they are unique across tenants: checked on the owner connection,
    // before the tenant transaction (PGlite has one connection; a nested query would wait on itself).
    const [taken] = await caller.database.db.select({ id: loginPhone.adminId, tenantId: loginPhone.tenantId }).from(loginPhone).where(eq(loginPhone.phone, body.phone));
    if (taken && !(taken.tenantId === caller.tenantId && taken.id === caller.account.adminId)) throw new BizError('PhoneIsRegistered');
  }
  return caller.transaction(async (ctx) => {
    await ctx.tx
      .update(admin)
      .set({ ...body, phone: body.phone || null, email: body.email || null, avatar: body.avatar || null, updatedAt: new Date() })
      .where(mine(ctx));
    return currentUser(ctx);
  });
}

/** Changes the caller's password; a changed password signs out every other device. */
export async function updatePassword(caller: RequestCaller, body: UpdatePassword) {
  await caller.transaction(async (ctx) => {
    const [row] = await ctx.tx.select({ passwordHash: admin.passwordHash }).from(admin).where(mine(ctx));
    if (!row || !(await verifyPassword(row.passwordHash, body.oldPassword))) throw new BizError('OldPasswordError');
    await ctx.tx
      .update(admin)
      .set({ passwordHash: await hashPassword(body.password), updatedAt: new Date() })
      .where(mine(ctx));
  });
  await caller.database.withSystem((tx) => revokeOtherSessions(tx, caller.access, caller.account));
}

/** Saves the home page's common menus: at most 30, each a menu the caller may open. */
export async function saveCommonMenus(ctx: ServiceContext, menuIds: number[]): Promise<number[]> {
  const ids = distinct(menuIds);
  if (ids.length > 30) throw new BizError('CommonMenuMaxThirty');
  const perms = await callerPermissions(ctx.tx, ctx.account);
  const unknown = ids.find((id) => !perms.menuIds.has(id));
  if (unknown !== undefined) throw new BizError('DataNotExist', { additional: unknown });
  await ctx.tx.update(admin).set({ commonMenus: ids, updatedAt: new Date() }).where(mine(ctx));
  return ids;
}

/** The menu tree the caller may see (screens as the tree, their buttons as their children) and their button codes. */
export async function currentRole(ctx: ServiceContext): Promise<CurrentRole> {
  const perms = await callerPermissions(ctx.tx, ctx.account);
  const rows = perms.menuIds.size
    ? await ctx.tx
        .select({
          id: menu.id,
          parentId: menu.parentId,
          path: menu.path,
          name: menu.name,
          redirect: menu.redirect,
          component: menu.component,
          metaIcon: menu.metaIcon,
          metaTitle: menu.metaTitle,
          metaTitleEn: menu.metaTitleEn,
          metaActiveMenu: menu.metaActiveMenu,
          metaIsLink: menu.metaIsLink,
          metaIsHide: menu.metaIsHide,
          metaIsFull: menu.metaIsFull,
          metaIsAffix: menu.metaIsAffix,
          metaIsKeepAlive: menu.metaIsKeepAlive,
          menuType: menu.menuType,
          sort: menu.sort,
        })
        .from(menu)
        .where(and(eq(menu.tenantId, ctx.tenantId), eq(menu.enabled, true), inArray(menu.id, [...perms.menuIds])))
        .orderBy(asc(menu.sort), asc(menu.id))
    : [];
  const items: MenuItem[] = rows.map((m) => ({ ...m, menuType: m.menuType as MenuItem['menuType'] }));
  return { menuList: buildTree(items, { orphans: 'drop' }), buttons: [...perms.buttons].sort() };
}
