import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { matchRoutes, redirect, type LoaderFunctionArgs, type ShouldRevalidateFunction } from 'react-router';
import { getToken } from '../stores/auth.ts';
import { getLanguage, useGlobalStore } from '../stores/global.ts';
import { useMenuStore } from '../stores/menu.ts';
import {
  clearDynamicRoutes,
  FORBIDDEN_ROUTE_ID,
  isKnownScreen,
  isRouteAllowed,
  LAYOUT_ROUTE_ID,
  loadUserRoutes,
  routeTitle,
  type DataRouter,
  type RouteHandle,
} from './dynamic-routes.ts';
import { HOME_PATH, LOGIN_PATH, loginPathFor } from './navigate.ts';
import { systemTitleOf, useSystemConfigStore } from './system-config.ts';

/** Route guard (the numbered steps below), run as the root route's loader on every navigation. */
NProgress.configure({ minimum: 0.3, speed: 500, showSpinner: false });

export const WHITE_LIST = ['/login', '/403', '/404', '/500'];

let router: DataRouter | null = null;

const pathOf = (location: { pathname: string; search: string }) => location.pathname + location.search;

export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  NProgress.start();
  const url = new URL(request.url);
  const to = pathOf(url);
  const from = router?.state.initialized ? pathOf(router.state.location) : '';
  useGlobalStore.getState().setRouteInfo(from, to);
  const token = getToken();

  // 2. To login while signed in: back where the user came from. Without a token: no dynamic routes.
  if (url.pathname === LOGIN_PATH && token) {
    throw redirect(from && !from.startsWith(LOGIN_PATH) ? from : HOME_PATH);
  }
  if (!token) clearDynamicRoutes();

  // 3. White list passes.
  if (WHITE_LIST.includes(url.pathname)) return null;

  // 4. No token: to login, remembering where the user wanted to go.
  if (!token) throw redirect(loginPathFor(to));

  // 5. Menus not loaded: load them, add the routes, retry the navigation against the new routes.
  if (!useMenuStore.getState().loaded) {
    let ok: boolean;
    try {
      ok = await loadUserRoutes();
    } catch (error) {
      // 40100 has cleared the token already: to login. Anything else is a route error (500 page).
      if (!getToken()) throw redirect(loginPathFor(to));
      throw error;
    }
    // 6. No menus at all: the warning is shown and the session cleared by loadUserRoutes.
    if (!ok) throw redirect(LOGIN_PATH);
    throw redirect(to);
  }

  // A path no route of the user matches: a screen of the product the user may not open stays, and the
  // shell shows 403 (the FORBIDDEN_ROUTE_ID catch-all); anything else is not found.
  const matches = router ? matchRoutes(router.routes, url.pathname) : null;
  const leaf = matches?.[matches.length - 1];
  if (!leaf || (leaf.route.id === FORBIDDEN_ROUTE_ID && !(await isKnownScreen(url.pathname)))) throw redirect('/404');
  // A full-screen route of an earlier session has no shell around it: the 403 page itself. (A shell route
  // of an earlier session renders 403 in the shell, see routeOf.)
  if (leaf.route.id && !isRouteAllowed(leaf.route.id) && !matches?.some((m) => m.route.id === LAYOUT_ROUTE_ID)) throw redirect('/403');
  return null;
}

/** The guard runs on every navigation, not only when the root's params change. */
export const guardShouldRevalidate: ShouldRevalidateFunction = () => true;

/** 1. Document title: route title + " - " + system title. */
export function updateDocumentTitle() {
  if (!router) return;
  const language = getLanguage();
  const systemTitle = systemTitleOf(useSystemConfigStore.getState().config, language);
  let title = '';
  const { matches } = router.state;
  for (let i = matches.length - 1; i >= 0 && !title; i--) {
    title = routeTitle(matches[i]?.route.handle as RouteHandle | undefined, language);
  }
  document.title = title ? `${title} - ${systemTitle}` : systemTitle;
}

/** Progress bar and title follow the router; the title also follows the language and the config. */
export function installGuard(instance: DataRouter) {
  router = instance;
  instance.subscribe((state) => {
    if (state.navigation.state === 'idle' && state.initialized) {
      NProgress.done();
      updateDocumentTitle();
    }
  });
  useGlobalStore.subscribe((state, prev) => {
    if (state.language !== prev.language) updateDocumentTitle();
  });
  useSystemConfigStore.subscribe(updateDocumentTitle);
}
