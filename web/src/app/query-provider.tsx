import { createElement, type ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth.ts';

/**
 * TanStack Query for the signed-in app. Only screens behind sign-in use it, so it is loaded with them
 * (the shell and every menu screen are wrapped by `withQueries` where their lazy route resolves) and the
 * sign-in page downloads none of it.
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

/** `Component` inside the app's one QueryClient (nesting the provider with the same client is harmless). */
export function withQueries<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithQueries(props: P) {
    return createElement(QueryClientProvider, { client: queryClient }, createElement(Component, props));
  }
  WithQueries.displayName = `WithQueries(${Component.displayName ?? Component.name})`;
  return WithQueries;
}
