import { and, eq, inArray } from 'drizzle-orm';
import type { MenuType } from '@p8/contract/menu';
import type { Tx } from '../connection.ts';
import { menu } from '../schema/index.ts';

/**
 * The menu template: the screens that exist, with their button codes. Every tenant gets this tree at
 * registration, and on start each tenant receives the entries it lacks (by `name`), so a release that adds
 * a screen reaches existing tenants. Each issue that adds a screen adds its entry here — never a menu
 * for a screen that does not exist.
 */
export interface MenuTemplate {
  name: string;
  path?: string;
  component?: string;
  redirect?: string;
  icon?: string;
  title: string;
  titleEn: string;
  type: MenuType;
  affix?: boolean;
  hide?: boolean;
  full?: boolean;
  keepAlive?: boolean;
  children?: MenuTemplate[];
}

export const MENU_TEMPLATE: MenuTemplate[] = [
  { name: 'home', path: '/home/index', component: 'home/index', icon: 'HomeOutlined', title: '首页', titleEn: 'Home', type: 'Menu', affix: true },
  {
    name: 'person',
    path: '/person',
    redirect: '/person/userInfo',
    icon: 'UserOutlined',
    title: '个人中心',
    titleEn: 'Personal center',
    type: 'Directory',
    children: [
      { name: 'person_userInfo', path: '/person/userInfo', component: 'person/userInfo', icon: 'IdcardOutlined', title: '个人信息', titleEn: 'User info', type: 'Menu' },
    ],
  },
];

/** Inserts the template entries a tenant lacks; returns how many were added. */
export async function syncMenuTemplate(tx: Tx, tenantId: number): Promise<number> {
  const existing = await tx.select({ id: menu.id, name: menu.name }).from(menu).where(eq(menu.tenantId, tenantId));
  const idByName = new Map(existing.map((m) => [m.name, m.id]));
  let added = 0;
  const walk = async (nodes: MenuTemplate[], parentId: number | null) => {
    for (const [index, node] of nodes.entries()) {
      let id = idByName.get(node.name);
      if (id === undefined) {
        const [row] = await tx
          .insert(menu)
          .values({
            tenantId,
            parentId,
            name: node.name,
            path: node.path ?? '',
            component: node.component ?? null,
            redirect: node.redirect ?? null,
            metaIcon: node.icon ?? null,
            metaTitle: node.title,
            metaTitleEn: node.titleEn,
            metaIsAffix: node.affix ?? false,
            metaIsHide: node.hide ?? false,
            metaIsFull: node.full ?? false,
            metaIsKeepAlive: node.keepAlive ?? true,
            menuType: node.type,
            sort: (index + 1) * 10,
            isDefault: true,
          })
          .returning({ id: menu.id });
        id = row.id;
        idByName.set(node.name, id);
        added++;
      }
      if (node.children) await walk(node.children, id);
    }
  };
  await walk(MENU_TEMPLATE, null);
  return added;
}

/** All button codes of the template (for tests and the super role). */
export function templateButtonCodes(nodes: MenuTemplate[] = MENU_TEMPLATE): string[] {
  return nodes.flatMap((n) => [...(n.type === 'Button' ? [n.name] : []), ...templateButtonCodes(n.children ?? [])]);
}

export async function menuIdsByName(tx: Tx, tenantId: number, names: string[]) {
  if (!names.length) return [];
  return tx.select({ id: menu.id, name: menu.name }).from(menu).where(and(eq(menu.tenantId, tenantId), inArray(menu.name, names)));
}
