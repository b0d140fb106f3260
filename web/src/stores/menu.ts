import { create } from 'zustand';
import type { CurrentRole, MenuItem } from '@p8/contract/menu';

/**
 * The signed-in user's menus and button codes from GET /admin/current/role. Not persisted: they are
 * loaded again by the route guard after every page load, so a role change takes effect on reload.
 */
interface MenuState {
  /** Server tree as received (Button items hang under their screens). */
  rawMenuList: MenuItem[];
  /** Screens only (Directory / Menu), Buttons removed, sorted by `sort`: the side menu's source. */
  menuTree: MenuItem[];
  /** Every screen of `menuTree`, depth first, without `children`: lookups by path, name or id. */
  flatMenuList: MenuItem[];
  /** Authorized button codes. */
  buttons: string[];
  /** Whether the menus have been loaded for the current token. */
  loaded: boolean;
  setRole: (role: CurrentRole) => void;
  reset: () => void;
}

const isScreen = (item: MenuItem) => item.menuType !== 'Button';

/** Screens-only copy of a menu tree, sorted by `sort` at every level. */
export function screensOf(items: readonly MenuItem[]): MenuItem[] {
  return items
    .filter(isScreen)
    .slice()
    .sort((a, b) => a.sort - b.sort || a.id - b.id)
    .map((item) => {
      const children = item.children ? screensOf(item.children) : [];
      return children.length ? { ...item, children } : { ...item, children: undefined };
    });
}

export function flatten(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((item) => {
    const { children, ...self } = item;
    return [self as MenuItem, ...(children ? flatten(children) : [])];
  });
}

/** The tree without hidden screens (metaIsHide): what the side menu shows. */
export function visibleMenuTree(items: readonly MenuItem[]): MenuItem[] {
  return items
    .filter((item) => !item.metaIsHide)
    .map((item) => (item.children ? { ...item, children: visibleMenuTree(item.children) } : item));
}

export const useMenuStore = create<MenuState>()((set) => ({
  rawMenuList: [],
  menuTree: [],
  flatMenuList: [],
  buttons: [],
  loaded: false,
  setRole: (role) => {
    const menuTree = screensOf(role.menuList ?? []);
    set({ rawMenuList: role.menuList ?? [], menuTree, flatMenuList: flatten(menuTree), buttons: role.buttons ?? [], loaded: true });
  },
  reset: () => set({ rawMenuList: [], menuTree: [], flatMenuList: [], buttons: [], loaded: false }),
}));
