import { useEffect } from 'react';
import { useAuthStore } from '../stores/auth.ts';
import { useMenuStore } from '../stores/menu.ts';
import { useTabsStore, type TabItem } from '../stores/tabs.ts';
import { useActiveMenu } from './menu/use-active-menu.ts';
import type { MenuItem } from '@p8/contract/menu';

function tabOf(menu: MenuItem, path: string): TabItem {
  return {
    path,
    menuPath: menu.path,
    title: menu.metaTitle,
    titleEn: menu.metaTitleEn,
    icon: menu.metaIcon,
    affix: menu.metaIsAffix,
    keepAlive: menu.metaIsKeepAlive,
  };
}

/** Keeps the tab bar in step with the session, the menu (affix tabs) and the route (a tab per visit). */
export function useTabsSync() {
  const userId = useAuthStore((s) => s.userInfo?.id ?? null);
  const flat = useMenuStore((s) => s.flatMenuList);
  const { menu, fullPath } = useActiveMenu();

  useEffect(() => {
    if (userId !== null) useTabsStore.getState().setOwner(userId);
  }, [userId]);

  useEffect(() => {
    const affix = flat.filter((m) => m.metaIsAffix && m.menuType !== 'Button' && !m.path.includes(':')).map((m) => tabOf(m, m.path));
    useTabsStore.getState().setAffixTabs(affix);
  }, [flat, userId]);

  useEffect(() => {
    if (menu && !menu.metaIsFull) useTabsStore.getState().addTab(tabOf(menu, fullPath));
  }, [menu, fullPath, userId]);
}
