import { useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import type { MenuItem } from '@p8/contract/menu';
import MenuIcon from '../../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../../stores/global.ts';
import { visibleMenuTree } from '../../stores/menu.ts';
import { useActiveMenu } from './use-active-menu.ts';
import { menuTitle } from '../../app/dynamic-routes.ts';
import { isExternal, openExternal } from './menu-utils.ts';

type AntdItem = Required<MenuProps>['items'][number];

interface NavMenuProps {
  /** The (sub)tree to show. */
  items: readonly MenuItem[];
  mode: 'inline' | 'horizontal';
  theme: 'light' | 'dark';
  /** Collapsed to icons (inline menus take it from their Sider; this only stops controlling open keys). */
  collapsed?: boolean;
}

function findByPath(items: readonly MenuItem[], path: string): MenuItem | undefined {
  for (const item of items) {
    if (item.path === path) return item;
    const found = item.children ? findByPath(item.children, path) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The menu of a layout: screens of the menu tree, titles in the current language, links open a new window. */
export default function NavMenu({ items, mode, theme, collapsed = false }: NavMenuProps) {
  const navigate = useNavigate();
  const language = useGlobalStore((s) => s.language);
  const { activePath, chain } = useActiveMenu();
  const tree = useMemo(() => visibleMenuTree(items), [items]);

  const antdItems = useMemo(() => {
    const build = (list: readonly MenuItem[]): AntdItem[] =>
      list.map((item) => {
        const icon = item.metaIcon ? <MenuIcon name={item.metaIcon} fallback /> : undefined;
        const title = menuTitle(item, language);
        // `title`: a label cut by the menu's width still reads whole on hover.
        const label = (
          <span data-testid={`menu-item-${item.path}`} title={title}>
            {title}
          </span>
        );
        if (item.children?.length) return { key: item.path, icon, label, children: build(item.children) };
        return { key: item.path, icon, label };
      });
    return build(tree);
  }, [tree, language]);

  // Parents of the active entry open on navigation; the user may open or close others meanwhile.
  const activeParents = useMemo(() => chain.slice(0, -1).map((m) => m.path), [chain]);
  const [openKeys, setOpenKeys] = useState<string[]>(activeParents);
  const [lastParents, setLastParents] = useState(activeParents);
  if (lastParents !== activeParents) {
    setLastParents(activeParents);
    setOpenKeys((keys) => Array.from(new Set([...keys, ...activeParents])));
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = findByPath(tree, String(key));
    if (!item) return;
    if (isExternal(item)) openExternal(item);
    else navigate(item.path);
  };

  const inlineOpen = mode === 'inline' && !collapsed ? { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) } : {};

  return (
    <Menu
      className={`p8-nav-menu p8-nav-menu-${mode}`}
      mode={mode}
      theme={theme}
      items={antdItems}
      selectedKeys={[activePath]}
      onClick={onClick}
      {...inlineOpen}
      style={{ borderInlineEnd: 'none', borderBottom: mode === 'horizontal' ? 'none' : undefined, background: 'transparent', flex: mode === 'horizontal' ? 1 : undefined, minWidth: 0 }}
    />
  );
}
