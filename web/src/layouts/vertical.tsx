import { Layout } from 'antd';
import { useMenuStore } from '../stores/menu.ts';
import { useThemeStore } from '../stores/theme.ts';
import HeaderLeft from './header/header-left.tsx';
import HeaderTools from './header/header-tools.tsx';
import Logo from './logo.tsx';
import Main from './main/main.tsx';
import NavMenu from './menu/nav-menu.tsx';
import { useAsideWidth, useLayoutRoot } from './use-layout-root.ts';

/** Vertical: the side menu with the logo on the left, header and page on the right. */
export default function VerticalLayout() {
  const { className, style, menuTheme } = useLayoutRoot('vertical');
  const asideWidth = useAsideWidth();
  const collapsed = useThemeStore((s) => s.isCollapse);
  const menuTree = useMenuStore((s) => s.menuTree);
  return (
    <Layout className={className} style={style} data-testid="layout-vertical" hasSider>
      <Layout.Sider className={`p8-aside is-${menuTheme}`} theme={menuTheme} width={asideWidth} collapsedWidth={64} collapsed={collapsed} trigger={null} collapsible>
        <Logo collapsed={collapsed} className={`is-${menuTheme}`} />
        <div className="p8-aside-menu">
          <NavMenu items={menuTree} mode="inline" theme={menuTheme} collapsed={collapsed} />
        </div>
      </Layout.Sider>
      <Layout className="p8-container">
        <Layout.Header className="p8-header">
          <HeaderLeft />
          <HeaderTools />
        </Layout.Header>
        <Main />
      </Layout>
    </Layout>
  );
}
