import { createElement, useEffect, type ComponentType } from 'react';
import { App as AntdApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth.ts';
import { provideModal } from './feedback.ts';

/**
 * What the signed-in app's screens have around them and the sign-in page does without: TanStack Query
 * and antd's `App` context (`App.useApp()`: message, notification and modal following the theme). The
 * shell and every menu screen are wrapped by `withScreenProviders` where their lazy route resolves, so the
 * sign-in page downloads neither TanStack Query nor antd's modal.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    // The HTTP client shows every failure once; retrying would show it again. Calls are not paused
    // while offline: the client itself sends an offline user to /500.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// Cached query data belongs to the user who fetched it: drop it when a new session begins, so the next
// user of this tab never sees the previous user's rows, even for a moment. (At sign-in no data screen
// is mounted; clearing at sign-out would pull data from under screens still on the page.)
useAuthStore.subscribe((state, previous) => {
  if (state.token && state.token !== previous.token) queryClient.clear();
});

/** Hands `App.useApp()`'s modal to `feedback` (the HTTP client, guard and version check call it). */
function ModalBridge() {
  const { modal } = AntdApp.useApp();
  useEffect(() => provideModal(modal), [modal]);
  return null;
}

/** `Component` inside the app's one QueryClient and an antd `App` (nesting either is harmless). */
export function withScreenProviders<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithScreenProviders(props: P) {
    return createElement(
      QueryClientProvider,
      { client: queryClient },
      createElement(AntdApp, { component: false }, createElement(ModalBridge), createElement(Component, props)),
    );
  }
  WithScreenProviders.displayName = `WithScreenProviders(${Component.displayName ?? Component.name})`;
  return WithScreenProviders;
}
