import { and, asc, eq, inArray, ne, notInArray, type SQL } from 'drizzle-orm';
import type { MenuType } from '@p8/contract/menu';
import type { MenuCreate, MenuRow, MenuUpdate } from '@p8/contract/system';
import type { Tx } from '../../db/connection.ts';
import { menu, roleMenu } from '../../db/schema/index.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { BizError } from '../../core/errors.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import { assertAllFound, distinct } from '../../core/ids.ts';
import { sentFields } from './common.ts';
import { buildTree, subtreeIds } from '../../core/tree.ts';
import { iso } from '../../core/envelope.ts';

type MenuRecord = typeof menu.$inferSelect;

const toMenu = (m: MenuRecord): MenuRow => ({
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
  menuType: m.menuType as MenuType,
  sort: m.sort,
  enabled: m.enabled,
  isDefault: m.isDefault,
  createdAt: iso(m.createdAt)!,
  updatedAt: iso(m.updatedAt)!,
});

const menuList: ListSpec = {
  fields: {
    id: { column: menu.id, sortable: true, notIn: true },
    name: { column: menu.name, filter: 'like', sortable: true },
    path: { column: menu.path, filter: 'like' },
    metaTitle: { column: menu.metaTitle, filter: 'like', sortable: true },
    metaTitleEn: { column: menu.metaTitleEn, filter: 'like' },
    menuType: { column: menu.menuType, filter: 'eq' },
    parentId: { column: menu.parentId, filter: 'number' },
    enabled: { column: menu.enabled, filter: 'bool' },
    isDefault: { column: menu.isDefault, filter: 'bool' },
    sort: { column: menu.sort, sortable: true },
  },
  dateColumn: menu.createdAt,
  defaultOrder: [asc(menu.sort), asc(menu.id)],
};

export async function listMenus(ctx: ServiceContext, query: Record<string, unknown>) {
  const { tx, tenantId } = ctx;
  const parsed = parseList(menuList, query, [eq(menu.tenantId, tenantId)]);
  const page = await runPage(parsed, tx.select().from(menu).$dynamic(), tx.select(countAll()).from(menu).$dynamic());
  return { ...page, data: page.data.map(toMenu) };
}

/** The whole menu tree of the tenant, buttons included (for the menu screen and the permission dialog). */
export async function menuTree(ctx: ServiceContext, enabled?: boolean): Promise<MenuRow[]> {
  const { tx, tenantId } = ctx;
  const where: SQL[] = [eq(menu.tenantId, tenantId)];
  if (enabled !== undefined) where.push(eq(menu.enabled, enabled));
  const found = await tx.select().from(menu).where(and(...where));
  return buildTree(found.map(toMenu));
}

async function loadMenu(tx: Tx, tenantId: number, id: number): Promise<MenuRecord> {
  const [row] = await tx.select().from(menu).where(and(eq(menu.tenantId, tenantId), eq(menu.id, id)));
  if (!row) throw new BizError('DataNotExist', { additional: id });
  return row;
}

export async function getMenu(ctx: ServiceContext, id: number): Promise<MenuRow> {
  const { tx, tenantId } = ctx;
  return toMenu(await loadMenu(tx, tenantId, id));
}

/** Menu names are route names and button codes: unique in the tenant. */
async function assertNameFree(tx: Tx, tenantId: number, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(eq(menu.tenantId, tenantId), eq(menu.name, name), exceptId === undefined ? undefined : ne(menu.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('NameRepeat', { additional: name });
}

/**
 * Where an item may hang: nothing hangs under a button, and a button hangs under a screen (a Menu item),
 * whose permission it refines. Screens (Directory / Menu) need a route path.
 */
async function assertPlacement(tx: Tx, tenantId: number, item: { parentId: number | null; menuType: MenuType; path: string }) {
  const parentItem = item.parentId === null ? undefined : await loadMenu(tx, tenantId, item.parentId);
  if (parentItem?.menuType === 'Button') throw new BizError('PleaseSelectParent', { additional: 'parentId' });
  if (item.menuType === 'Button' && parentItem?.menuType !== 'Menu') throw new BizError('PleaseSelectParent', { additional: 'parentId' });
  if (item.menuType !== 'Button' && !item.path) throw new BizError('PleaseInputMenuPath', { additional: 'path' });
}

export async function createMenu(ctx: ServiceContext, body: MenuCreate): Promise<MenuRow> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const parentId = body.parentId ?? null;
  const path = body.menuType === 'Button' ? '' : (body.path ?? '');
  await assertNameFree(tx, tenantId, body.name);
  await assertPlacement(tx, tenantId, { parentId, menuType: body.menuType, path });
  const [row] = await tx
    .insert(menu)
    .values({
      tenantId,
      parentId,
      path,
      name: body.name,
      redirect: body.redirect || null,
      component: body.component || null,
      metaIcon: body.metaIcon || null,
      metaTitle: body.metaTitle,
      metaTitleEn: body.metaTitleEn || body.metaTitle,
      metaActiveMenu: body.metaActiveMenu || null,
      metaIsLink: body.metaIsLink || null,
      metaIsHide: body.metaIsHide ?? false,
      metaIsFull: body.metaIsFull ?? false,
      metaIsAffix: body.metaIsAffix ?? false,
      metaIsKeepAlive: body.metaIsKeepAlive ?? true,
      menuType: body.menuType,
      sort: body.sort ?? 0,
      isDefault: false,
    })
    .returning();
  return toMenu(row);
}

export async function updateMenu(ctx: ServiceContext, body: MenuUpdate): Promise<MenuRow> {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const current = await loadMenu(tx, tenantId, body.id);
  const name = body.name ?? current.name;
  const menuType = body.menuType ?? (current.menuType as MenuType);
  const parentId = body.parentId === undefined ? current.parentId : body.parentId;
  const path = menuType === 'Button' ? '' : (body.path ?? current.path);
  // A template item's name is a route name or a button code the code relies on; the template sync matches by it.
  if (current.isDefault && (name !== current.name || menuType !== current.menuType)) {
    throw new BizError('DefaultMenuProhibitChangeKey', { additional: current.name });
  }
  if (name !== current.name) await assertNameFree(tx, tenantId, name, body.id);
  if (parentId !== current.parentId && parentId !== null) {
    if (parentId === body.id || (await subtreeIds(tx, 'menu', tenantId, [body.id])).includes(parentId)) {
      throw new BizError('ParentCannotBeSelf', { additional: parentId });
    }
  }
  await assertPlacement(tx, tenantId, { parentId, menuType, path });
  if (menuType === 'Button' && current.menuType !== 'Button') {
    const [child] = await tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, tenantId), eq(menu.parentId, body.id))).limit(1);
    if (child) throw new BizError('PleaseSelectParent', { additional: 'menuType' });
  }
  const sent = sentFields(body);
  const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value || null);
  await tx
    .update(menu)
    .set({
      ...sent,
      path,
      redirect: blankToNull(body.redirect),
      component: blankToNull(body.component),
      metaIcon: blankToNull(body.metaIcon),
      metaActiveMenu: blankToNull(body.metaActiveMenu),
      metaIsLink: blankToNull(body.metaIsLink),
      metaTitleEn: body.metaTitleEn === undefined ? undefined : body.metaTitleEn || body.metaTitle || current.metaTitle,
      updatedAt: new Date(),
    })
    .where(and(eq(menu.tenantId, tenantId), eq(menu.id, body.id)));
  return getMenu(ctx, body.id);
}

/** Deletes menus the tenant added: never a template item, nor one with children not deleted with it. */
export async function deleteMenus(ctx: ServiceContext, requested: number[]) {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const found = await tx
    .select({ id: menu.id, name: menu.name, isDefault: menu.isDefault })
    .from(menu)
    .where(and(eq(menu.tenantId, tenantId), inArray(menu.id, ids)));
  assertAllFound(ids, found, 'DataNotExist');
  const fixed = found.find((m) => m.isDefault);
  if (fixed) throw new BizError('DefaultMenuProhibitDelete', { additional: fixed.name });
  const [child] = await tx
    .select({ parentId: menu.parentId })
    .from(menu)
    .where(and(eq(menu.tenantId, tenantId), inArray(menu.parentId, ids), notInArray(menu.id, ids)))
    .limit(1);
  if (child) throw new BizError('MenuHasChildrenProhibitDelete', { additional: found.find((m) => m.id === child.parentId)?.name });
  await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.menuId, ids)));
  await tx.delete(menu).where(and(eq(menu.tenantId, tenantId), inArray(menu.id, ids)));
}

export async function enableMenus(ctx: ServiceContext, requested: number[], enabled: boolean) {
  const { tx } = ctx;
  const tenantId = ctx.tenantId;
  const ids = distinct(requested);
  const found = await tx.select({ id: menu.id }).from(menu).where(and(eq(menu.tenantId, tenantId), inArray(menu.id, ids)));
  assertAllFound(ids, found, 'DataNotExist');
  await tx.update(menu).set({ enabled, updatedAt: new Date() }).where(and(eq(menu.tenantId, tenantId), inArray(menu.id, ids)));
}
