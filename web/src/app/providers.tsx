import { useEffect, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../stores/global.ts';
import { useAntdTheme } from '../stores/theme.ts';
import { setFeedback } from './feedback.ts';
import { useLoadingStore } from './loading.ts';

/**
 * App-wide providers: antd (locale, component size, theme from the stores), the context-aware
 * message / notification / modal for non-React code, and the counted loading overlay. TanStack Query
 * is provided to the signed-in screens only (query-provider.tsx), so the sign-in page does not load it.
 */
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
  const language = useGlobalStore((s) => s.language);
  const componentSize = useGlobalStore((s) => s.componentSize);
  const theme = useAntdTheme();
  return (
    <ConfigProvider locale={language === 'zh' ? zhCN : enUS} componentSize={componentSize} theme={theme}>
      <AntdApp component={false}>
        <FeedbackBridge />
        <GlobalLoading />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}
