import { Layout } from 'antd';
import { useMenuStore } from '../stores/menu.ts';
import HeaderTools from './header/header-tools.tsx';
import Logo from './logo.tsx';
import Main from './main/main.tsx';
import NavMenu from './menu/nav-menu.tsx';
import { useLayoutRoot } from './use-layout-root.ts';

/** Transverse: logo, a horizontal menu and the tools in one top bar; the page below. */
export default function TransverseLayout() {
  const { className, style, menuTheme } = useLayoutRoot('transverse');
  const menuTree = useMenuStore((s) => s.menuTree);
  return (
    <Layout className={className} style={style} data-testid="layout-transverse">
      <Layout.Header className={`p8-header p8-header-wide is-${menuTheme}`}>
        <div className="p8-header-brand">
          <Logo className={`is-${menuTheme}`} />
        </div>
        <div className="p8-header-menu">
          <NavMenu items={menuTree} mode="horizontal" theme={menuTheme} />
        </div>
        <HeaderTools />
      </Layout.Header>
      <Layout className="p8-container">
        <Main />
      </Layout>
    </Layout>
  );
}
