import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import Forbidden from '../views/error/403.tsx';
import NotFound from '../views/error/404.tsx';
import ServerError from '../views/error/500.tsx';
import { BootScreen } from './boot-screen.tsx';
import { attachRouter, FORBIDDEN_ROUTE_ID, LAYOUT_ROUTE_ID, ROOT_ROUTE_ID, type RouteHandle } from './dynamic-routes.ts';
import { guardLoader, guardShouldRevalidate, installGuard } from './guard.ts';
import { HOME_PATH, registerNavigator } from './navigate.ts';
import { loadScreenTexts } from '../locales/index.ts';
import { RouteError } from './route-error.tsx';

/**
 * Fixed routes (login, error pages, the shell). Dynamic routes are patched in by `dynamic-routes.ts`: under `layout`
 * (the shell, a pathless route so menu paths stay absolute: `/home/index`) or under `root` when
 * full-screen. Child redirects are `<Navigate>` elements so that the guard (root loader) decides first.
 */
const handle = (titleKey: string): RouteHandle => ({ titleKey });
const view = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const routes: RouteObject[] = [
  {
    id: ROOT_ROUTE_ID,
    path: '/',
    loader: guardLoader,
    shouldRevalidate: guardShouldRevalidate,
    element: <Outlet />,
    errorElement: <RouteError />,
    HydrateFallback: BootScreen,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { id: 'login', path: 'login', handle: handle('common.pageTitle.login'), lazy: view(() => import('../views/login/index.tsx')) },
      // The error pages are tiny and must work even when chunks cannot be fetched (offline): not lazy.
      { id: '403', path: '403', handle: handle('common.pageTitle.forbidden'), Component: Forbidden },
      { id: '404', path: '404', handle: handle('common.pageTitle.notFound'), Component: NotFound },
      { id: '500', path: '500', handle: handle('common.pageTitle.serverError'), Component: ServerError },
      {
        id: LAYOUT_ROUTE_ID,
        // The shell comes with the screens' texts, TanStack Query and antd's App context, none of which the sign-in page loads.
        lazy: async () => {
          const [layout, { withScreenProviders }] = await Promise.all([import('../layouts/index.tsx'), import('./screen-providers.tsx'), loadScreenTexts()]);
          return { Component: withScreenProviders(layout.default) };
        },
        children: [
          { id: 'layout-home', path: 'layout', element: <Navigate to={HOME_PATH} replace /> },
          // Every other path: the guard sends it to /404 unless it is a screen the user may not open (403 in the shell).
          { id: FORBIDDEN_ROUTE_ID, path: '*', handle: handle('common.pageTitle.forbidden'), Component: Forbidden },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

attachRouter(router);
installGuard(router);
registerNavigator(
  (to, options) => void router.navigate(to, options),
  () => router.state.location.pathname + router.state.location.search,
);
