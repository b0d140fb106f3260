import { Breadcrumb } from 'antd';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../app/navigate.ts';
import MenuIcon from '../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../stores/global.ts';
import { useMenuStore } from '../stores/menu.ts';
import { useThemeStore } from '../stores/theme.ts';
import { menuTitle } from '../app/dynamic-routes.ts';
import { useActiveMenu } from './menu/use-active-menu.ts';

/** Where the current screen sits in the menu: home first, then its directories, then the screen. */
export default function AppBreadcrumb() {
  const navigate = useNavigate();
  const language = useGlobalStore((s) => s.language);
  const showIcon = useThemeStore((s) => s.breadcrumbIcon);
  const flat = useMenuStore((s) => s.flatMenuList);
  const { chain } = useActiveMenu();
  const home = flat.find((m) => m.path === HOME_PATH);
  const trail = home && chain[0]?.path !== HOME_PATH ? [home, ...chain] : chain;

  const items = trail.map((item, index) => {
    const last = index === trail.length - 1;
    const clickable = !last && item.menuType === 'Menu' && Boolean(item.component);
    const title = (
      <span className={`p8-breadcrumb-item ${clickable ? 'is-link' : ''}`} onClick={clickable ? () => navigate(item.path) : undefined}>
        {showIcon && item.metaIcon ? <MenuIcon name={item.metaIcon} style={{ marginInlineEnd: 4 }} /> : null}
        {menuTitle(item, language)}
      </span>
    );
    return { key: item.path, title };
  });

  return <Breadcrumb className="p8-breadcrumb" items={items} data-testid="breadcrumb" />;
}
