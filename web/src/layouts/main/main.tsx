import { Suspense } from 'react';
import { Spin } from 'antd';
import { useThemeStore } from '../../stores/theme.ts';
import AppFooter from '../footer.tsx';
import TabBar from '../tabs/tab-bar.tsx';
import KeepAliveOutlet from './keep-alive-outlet.tsx';

/** The page area of every layout: tab bar, the routed view (kept alive where asked), footer. */
export default function Main() {
  const tabs = useThemeStore((s) => s.tabs);
  const footer = useThemeStore((s) => s.footer);
  return (
    <div className="p8-main-wrap">
      {tabs && <TabBar />}
      <main className="p8-main" data-testid="layout-main">
        <Suspense fallback={<Spin className="p8-main-spin" />}>
          <KeepAliveOutlet />
        </Suspense>
      </main>
      {footer && <AppFooter />}
    </div>
  );
}
