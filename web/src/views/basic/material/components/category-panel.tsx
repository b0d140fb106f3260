import { useMemo, useState, type Key } from 'react';
import { Button, Card, Empty, Input, Skeleton, Tooltip, Tree, Typography, type TreeDataNode } from 'antd';
import { ApartmentOutlined, MenuFoldOutlined, MenuUnfoldOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CategoryNode } from '@p8/contract/basic';
import { filterTree, parentIds } from '../../../../components/Tree/tree-utils.ts';

const ALL = 'all';

interface CategoryPanelProps {
  tree: CategoryNode[];
  loading: boolean;
  /** The chosen category (its sub-categories included), or undefined for all materials. */
  value: number | undefined;
  onChange: (categoryId: number | undefined) => void;
  onReload: () => void;
  /** Folded to a narrow strip, leaving the list the room. */
  folded: boolean;
  onFold: (folded: boolean) => void;
}

/** The category tree beside the material list: choosing a category filters the list to it and the categories below. */
export default function CategoryPanel({ tree, loading, value, onChange, onReload, folded, onFold }: CategoryPanelProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const text = search.trim().toLowerCase();
  const shown = useMemo(() => (text ? filterTree(tree, (c) => c.name.toLowerCase().includes(text)) : tree), [tree, text]);

  const treeData = useMemo<TreeDataNode[]>(() => {
    const toNodes = (nodes: CategoryNode[]): TreeDataNode[] =>
      nodes.map((c) => ({
        key: c.id,
        title: (
          <span className={c.enabled ? undefined : 'p8-basic-muted'} data-testid={`material-category-${c.id}`}>
            {c.name}
          </span>
        ),
        children: c.children?.length ? toNodes(c.children) : undefined,
      }));
    return [
      {
        key: ALL,
        title: <span data-testid="material-category-all">{t('basic.material.allCategories')}</span>,
        icon: <ApartmentOutlined />,
        children: toNodes(shown),
      },
    ];
  }, [shown, t]);

  if (folded) {
    return (
      <Card size="small" className="p8-basic-split-side p8-basic-split-side-folded" data-testid="material-category-panel">
        <Tooltip title={t('basic.material.showCategories')} placement="right">
          <Button type="text" icon={<MenuUnfoldOutlined />} onClick={() => onFold(false)} aria-label={t('basic.material.showCategories')} data-testid="material-category-unfold" />
        </Tooltip>
      </Card>
    );
  }

  // Everything open at first and during a search; afterwards what the user folded stays folded.
  const expandedKeys = text || expanded === null ? [ALL, ...parentIds(shown)] : expanded;

  return (
    <Card
      size="small"
      className="p8-basic-split-side"
      title={t('basic.material.categoryTree')}
      extra={
        <>
          <Tooltip title={t('basic.common.refresh')}>
            <Button type="text" size="small" icon={<ReloadOutlined />} onClick={onReload} aria-label={t('basic.common.refresh')} />
          </Tooltip>
          <Tooltip title={t('basic.material.hideCategories')}>
            <Button type="text" size="small" icon={<MenuFoldOutlined />} onClick={() => onFold(true)} aria-label={t('basic.material.hideCategories')} data-testid="material-category-fold" />
          </Tooltip>
        </>
      }
      data-testid="material-category-panel"
    >
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined />}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={t('basic.material.searchCategory')}
        data-testid="material-category-search"
      />
      <div className="p8-basic-side-tree">
        {loading ? (
          <Skeleton active paragraph={{ rows: 5 }} title={false} />
        ) : text && !shown.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('basic.common.noMatch')} />
        ) : (
          <Tree
            blockNode
            showIcon
            treeData={treeData}
            selectedKeys={[value ?? ALL]}
            expandedKeys={expandedKeys}
            onExpand={(keys) => setExpanded(keys)}
            onSelect={(keys) => {
              const key = keys[0];
              // Clicking the chosen node again keeps it chosen.
              if (key === undefined) return;
              onChange(key === ALL ? undefined : Number(key));
            }}
          />
        )}
      </div>
      {!loading && tree.length === 0 && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }}>
          {t('basic.material.noCategories')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
