import { useEffect, useState, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../stores/global.ts';
import { useAntdTheme } from '../stores/theme.ts';
import { setFeedback } from './feedback.ts';
import { useAuthStore } from '../stores/auth.ts';
import { useLoadingStore } from './loading.ts';

/**
 * App-wide providers: antd (locale, component size, theme from the stores), TanStack Query, the
 * context-aware message / notification / modal for non-React code, and the counted loading overlay.
 */
function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // The HTTP client shows every failure once; retrying would show it again. Calls are not paused
      // while offline: the client itself sends an offline user to /500.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** Hands `App.useApp()`'s instances to `feedback` (HTTP client, guard, version check). */
function FeedbackBridge() {
  const { message, notification, modal } = AntdApp.useApp();
  useEffect(() => setFeedback({ message, notification, modal }), [message, notification, modal]);
  return null;
}

/** Fullscreen spinner while any counted request is pending. */
function GlobalLoading() {
  const pending = useLoadingStore((s) => s.pending);
  const { t } = useTranslation();
  return <Spin fullscreen spinning={pending > 0} delay={200} description={t('common.loading')} />;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  // Cached query data belongs to the user who fetched it: drop it when a new session begins, so the next
  // user of this tab never sees the previous user's rows, even for a moment. (At sign-in no data screen
  // is mounted; clearing at sign-out would pull data from under screens still on the page.)
  useEffect(
    () =>
      useAuthStore.subscribe((state, previous) => {
        if (state.token && state.token !== previous.token) queryClient.clear();
      }),
    [queryClient],
  );
  const language = useGlobalStore((s) => s.language);
  const componentSize = useGlobalStore((s) => s.componentSize);
  const theme = useAntdTheme();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={language === 'zh' ? zhCN : enUS} componentSize={componentSize} theme={theme}>
        <AntdApp component={false}>
          <FeedbackBridge />
          <GlobalLoading />
          {children}
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
