import { useMemo, useSyncExternalStore } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/**
 * Theme config (layout, colours, sizes), kept in local storage.
 * The antd side (primary colour, dark algorithm) is read through `useAntdTheme()`; the page side
 * (dark class, grey / weak filters on <html>) is applied here on every change, so it also holds on
 * screens outside the shell such as the login page.
 */
export const LAYOUTS = ['vertical', 'classic', 'transverse', 'columns'] as const;
export type LayoutName = (typeof LAYOUTS)[number];

/** Default theme primary colour. */
export const DEFAULT_PRIMARY = '#409EFF';

/** Swatches offered next to the colour input in the theme drawer. */
export const PRIMARY_PRESETS = [
  '#409EFF',
  '#1677FF',
  '#009688',
  '#13C2C2',
  '#52C41A',
  '#FAAD14',
  '#FA541C',
  '#F5222D',
  '#EB2F96',
  '#722ED1',
  '#2F54EB',
  '#304156',
] as const;

export interface ThemeConfigState {
  /** The view fills the window: header, menus and tabs are hidden. */
  maximize: boolean;
  layout: LayoutName;
  primary: string;
  isDark: boolean;
  isGrey: boolean;
  isWeak: boolean;
  /** Side menu collapsed to icons. */
  isCollapse: boolean;
  /** Dark side menu (and the columns bar) while the page itself stays light. */
  asideInverted: boolean;
  breadcrumb: boolean;
  breadcrumbIcon: boolean;
  tabs: boolean;
  tabsIcon: boolean;
  footer: boolean;
}

export const DEFAULT_THEME: ThemeConfigState = {
  maximize: false,
  layout: 'vertical',
  primary: DEFAULT_PRIMARY,
  isDark: false,
  isGrey: false,
  isWeak: false,
  isCollapse: false,
  asideInverted: true,
  breadcrumb: true,
  breadcrumbIcon: true,
  tabs: true,
  tabsIcon: true,
  footer: true,
};

interface ThemeActions {
  setTheme: <K extends keyof ThemeConfigState>(key: K, value: ThemeConfigState[K]) => void;
  toggleCollapse: () => void;
  resetTheme: () => void;
}

export type ThemeStore = ThemeConfigState & ThemeActions;

export const useThemeStore = create<ThemeStore>()(
  persist(
    (set) => ({
      ...DEFAULT_THEME,
      setTheme: (key, value) =>
        set(() => {
          const patch: Partial<ThemeConfigState> = { [key]: value };
          // Grey and weak (colour-weak) are two filters on the same element: one at a time.
          if (key === 'isGrey' && value) patch.isWeak = false;
          if (key === 'isWeak' && value) patch.isGrey = false;
          return patch;
        }),
      toggleCollapse: () => set((s) => ({ isCollapse: !s.isCollapse })),
      resetTheme: () => set({ ...DEFAULT_THEME }),
    }),
    {
      name: 'p8-theme',
      version: 1,
      partialize: ({ setTheme: _s, toggleCollapse: _t, resetTheme: _r, ...config }) => config,
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<ThemeConfigState>;
        const merged = { ...current, ...saved };
        if (!LAYOUTS.includes(merged.layout)) merged.layout = DEFAULT_THEME.layout;
        if (typeof merged.primary !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(merged.primary)) merged.primary = DEFAULT_PRIMARY;
        return merged;
      },
    },
  ),
);

/**
 * The antd ThemeConfig for the app's ConfigProvider: primary colour, light / dark algorithm, and antd's motion
 * (opening, closing and moving animations) off when `reducedMotion`.
 */
export function buildAntdTheme(config: Pick<ThemeConfigState, 'primary' | 'isDark'>, reducedMotion = false): ThemeConfig {
  return {
    algorithm: config.isDark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      motion: !reducedMotion,
      colorPrimary: config.primary,
      colorInfo: config.primary,
      colorLink: config.primary,
      borderRadius: 6,
      // Page background: softer than antd's pure black in dark mode.
      colorBgLayout: config.isDark ? '#101014' : '#f0f2f5',
    },
    components: {
      Layout: config.isDark
        ? { headerBg: '#141414', siderBg: '#141414', bodyBg: '#101014', headerPadding: '0 16px' }
        : { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f0f2f5', headerPadding: '0 16px' },
      Menu: { darkItemBg: config.isDark ? '#141414' : '#191a23', darkSubMenuItemBg: config.isDark ? '#0f0f0f' : '#12131a', darkPopupBg: '#191a23' },
    },
  };
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
function subscribeReducedMotion(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
/** Whether the system asks to reduce motion (`prefers-reduced-motion: reduce`), followed while it changes. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/** The antd theme of the stores; without motion for users whose system asks to reduce motion. */
export function useAntdTheme(): ThemeConfig {
  const primary = useThemeStore((s) => s.primary);
  const isDark = useThemeStore((s) => s.isDark);
  const reducedMotion = usePrefersReducedMotion();
  return useMemo(() => buildAntdTheme({ primary, isDark }, reducedMotion), [primary, isDark, reducedMotion]);
}

/** Dark class and colour filters on <html>. */
function applyToDocument(config: Pick<ThemeConfigState, 'isDark' | 'isGrey' | 'isWeak' | 'primary'>) {
  if (typeof document === 'undefined') return;
  const html = document.documentElement;
  html.classList.toggle('dark', config.isDark);
  html.style.colorScheme = config.isDark ? 'dark' : 'light';
  html.style.filter = config.isGrey ? 'grayscale(1)' : config.isWeak ? 'invert(80%)' : '';
  html.style.setProperty('--p8-primary', config.primary);
}

applyToDocument(useThemeStore.getState());
useThemeStore.subscribe((state, prev) => {
  if (state.isDark !== prev.isDark || state.isGrey !== prev.isGrey || state.isWeak !== prev.isWeak || state.primary !== prev.primary) {
    applyToDocument(state);
  }
});
