import { useEffect, useLayoutEffect } from 'react';
import { Button, Tooltip } from 'antd';
import { CompressOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useThemeStore, type LayoutName } from '../stores/theme.ts';
import ClassicLayout from './classic.tsx';
import ColumnsLayout from './columns.tsx';
import ThemeDrawer from './theme-drawer/theme-drawer.tsx';
import TransverseLayout from './transverse.tsx';
import { useLayoutVars } from './use-layout-root.ts';
import { useTabsSync } from './use-tabs-sync.ts';
import VerticalLayout from './vertical.tsx';
import './layout.css';

const LAYOUT_COMPONENTS: Record<LayoutName, () => React.JSX.Element> = {
  vertical: VerticalLayout,
  classic: ClassicLayout,
  transverse: TransverseLayout,
  columns: ColumnsLayout,
};

/** While maximized: a button (and Escape) to bring header, menus and tabs back. */
function MaximizeExit() {
  const { t } = useTranslation();
  const setTheme = useThemeStore((s) => s.setTheme);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !document.querySelector('.ant-modal-wrap, .ant-drawer-open') && setTheme('maximize', false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setTheme]);
  return (
    <Tooltip title={t('layout.maximizeExit')} placement="left">
      <Button className="p8-maximize-exit" shape="circle" icon={<CompressOutlined />} onClick={() => setTheme('maximize', false)} data-testid="maximize-exit" aria-label={t('layout.maximizeExit')} />
    </Tooltip>
  );
}

/** Narrow windows get the collapsed menu (once, when the window becomes narrow; the user may expand it). */
function useAutoCollapse() {
  useEffect(() => {
    const narrow = window.matchMedia('(max-width: 991px)');
    const apply = () => narrow.matches && useThemeStore.getState().setTheme('isCollapse', true);
    apply();
    narrow.addEventListener('change', apply);
    return () => narrow.removeEventListener('change', apply);
  }, []);
}

/** The shell around every dynamic screen: the layout chosen in the theme settings. */
export default function LayoutShell() {
  const layout = useThemeStore((s) => s.layout);
  const maximize = useThemeStore((s) => s.maximize);
  const vars = useLayoutVars();
  useTabsSync();
  useAutoCollapse();
  // The same variables on <html>, for what renders outside the layout (dialogs, drawers, dropdowns).
  useLayoutEffect(() => {
    const html = document.documentElement;
    for (const [name, value] of Object.entries(vars)) html.style.setProperty(name, String(value));
  }, [vars]);
  const Current = LAYOUT_COMPONENTS[layout] ?? VerticalLayout;
  return (
    <>
      <Current />
      <ThemeDrawer />
      {maximize && <MaximizeExit />}
    </>
  );
}
