import { useMemo, useState } from 'react';
import { Layout, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import type { MenuItem } from '@p8/contract/menu';
import MenuIcon from '../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../stores/global.ts';
import { useMenuStore, visibleMenuTree } from '../stores/menu.ts';
import { useThemeStore } from '../stores/theme.ts';
import HeaderLeft from './header/header-left.tsx';
import HeaderTools from './header/header-tools.tsx';
import Logo from './logo.tsx';
import Main from './main/main.tsx';
import { menuTitle } from '../app/dynamic-routes.ts';
import { isExternal, openExternal } from './menu/menu-utils.ts';
import NavMenu from './menu/nav-menu.tsx';
import { useActiveMenu } from './menu/use-active-menu.ts';
import { useAsideWidth, useLayoutRoot } from './use-layout-root.ts';

/**
 * Columns: a narrow column of first-level entries (icon over title); the second column holds the
 * menu below the chosen entry; header and page on the right.
 */
export default function ColumnsLayout() {
  const { className, style, menuTheme } = useLayoutRoot('columns');
  const asideWidth = useAsideWidth(true);
  const navigate = useNavigate();
  const language = useGlobalStore((s) => s.language);
  const collapsed = useThemeStore((s) => s.isCollapse);
  const menuTree = useMenuStore((s) => s.menuTree);
  const top = useMemo(() => visibleMenuTree(menuTree), [menuTree]);
  const { chain } = useActiveMenu();
  const routeTop = chain[0]?.path ?? '';

  // The chosen first-level entry follows the route; a click on an entry with children chooses it too.
  const [split, setSplit] = useState(routeTop);
  const [lastRouteTop, setLastRouteTop] = useState(routeTop);
  if (lastRouteTop !== routeTop) {
    setLastRouteTop(routeTop);
    setSplit(routeTop);
  }
  const chosen = top.find((m) => m.path === split);
  const subMenu = chosen?.children?.filter((c) => !c.metaIsHide) ?? [];

  const onTopClick = (item: MenuItem) => {
    if (isExternal(item)) return openExternal(item);
    if (item.children?.some((c) => !c.metaIsHide)) return setSplit(item.path);
    setSplit(item.path);
    navigate(item.path);
  };

  return (
    <Layout className={className} style={style} data-testid="layout-columns" hasSider>
      <div className={`p8-columns-bar p8-aside is-${menuTheme}`}>
        <Logo collapsed className={`is-${menuTheme}`} />
        <ul className="p8-columns-list">
          {top.map((item) => {
            const title = menuTitle(item, language);
            return (
              <li key={item.path}>
                <Tooltip title={title} placement="right" mouseEnterDelay={0.6}>
                  <button
                    type="button"
                    className={`p8-columns-item ${split === item.path ? 'is-active' : ''}`}
                    onClick={() => onTopClick(item)}
                    data-testid={`columns-item-${item.path}`}
                  >
                    <MenuIcon name={item.metaIcon} fallback className="p8-columns-icon" />
                    <span className="p8-columns-title">{title}</span>
                  </button>
                </Tooltip>
              </li>
            );
          })}
        </ul>
      </div>
      {subMenu.length > 0 && chosen && (
        <Layout.Sider className="p8-aside p8-columns-sub is-light" theme="light" width={asideWidth} collapsedWidth={64} collapsed={collapsed} trigger={null} collapsible>
          <div className="p8-columns-sub-title">{collapsed ? <MenuIcon name={chosen.metaIcon} fallback /> : menuTitle(chosen, language)}</div>
          <div className="p8-aside-menu">
            <NavMenu items={subMenu} mode="inline" theme="light" collapsed={collapsed} />
          </div>
        </Layout.Sider>
      )}
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
