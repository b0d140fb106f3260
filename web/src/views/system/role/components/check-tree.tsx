import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Checkbox, Empty, Input, Space, Tooltip, Tree, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import { filterTree, mapTree, parentIds, toggleChecked, treeIds, type TreeItem } from '../../../../components/Tree/tree-utils.ts';
import './check-tree.css';

export interface CheckTreeProps<T extends TreeItem<T>> {
  /** Checked ids (a form field's value). */
  value?: number[];
  onChange?: (value: number[]) => void;
  nodes: T[];
  renderTitle: (node: T) => ReactNode;
  disabled?: boolean;
  /** Tree height in px: a virtual list above this (hundreds of menus). */
  height?: number;
  /** Start expanded: every node with children, or only these. */
  defaultExpanded?: 'all' | number[];
  /** Linkage also checks the nodes above a checked one (menus: a button needs its screen); default true. */
  linkUp?: boolean;
  /** The text a search matches (shows a search box); the matches show with the path to them. */
  searchText?: (node: T) => string;
  /** Shown right of the toolbar: "n selected". */
  countText?: (count: number) => ReactNode;
  'data-testid'?: string;
}

/**
 * A checkable tree whose nodes each keep their own state (a screen may be granted without its buttons,
 * a department without its sub-departments), with the toolbar of an admin permission tree: expand /
 * collapse all, check all / none, and parent-child linkage (on by default: checking a node checks what is
 * below and above it, unchecking it unchecks what is below). A node with some but not all of its
 * subtree checked shows half-checked when it is not checked itself.
 */
export default function CheckTree<T extends TreeItem<T>>(props: CheckTreeProps<T>) {
  const { value, onChange, nodes, renderTitle, disabled, height = 420, defaultExpanded = 'all', linkUp = true, searchText, countText } = props;
  const { t } = useTranslation();
  const checked = useMemo(() => new Set(value ?? []), [value]);
  const [linkage, setLinkage] = useState(true);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const [search, setSearch] = useState('');
  const allParents = useMemo(() => parentIds(nodes), [nodes]);
  const allIds = useMemo(() => treeIds(nodes), [nodes]);
  const query = search.trim().toLowerCase();
  // Checks always act on the whole tree; a search only narrows what is shown (all of it open).
  const shown = useMemo(
    () => (query && searchText ? filterTree(nodes, (node) => searchText(node).toLowerCase().includes(query)) : nodes),
    [nodes, query, searchText],
  );
  const expandedKeys = query ? parentIds(shown) : (expanded ?? (defaultExpanded === 'all' ? allParents : defaultExpanded));

  const treeData = useMemo(() => mapTree<T, DataNode>(shown, (node, children) => ({ key: node.id, title: renderTitle(node), children })), [shown, renderTitle]);

  // Half-checked: not checked, but something below is.
  const halfChecked = useMemo(() => {
    const half: number[] = [];
    // Returns whether the node or anything below it is checked, collecting the half-checked on the way.
    const visit = (node: T): boolean => {
      let below = false;
      for (const child of node.children ?? []) below = visit(child) || below;
      if (below && !checked.has(node.id)) half.push(node.id);
      return below || checked.has(node.id);
    };
    nodes.forEach(visit);
    return half;
  }, [nodes, checked]);

  const set = (next: Iterable<number>) => {
    const known = new Set(allIds);
    onChange?.([...next].filter((id) => known.has(id)).sort((a, b) => a - b));
  };

  const allChecked = allIds.length > 0 && allIds.every((id) => checked.has(id));

  return (
    <div className="p8-check-tree" data-testid={props['data-testid']}>
      <div className="p8-check-tree-toolbar">
        <Space size={4} wrap>
          <Button size="small" onClick={() => setExpanded(allParents)} data-testid="check-tree-expand">
            {t('system.common.expandAll')}
          </Button>
          <Button size="small" onClick={() => setExpanded([])} data-testid="check-tree-collapse">
            {t('system.common.collapseAll')}
          </Button>
          <Checkbox
            checked={allChecked}
            indeterminate={!allChecked && checked.size > 0}
            disabled={disabled}
            onChange={(e) => set(e.target.checked ? allIds : [])}
            data-testid="check-tree-all"
            style={{ marginInlineStart: 8 }}
          >
            {t('system.common.checkAll')}
          </Checkbox>
          <Tooltip title={linkUp ? t('system.common.linkageTip') : t('system.common.linkageDownTip')}>
            <Checkbox checked={linkage} onChange={(e) => setLinkage(e.target.checked)} data-testid="check-tree-linkage">
              {t('system.common.linkage')}
            </Checkbox>
          </Tooltip>
        </Space>
        <Space size={12}>
          {searchText && (
            <Input
              size="small"
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('system.common.searchPlaceholder')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              style={{ width: 180 }}
              data-testid="check-tree-search"
            />
          )}
          {countText && <Typography.Text type="secondary">{countText(checked.size)}</Typography.Text>}
        </Space>
      </div>
      <div className="p8-check-tree-body">
        {treeData.length ? (
          <Tree
            checkable
            checkStrictly
            blockNode
            selectable={false}
            disabled={disabled}
            height={height}
            treeData={treeData}
            expandedKeys={expandedKeys}
            onExpand={(keys) => setExpanded(keys)}
            checkedKeys={{ checked: [...checked], halfChecked }}
            onCheck={(_, info) => set(toggleChecked(nodes, checked, Number(info.node.key), info.checked, linkage, linkUp))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </div>
    </div>
  );
}
