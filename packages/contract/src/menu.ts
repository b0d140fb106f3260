/** Menu item as served by GET /admin/current/role. */
export const MenuType = ['Directory', 'Menu', 'Button'] as const;
export type MenuType = (typeof MenuType)[number];

export interface MenuItem {
  id: number;
  parentId: number | null;
  path: string;
  name: string;
  redirect: string | null;
  component: string | null;
  metaIcon: string | null;
  metaTitle: string;
  metaTitleEn: string;
  metaActiveMenu: string | null;
  metaIsLink: string | null;
  metaIsHide: boolean;
  metaIsFull: boolean;
  metaIsAffix: boolean;
  metaIsKeepAlive: boolean;
  menuType: MenuType;
  sort: number;
  children?: MenuItem[];
}

export interface CurrentRole {
  /** Screens (Directory / Menu) as a tree; Button items hang under their screen as children. */
  menuList: MenuItem[];
  /** Authorized button codes (Button menu names). */
  buttons: string[];
}
