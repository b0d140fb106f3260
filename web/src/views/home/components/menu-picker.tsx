import { useMemo, useState } from 'react';
import { Empty, Input, Modal, Tree, type TreeDataNode } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MenuItem } from '@p8/contract/menu';
import { feedback } from '../../../app/feedback.ts';
import MenuIcon from '../../../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../../../stores/global.ts';
import { useMenuStore, visibleMenuTree } from '../../../stores/menu.ts';
import { menuTitle } from '../../../app/dynamic-routes.ts';
import { COMMON_MENU_LIMIT } from '../api/common-menus.ts';

interface MenuPickerProps {
  open: boolean;
  /** Ids chosen so far. */
  value: number[];
  onOk: (ids: number[]) => void;
  onCancel: () => void;
}

/** A screen the user can open from the home page: a menu with a view or a link. */
export function isPickable(item: MenuItem): boolean {
  return item.menuType === 'Menu' && !item.metaIsHide && (Boolean(item.component) || Boolean(item.metaIsLink));
}

/** Tree of every screen the user may open; directories group them. At most 30 can be ticked. */
export default function MenuPicker({ open, value, onOk, onCancel }: MenuPickerProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.common' });
  const language = useGlobalStore((s) => s.language);
  const menuTree = useMenuStore((s) => s.menuTree);
  const [checked, setChecked] = useState<number[]>(value);
  const [search, setSearch] = useState('');
  const [lastOpen, setLastOpen] = useState(open);
  if (open !== lastOpen) {
    setLastOpen(open);
    if (open) {
      setChecked(value);
      setSearch('');
    }
  }

  const treeData = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const build = (items: readonly MenuItem[]): TreeDataNode[] =>
      items.flatMap((item) => {
        const children = item.children?.length ? build(item.children) : [];
        const title = menuTitle(item, language);
        const matches = !needle || title.toLowerCase().includes(needle);
        const pickable = isPickable(item);
        if (!children.length && !(pickable && matches)) return [];
        return [
          {
            key: item.id,
            title: (
              <span className="p8-picker-node" data-testid={`home-common-option-${item.id}`}>
                <MenuIcon name={item.metaIcon} /> {title}
              </span>
            ),
            checkable: pickable,
            selectable: false,
            children: children.length ? children : undefined,
          },
        ];
      });
    return build(visibleMenuTree(menuTree));
  }, [menuTree, language, search]);

  const onCheck = (_: unknown, info: { node: { key: React.Key }; checked: boolean }) => {
    const id = Number(info.node.key);
    if (!info.checked) return setChecked(checked.filter((x) => x !== id));
    if (checked.includes(id)) return;
    if (checked.length >= COMMON_MENU_LIMIT) {
      feedback.message.warning(t('max', { max: COMMON_MENU_LIMIT }));
      return;
    }
    // New ones go to the end: the user's order stays.
    setChecked([...checked, id]);
  };

  return (
    <Modal
      open={open}
      title={t('pickerTitle')}
      onCancel={onCancel}
      onOk={() => onOk(checked)}
      width={460}
      destroyOnHidden
      data-testid="home-common-picker"
      okButtonProps={{ 'data-testid': 'home-common-picker-ok' } as Record<string, string>}
    >
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('pickerSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 12 }}
      />
      <div className="p8-picker-count">{t('pickerSelected', { count: checked.length, max: COMMON_MENU_LIMIT })}</div>
      <div className="p8-picker-tree">
        {treeData.length ? (
          <Tree checkable checkStrictly defaultExpandAll blockNode treeData={treeData} checkedKeys={checked} onCheck={onCheck} key={search} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pickerEmpty')} />
        )}
      </div>
    </Modal>
  );
}
