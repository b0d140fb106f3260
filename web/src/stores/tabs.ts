import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { onSessionClear } from '../app/session.ts';

/**
 * Open tabs of the tab bar, one per visited route keyed by its full path (path + query), and the
 * keep-alive cache keys: full paths whose views stay mounted while hidden. Tabs persist so a reload
 * keeps them; the cache keys do not (a reload mounts everything afresh).
 */
export interface TabItem {
  /** Full path: pathname + search. The tab's key. */
  path: string;
  /** Path of the menu item the tab shows (pathname). */
  menuPath: string;
  title: string;
  titleEn: string;
  icon: string | null;
  /** Affix tabs (metaIsAffix) cannot be closed. */
  affix: boolean;
  keepAlive: boolean;
}

interface TabsState {
  tabs: TabItem[];
  /** The user the tabs belong to; another user signing in starts from a clean bar. */
  owner: number | null;
  keepAliveKeys: string[];
  /** Bumped by refresh: part of the view's React key, so the view re-mounts. */
  refreshSeq: Record<string, number>;
}

interface TabsActions {
  /** Opens (or updates) a tab and, for a keep-alive route, registers its cache key. */
  addTab: (tab: TabItem) => void;
  /** Closes one tab (affix tabs stay) and drops its cache. */
  removeTab: (path: string) => void;
  /** Closes every closable tab except those in `keep`. */
  closeExcept: (keep: string[]) => void;
  /** Closes the closable tabs on one side of `path`. */
  closeSide: (path: string, side: 'left' | 'right') => void;
  /** Drops the cache of `path` and re-mounts its view. */
  refresh: (path: string) => void;
  /** Affix tabs from the menu: always present, kept at the front. */
  setAffixTabs: (affix: TabItem[]) => void;
  setOwner: (owner: number | null) => void;
  reset: () => void;
}

export type TabsStore = TabsState & TabsActions;

const initial: TabsState = { tabs: [], owner: null, keepAliveKeys: [], refreshSeq: {} };

export const useTabsStore = create<TabsStore>()(
  persist(
    (set) => ({
      ...initial,
      addTab: (tab) =>
        set((s) => {
          const index = s.tabs.findIndex((t) => t.path === tab.path);
          const tabs = index >= 0 ? s.tabs.map((t, i) => (i === index ? { ...t, ...tab, affix: t.affix || tab.affix } : t)) : [...s.tabs, tab];
          const keepAliveKeys = tab.keepAlive && !s.keepAliveKeys.includes(tab.path) ? [...s.keepAliveKeys, tab.path] : s.keepAliveKeys;
          return { tabs, keepAliveKeys };
        }),
      removeTab: (path) =>
        set((s) => {
          const tab = s.tabs.find((t) => t.path === path);
          if (!tab || tab.affix) return {};
          return { tabs: s.tabs.filter((t) => t.path !== path), keepAliveKeys: s.keepAliveKeys.filter((k) => k !== path) };
        }),
      closeExcept: (keep) =>
        set((s) => {
          const tabs = s.tabs.filter((t) => t.affix || keep.includes(t.path));
          const open = new Set(tabs.map((t) => t.path));
          return { tabs, keepAliveKeys: s.keepAliveKeys.filter((k) => open.has(k)) };
        }),
      closeSide: (path, side) =>
        set((s) => {
          const index = s.tabs.findIndex((t) => t.path === path);
          if (index < 0) return {};
          const tabs = s.tabs.filter((t, i) => t.affix || (side === 'left' ? i >= index : i <= index));
          const open = new Set(tabs.map((t) => t.path));
          return { tabs, keepAliveKeys: s.keepAliveKeys.filter((k) => open.has(k)) };
        }),
      refresh: (path) => set((s) => ({ refreshSeq: { ...s.refreshSeq, [path]: (s.refreshSeq[path] ?? 0) + 1 } })),
      setAffixTabs: (affix) =>
        set((s) => {
          const affixPaths = new Set(affix.map((t) => t.path));
          // Tabs that were affix but no longer are (menu changed) become ordinary closable tabs.
          const rest = s.tabs.filter((t) => !affixPaths.has(t.path)).map((t) => (t.affix ? { ...t, affix: false } : t));
          const merged = affix.map((a) => ({ ...(s.tabs.find((t) => t.path === a.path) ?? {}), ...a }));
          return { tabs: [...merged, ...rest] };
        }),
      setOwner: (owner) => set((s) => (s.owner === owner ? {} : { ...initial, owner })),
      reset: () => set({ ...initial }),
    }),
    {
      name: 'p8-tabs',
      version: 1,
      partialize: (s) => ({ tabs: s.tabs, owner: s.owner }),
    },
  ),
);

// Tabs belong to a session: signing out (or a 40100) starts the next sign-in from a clean bar.
onSessionClear(() => useTabsStore.getState().reset());
