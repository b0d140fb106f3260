import { Layout } from 'antd';
import { useMenuStore } from '../stores/menu.ts';
import { useThemeStore } from '../stores/theme.ts';
import HeaderLeft from './header/header-left.tsx';
import HeaderTools from './header/header-tools.tsx';
import Logo from './logo.tsx';
import Main from './main/main.tsx';
import NavMenu from './menu/nav-menu.tsx';
import { useAsideWidth, useLayoutRoot } from './use-layout-root.ts';

/** Classic: a header across the top with the logo; the side menu below it, the page beside. */
export default function ClassicLayout() {
  const { className, style, menuTheme } = useLayoutRoot('classic');
  const asideWidth = useAsideWidth();
  const collapsed = useThemeStore((s) => s.isCollapse);
  const menuTree = useMenuStore((s) => s.menuTree);
  return (
    <Layout className={className} style={style} data-testid="layout-classic">
      <Layout.Header className={`p8-header p8-header-wide is-${menuTheme}`}>
        <div className={`p8-header-brand ${collapsed ? 'is-collapsed' : ''}`}>
          <Logo className={`is-${menuTheme}`} />
        </div>
        <HeaderLeft />
        <HeaderTools />
      </Layout.Header>
      <Layout hasSider className="p8-body">
        <Layout.Sider className="p8-aside is-light" theme="light" width={asideWidth} collapsedWidth={64} collapsed={collapsed} trigger={null} collapsible>
          <div className="p8-aside-menu">
            <NavMenu items={menuTree} mode="inline" theme="light" collapsed={collapsed} />
          </div>
        </Layout.Sider>
        <Layout className="p8-container">
          <Main />
        </Layout>
      </Layout>
    </Layout>
  );
}
