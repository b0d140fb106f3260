import { createElement, type ComponentType } from 'react';
import { Navigate, useMatches, type RouteObject, type createBrowserRouter } from 'react-router';
import type { MenuItem } from '@p8/contract/menu';
import i18n, { loadScreenTexts } from '../locales/index.ts';
import { useAuthStore } from '../stores/auth.ts';
import { useMenuStore } from '../stores/menu.ts';
import type { Language } from '../stores/global.ts';
import { getCurrentDetail } from './api/get-current-detail.ts';
import { getCurrentRole } from './api/get-current-role.ts';
import { feedback } from './feedback.ts';
import Forbidden from '../views/error/403.tsx';
import NotFound from '../views/error/404.tsx';
import { RouteError } from './route-error.tsx';
import { clearSession } from './session.ts';

/**
 * Routes built from the signed-in user's menus. A Directory / Menu item
 * with a `component` becomes a lazily loaded view — `home/index` → `views/home/index.tsx` — under the
 * layout route, or at top level when it is full-screen (`metaIsFull`). Buttons are permissions, not routes.
 */
export type DataRouter = ReturnType<typeof createBrowserRouter>;
type ViewLoaderFor = (component: string) => (() => Promise<{ default: ComponentType }>) | undefined;

/** What a dynamic route carries in `handle.meta`; the shell reads it via `useCurrentMenu()`. */
export interface RouteMeta {
  id: number;
  name: string;
  path: string;
  component: string | null;
  title: { zh: string; en: string };
  icon: string | null;
  isAffix: boolean;
  isKeepAlive: boolean;
  isHide: boolean;
  isFull: boolean;
  /** External link address, when the menu is a link. */
  isLink: string | null;
  /** Path of the menu to highlight instead (detail pages hidden from the menu). */
  activeMenu: string | null;
  menu: MenuItem;
}

/** `handle` of every route: dynamic routes have `meta`; fixed routes name their title by i18n key. */
export interface RouteHandle {
  meta?: RouteMeta;
  titleKey?: string;
}

export const ROOT_ROUTE_ID = 'root';
export const LAYOUT_ROUTE_ID = 'layout';
const DYNAMIC_ID_PREFIX = 'menu:';

/*
 * Which files are screens (app/screens.ts: every view's lazy import with the chunks it preloads, and the
 * bill registry) is loaded with the user's routes or when the guard meets an unknown path — never on the
 * sign-in page, which needs none of it.
 */
let screens: typeof import('./screens.ts') | undefined;
export async function loadScreens(): Promise<typeof import('./screens.ts')> {
  if (!screens) {
    const loaded = await import('./screens.ts');
    await loaded.loadDeclaredScreens();
    screens = loaded;
  }
  return screens;
}

/**
 * Whether a path is one of the product's screens (a menu path names its view: `/system/staff` →
 * `views/system/staff/index.tsx`), whether or not the current user may open it. A known screen the user
 * may not open shows the 403 page inside the shell; any other unknown path the 404 page.
 */
export async function isKnownScreen(pathname: string): Promise<boolean> {
  const clean = pathname.replace(/\/+$/, '');
  return clean !== '' && clean !== '/login' && (await loadScreens()).viewLoaderFor(clean) !== undefined;
}

/** Whether the current user's menus hold a screen at `path` (a shortcut to it is shown only then). */
export function useMayOpen(path: string): boolean {
  return useMenuStore((s) => s.flatMenuList.some((item) => normalizePath(item.path) === path));
}

export function menuTitle(menu: Pick<MenuItem, 'metaTitle' | 'metaTitleEn'>, language: Language): string {
  return language === 'en' ? menu.metaTitleEn || menu.metaTitle : menu.metaTitle || menu.metaTitleEn;
}

/** Title of a route handle in a language (menu title, or the fixed route's translated title). */
export function routeTitle(handle: RouteHandle | undefined, language: Language): string {
  if (handle?.meta) return language === 'en' ? handle.meta.title.en : handle.meta.title.zh;
  if (handle?.titleKey) return i18n.t(handle.titleKey, { lng: language });
  return '';
}

const normalizePath = (path: string) => (path.startsWith('/') ? path : `/${path}`);
const routeIdOf = (item: MenuItem) => `${DYNAMIC_ID_PREFIX}${item.id}:${normalizePath(item.path)}`;

export function metaOf(item: MenuItem): RouteMeta {
  const { children: _children, ...menu } = item;
  return {
    id: item.id,
    name: item.name,
    path: normalizePath(item.path),
    component: item.component,
    title: { zh: item.metaTitle || item.metaTitleEn, en: item.metaTitleEn || item.metaTitle },
    icon: item.metaIcon,
    isAffix: item.metaIsAffix,
    isKeepAlive: item.metaIsKeepAlive,
    isHide: item.metaIsHide,
    isFull: item.metaIsFull,
    isLink: item.metaIsLink,
    activeMenu: item.metaActiveMenu,
    menu: menu as MenuItem,
  };
}


function routeOf(item: MenuItem, missing: string[], viewLoaderFor: ViewLoaderFor): RouteObject | null {
  if (!item.path) return null;
  const handle: RouteHandle = { meta: metaOf(item) };
  // A failing view shows the error page inside the shell rather than replacing it.
  const base = { id: routeIdOf(item), path: normalizePath(item.path), handle, ErrorBoundary: RouteError };
  if (item.component) {
    const load = viewLoaderFor(item.component);
    if (!load) {
      missing.push(item.component);
      return { ...base, Component: NotFound };
    }
    const routeId = base.id;
    return {
      ...base,
      lazy: async () => {
        // Full-screen screens hang outside the shell, so each screen brings its own providers (TanStack Query, antd's App).
        const [mod, { withScreenProviders }] = await Promise.all([load(), import('./screen-providers.tsx')]);
        // A route of an earlier session stays in the router: it shows 403 unless the current user has the screen.
        const View = withScreenProviders(mod.default);
        return { Component: () => createElement(isRouteAllowed(routeId) ? View : Forbidden) };
      },
    };
  }
  if (item.redirect) {
    // An element, not a loader: child loaders run beside the guard's, and the deepest redirect would win.
    return { ...base, element: createElement(Navigate, { to: item.redirect, replace: true }) };
  }
  return null;
}

/** Route id of the shell's catch-all: a known screen the user may not open (the guard sends other paths to 404). */
export const FORBIDDEN_ROUTE_ID = 'forbidden-screen';

/** Route objects for a screens-only menu tree, split by where they hang. */
export function buildDynamicRoutes(menuTree: readonly MenuItem[], viewLoaderFor: ViewLoaderFor): { layout: RouteObject[]; full: RouteObject[] } {
  const layout: RouteObject[] = [];
  const full: RouteObject[] = [];
  const missing: string[] = [];
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      if (item.menuType !== 'Button') {
        const route = routeOf(item, missing, viewLoaderFor);
        if (route) (item.metaIsFull ? full : layout).push(route);
      }
      if (item.children?.length) walk(item.children);
    }
  };
  walk(menuTree);
  // Menus whose screen is not built yet open the 404 view.
  if (missing.length) console.warn(`[routes] no view yet for: ${missing.join(', ')}`);
  return { layout, full };
}

let router: DataRouter | null = null;

export function attachRouter(instance: DataRouter) {
  router = instance;
}

function addRoutes(menuTree: readonly MenuItem[], viewLoaderFor: ViewLoaderFor) {
  if (!router) throw new Error('router not attached');
  const { layout, full } = buildDynamicRoutes(menuTree, viewLoaderFor);
  if (layout.length) router.patchRoutes(LAYOUT_ROUTE_ID, layout);
  if (full.length) router.patchRoutes(ROOT_ROUTE_ID, full);
}

/**
 * Whether a route may be shown to the current user. React Router cannot remove patched routes, so the
 * routes of an earlier session stay in the tree; "clearing" them means this check
 * refuses every dynamic route that is not in the current user's menus.
 */
export function isRouteAllowed(routeId: string): boolean {
  if (!routeId.startsWith(DYNAMIC_ID_PREFIX)) return true;
  const { loaded, flatMenuList } = useMenuStore.getState();
  return loaded && flatMenuList.some((item) => routeIdOf(item) === routeId);
}

/** Forgets the dynamic routes of the session (see `isRouteAllowed`). */
export function clearDynamicRoutes() {
  useMenuStore.getState().reset();
}

let loading: Promise<boolean> | null = null;

/**
 * Loads the user and the menus (GET /admin/current/detail and /admin/current/role) and adds the
 * routes. Resolves false when the account has no menu at all: then the "no access" warning is shown
 * and the session is cleared. Rejects when the calls fail (already shown to the user).
 */
export function loadUserRoutes(): Promise<boolean> {
  loading ??= (async () => {
    try {
      const [role, user, , { viewLoaderFor }] = await Promise.all([getCurrentRole(), getCurrentDetail(), loadScreenTexts(), loadScreens()]);
      useAuthStore.getState().setUserInfo(user);
      useMenuStore.getState().setRole(role);
      const { menuTree } = useMenuStore.getState();
      if (!menuTree.length) {
        feedback.notification.warning({
          key: 'no-menu-permission',
          title: i18n.t('common.noAccess'),
          description: i18n.t('error.NoMenuPermission'),
          duration: 3,
        });
        clearSession();
        return false;
      }
      addRoutes(menuTree, viewLoaderFor);
      return true;
    } finally {
      loading = null;
    }
  })();
  return loading;
}

/** The menu item of the deepest matched dynamic route (title, icon, affix, keep-alive…), if any. */
export function useCurrentMenu(): RouteMeta | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const meta = (matches[i]?.handle as RouteHandle | undefined)?.meta;
    if (meta) return meta;
  }
  return undefined;
}
