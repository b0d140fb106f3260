import { useMemo } from 'react';
import { useLocation } from 'react-router';
import type { MenuItem } from '@p8/contract/menu';
import { useCurrentMenu } from '../../app/dynamic-routes.ts';
import { useMenuStore } from '../../stores/menu.ts';
import { findMenuByPath, menuChain } from './menu-utils.ts';

export interface ActiveMenu {
  /** The screen of the current route, when it is a menu item. */
  menu: MenuItem | undefined;
  /** The menu entry to highlight: `metaActiveMenu` for hidden detail screens, else the screen itself. */
  activePath: string;
  /** Root-to-screen chain for the breadcrumb (the hidden screen last, after its active menu's chain). */
  chain: MenuItem[];
  /** Full path of the route (pathname + search): the tab key. */
  fullPath: string;
}

export function useActiveMenu(): ActiveMenu {
  const { pathname, search } = useLocation();
  const menuTree = useMenuStore((s) => s.menuTree);
  const flat = useMenuStore((s) => s.flatMenuList);
  // The matched route's menu item (route handle); by path when the route carries none.
  const routeMenu = useCurrentMenu()?.menu;
  return useMemo(() => {
    const menu = routeMenu ?? findMenuByPath(flat, pathname);
    const activePath = menu?.metaActiveMenu || menu?.path || pathname;
    let chain = menuChain(menuTree, activePath);
    if (menu && activePath !== menu.path) chain = [...chain, menu];
    else if (!chain.length && menu) chain = [menu];
    return { menu, activePath, chain, fullPath: pathname + search };
  }, [routeMenu, flat, menuTree, pathname, search]);
}
