import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../app/navigate.ts';
import { useTabsStore } from '../../stores/tabs.ts';
import { useThemeStore } from '../../stores/theme.ts';
import { useActiveMenu } from '../menu/use-active-menu.ts';

/**
 * The tab bar's actions. Each takes the tab it acts on (the current one by default); when the current
 * tab goes away, the view moves to its neighbour, or home when nothing is left.
 */
export function useTabActions() {
  const navigate = useNavigate();
  const { fullPath } = useActiveMenu();

  const goAfterClose = (closed: string[]) => {
    if (!closed.includes(fullPath)) return;
    const { tabs } = useTabsStore.getState();
    const fallback = tabs[tabs.length - 1]?.path ?? HOME_PATH;
    navigate(fallback);
  };

  const close = (path: string = fullPath) => {
    const before = useTabsStore.getState().tabs;
    const index = before.findIndex((t) => t.path === path);
    const tab = before[index];
    if (!tab || tab.affix) return;
    useTabsStore.getState().removeTab(path);
    if (path === fullPath) {
      const next = before[index + 1] ?? before[index - 1];
      navigate(next ? next.path : HOME_PATH);
    }
  };

  const closedBy = (apply: () => void) => {
    const before = useTabsStore.getState().tabs.map((t) => t.path);
    apply();
    const after = new Set(useTabsStore.getState().tabs.map((t) => t.path));
    goAfterClose(before.filter((p) => !after.has(p)));
  };

  return {
    fullPath,
    refresh: (path: string = fullPath) => {
      if (path !== fullPath) navigate(path);
      useTabsStore.getState().refresh(path);
    },
    maximize: () => useThemeStore.getState().setTheme('maximize', true),
    close,
    closeOthers: (path: string = fullPath) =>
      closedBy(() => {
        useTabsStore.getState().closeExcept([path]);
        if (path !== fullPath) navigate(path);
      }),
    closeSide: (side: 'left' | 'right', path: string = fullPath) => closedBy(() => useTabsStore.getState().closeSide(path, side)),
    closeAll: () =>
      closedBy(() => {
        useTabsStore.getState().closeExcept([]);
      }),
    open: (path: string) => navigate(path),
  };
}
