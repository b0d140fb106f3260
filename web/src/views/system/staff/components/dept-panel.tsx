import { useMemo, useState, type Key } from 'react';
import { Card, Checkbox, Empty, Input, Spin, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DeptNode } from '@p8/contract/system';
import { filterTree, mapTree, parentIds } from '../../../../components/Tree/tree-utils.ts';

/** Key of the "all departments" node (no filter). */
const ALL = 0;

interface DeptPanelProps {
  tree: DeptNode[];
  loading: boolean;
  /** The chosen department, or null for all. */
  value: number | null;
  onChange: (deptId: number | null) => void;
  includeChild: boolean;
  onIncludeChildChange: (include: boolean) => void;
}

/** The department tree left of the staff list: picks the department the list shows (with or without its sub-departments). */
export default function DeptPanel({ tree, loading, value, onChange, includeChild, onIncludeChildChange }: DeptPanelProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const text = search.trim().toLowerCase();
  const shown = useMemo(() => (text ? filterTree(tree, (d) => d.name.toLowerCase().includes(text)) : tree), [tree, text]);
  const treeData = useMemo<DataNode[]>(
    () => [
      {
        key: ALL,
        title: <span data-testid="staff-dept-all">{t('system.staff.allDepts')}</span>,
        icon: <ApartmentOutlined />,
        children: mapTree<DeptNode, DataNode>(shown, (d, children) => ({
          key: d.id,
          title: (
            <span className={d.enabled ? undefined : 'p8-staff-dept-off'} data-testid={`staff-dept-${d.id}`}>
              {d.name}
            </span>
          ),
          children,
        })),
      },
    ],
    [shown, t],
  );
  // Everything open at first and while searching; afterwards what the user opened.
  const keys = text || expanded === null ? [ALL, ...parentIds(shown)] : expanded;

  return (
    <Card className="p8-staff-dept" title={t('system.staff.deptTree')} size="small" data-testid="staff-dept-tree">
      <Input
        allowClear
        size="small"
        prefix={<SearchOutlined />}
        placeholder={t('system.staff.deptSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <Checkbox checked={includeChild} onChange={(e) => onIncludeChildChange(e.target.checked)} style={{ marginBottom: 8 }} data-testid="staff-include-child">
        <Typography.Text style={{ fontSize: 13 }}>{t('system.staff.includeChild')}</Typography.Text>
      </Checkbox>
      <Spin spinning={loading}>
        {tree.length || loading ? (
          <Tree
            blockNode
            showIcon={false}
            treeData={treeData}
            selectedKeys={[value ?? ALL]}
            expandedKeys={keys}
            onExpand={(next) => setExpanded(next)}
            onSelect={(selected, info) => onChange(!info.selected || Number(info.node.key) === ALL ? null : Number(info.node.key))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </Spin>
    </Card>
  );
}
