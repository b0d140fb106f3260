import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, message, notification, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useTranslation } from 'react-i18next';
import { useGlobalStore } from '../stores/global.ts';
import { useAntdTheme } from '../stores/theme.ts';
import { setFeedback } from './feedback.ts';
import { useLoadingStore } from './loading.ts';

/**
 * App-wide providers: antd (locale, component size, theme from the stores), the context-aware
 * message / notification for non-React code, and the counted loading overlay. TanStack Query and antd's
 * App are provided to the signed-in screens only (screen-providers.tsx), so the sign-in page loads neither.
 */

/**
 * Context-aware message and notification instances for `feedback` (HTTP client, guard, version check).
 * Not antd's `App`, which would bring its modal to the sign-in page: the signed-in screens have their own
 * `App` (screen-providers.tsx).
 */
function FeedbackBridge() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  useEffect(() => setFeedback({ message: messageApi, notification: notificationApi }), [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
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
      <FeedbackBridge />
      <GlobalLoading />
      {children}
    </ConfigProvider>
  );
}
