import { useCallback, useMemo, useRef, useState, type Key } from 'react';
import { Button, Space, Tag, Tooltip } from 'antd';
import { MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DISTRICT_MAX_LEVEL, type DistrictNode } from '@p8/contract/basic';
import type { QueryParams } from '../../../app/http.ts';
import Auth from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { countTree, filterTree, LEVEL_COLORS, parentIds } from '../category/components/tree-utils.ts';
import { BatchButtons, notifyDeleted, RowActions } from '../unit/components/record-kit.tsx';
import { deleteDistricts } from './api/delete-districts.ts';
import { districtTreeQueryKey, getDistrictTree, useDistrictTree } from './api/get-district-tree.ts';
import DistrictDialog, { type DistrictForm } from './components/district-dialog.tsx';

/**
 * Basic records → districts for supplier and customer addresses: a tree of at most four levels
 * (province / city / county / town) as a tree table, searched by name or code, with add (top level or
 * below a row — not below a level-4 row), edit and delete (refused for a district with sub-districts or
 * used by an address).
 */
export default function DistrictPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<DistrictNode>>(undefined);
  const dialog = useFormDialog<DistrictForm>();
  const openDialog = dialog.open;
  const fullTree = useDistrictTree();
  const [rows, setRows] = useState<DistrictNode[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const searching = useRef(false);

  const request = useCallback(async (params: QueryParams) => {
    const name = String(params.name ?? '')
      .trim()
      .toLowerCase();
    const code = String(params.code ?? '').trim();
    searching.current = !!(name || code);
    const tree = await getDistrictTree();
    const data = name || code ? filterTree(tree, (d) => (!name || d.name.toLowerCase().includes(name)) && (!code || d.code.startsWith(code))) : tree;
    const total = countTree(data);
    return { data, pagination: { current: 1, pageSize: total, total } };
  }, []);

  // Districts are many: only a search opens the tree; otherwise the user unfolds what he needs.
  const onLoad = useCallback((data: DistrictNode[]) => {
    setRows(data);
    const parents = parentIds(data);
    setExpanded((current) => (searching.current ? parents : current.filter((k) => parents.includes(Number(k)))));
  }, []);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: districtTreeQueryKey });
  }, [queryClient]);

  const remove = useCallback(
    async (ids: number[]) => {
      await deleteDistricts(ids);
      notifyDeleted(t);
      tableRef.current?.clearSelection();
      changed();
    },
    [changed, t],
  );

  const open = useCallback(
    (mode: 'edit' | 'view', row: DistrictNode) => openDialog(mode, { id: row.id, name: row.name, code: row.code, parentId: row.parentId, sort: row.sort }),
    [openDialog],
  );

  const addChild = useCallback(
    (row: DistrictNode) => {
      setExpanded((keys) => (keys.includes(row.id) ? keys : [...keys, row.id]));
      openDialog('add', { parentId: row.id, sort: 0 });
    },
    [openDialog],
  );

  const columns = useMemo<ProColumn<DistrictNode>[]>(
    () => [
      { prop: 'name', title: t('basic.district.name'), search: true, lockSetting: true, width: 300 },
      { prop: 'code', title: t('basic.district.code'), search: true, width: 160, render: (v) => (v as string) || '—' },
      {
        prop: 'level',
        title: t('basic.district.level'),
        width: 110,
        align: 'center',
        render: (_, row) => <Tag color={LEVEL_COLORS[row.level - 1]}>{t(`basic.district.levels.${row.level}`)}</Tag>,
      },
      { prop: 'sort', title: t('basic.common.sort'), width: 80, align: 'center' },
      {
        prop: 'operation',
        title: t('basic.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 280,
        render: (_, row) => (
          <RowActions
            record="district"
            id={row.id}
            name={row.name}
            before={
              <Auth code="basic_district_add">
                {row.level >= DISTRICT_MAX_LEVEL ? (
                  <Tooltip title={t('basic.district.maxLevelTip', { max: DISTRICT_MAX_LEVEL })}>
                    <Button type="link" size="small" icon={<PlusOutlined />} disabled data-testid={`row-add-${row.id}`}>
                      {t('basic.district.addChild')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => addChild(row)} data-testid={`row-add-${row.id}`}>
                    {t('basic.district.addChild')}
                  </Button>
                )}
              </Auth>
            }
            onView={() => open('view', row)}
            onEdit={() => open('edit', row)}
            onDelete={() => remove([row.id])}
            deleteBlocked={row.children?.length ? t('basic.district.hasChildrenTip') : undefined}
          />
        ),
      },
    ],
    [t, open, remove, addChild],
  );

  const allParents = useMemo(() => parentIds(rows), [rows]);

  return (
    <div className="p8-basic-page" data-testid="district-page">
      <ProTable<DistrictNode>
        columns={columns}
        request={request}
        rowKey="id"
        listType="basic_district"
        pagination={false}
        rowSelection
        actionRef={tableRef}
        onLoad={onLoad}
        data-testid="district-table"
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), indentSize: 20 }}
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code="basic_district_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog('add', { parentId: null, sort: 0 })} data-testid="district-add">
                {t('basic.common.add')}
              </Button>
            </Auth>
            <BatchButtons record="district" selectedKeys={selectedRowKeys} onDelete={remove} />
            <Space.Compact>
              <Button icon={<PlusSquareOutlined />} onClick={() => setExpanded(allParents)} data-testid="district-expand">
                {t('basic.common.expandAll')}
              </Button>
              <Button icon={<MinusSquareOutlined />} onClick={() => setExpanded([])} data-testid="district-collapse">
                {t('basic.common.collapseAll')}
              </Button>
            </Space.Compact>
          </>
        )}
      />
      <DistrictDialog {...dialog.props} tree={fullTree.data ?? []} onSaved={changed} />
    </div>
  );
}
