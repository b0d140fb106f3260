import { useCallback, useMemo, useRef, useState, type Key } from 'react';
import { Button, Space, Tag, Tooltip } from 'antd';
import { MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CATEGORY_MAX_LEVEL, type CategoryNode } from '@p8/contract/basic';
import type { QueryParams } from '../../../app/http.ts';
import Auth from '../../../components/Auth/index.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { BatchButtons, ExcelButtons, notifyDeleted, notifyEnabled, RowActions } from '../unit/components/record-kit.tsx';
import StatusSwitch from '../unit/components/status-switch.tsx';
import { deleteCategories } from './api/delete-categories.ts';
import { enableCategories } from './api/enable-categories.ts';
import { CATEGORY_EXPORT_PATH } from './api/export-categories.ts';
import { categoryTreeQueryKey, getCategoryTree, useCategoryTree } from './api/get-category-tree.ts';
import { CATEGORY_IMPORT_PATH } from './api/import-categories.ts';
import CategoryDialog, { type CategoryForm } from './components/category-dialog.tsx';
import { countTree, filterTree, LEVEL_COLORS, parentIds } from './components/tree-utils.ts';

/**
 * Basic records → material categories: a tree of at most three levels as a tree table, searched by
 * name and status, with add (top level or below a row — not below a level-3 row), edit, delete (the
 * server refuses a category with sub-categories or materials), enable, Excel import and export.
 */
export default function CategoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<CategoryNode>>(undefined);
  const dialog = useFormDialog<CategoryForm>();
  const openDialog = dialog.open;
  const fullTree = useCategoryTree();
  const [rows, setRows] = useState<CategoryNode[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const seenParents = useRef(new Set<number>());
  const lastSearch = useRef('');

  const request = useCallback(async (params: QueryParams) => {
    const enabled = params.enabled === undefined ? undefined : String(params.enabled) === 'true';
    const name = String(params.name ?? '')
      .trim()
      .toLowerCase();
    lastSearch.current = `${name}|${String(params.enabled ?? '')}`;
    const tree = await getCategoryTree(enabled);
    const data = name ? filterTree(tree, (c) => c.name.toLowerCase().includes(name)) : tree;
    const total = countTree(data);
    return { data, pagination: { current: 1, pageSize: total, total } };
  }, []);

  // Expand every category the first time it is seen, everything after a search; a reload keeps what the user folded.
  const onLoad = useCallback((data: CategoryNode[]) => {
    setRows(data);
    const parents = parentIds(data);
    const searching = lastSearch.current !== '|';
    // Outside the updater: React may run an updater twice, and the second run would see nothing fresh.
    const fresh = parents.filter((id) => !seenParents.current.has(id));
    parents.forEach((id) => seenParents.current.add(id));
    setExpanded((current) => (searching ? parents : [...current.filter((k) => parents.includes(Number(k))), ...fresh]));
  }, []);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: categoryTreeQueryKey });
  }, [queryClient]);

  const remove = useCallback(
    async (ids: number[]) => {
      await deleteCategories(ids);
      notifyDeleted(t);
      tableRef.current?.clearSelection();
      changed();
    },
    [changed, t],
  );

  const enable = useCallback(
    async (ids: number[], enabled: boolean) => {
      await enableCategories(ids, enabled);
      notifyEnabled(t, enabled);
      changed();
    },
    [changed, t],
  );

  const open = useCallback(
    (mode: 'edit' | 'view', row: CategoryNode) => openDialog(mode, { id: row.id, name: row.name, parentId: row.parentId, sort: row.sort, remark: row.remark }),
    [openDialog],
  );

  const columns = useMemo<ProColumn<CategoryNode>[]>(
    () => [
      { prop: 'name', title: t('basic.category.name'), search: true, lockSetting: true, width: 280 },
      {
        prop: 'level',
        title: t('basic.category.level'),
        width: 100,
        align: 'center',
        render: (_, row) => <Tag color={LEVEL_COLORS[row.level - 1]}>{t('basic.common.levelN', { level: row.level })}</Tag>,
      },
      { prop: 'sort', title: t('basic.common.sort'), width: 80, align: 'center' },
      {
        prop: 'enabled',
        title: t('basic.common.status'),
        width: 100,
        align: 'center',
        search: true,
        valueEnum: { true: { text: t('basic.common.enabled'), color: 'green' }, false: { text: t('basic.common.disabled') } },
        render: (_, row) => (
          <StatusSwitch
            code="basic_category_enable"
            checked={row.enabled}
            onChange={(on) => enable([row.id], on)}
            confirmOff={t('basic.category.disableConfirm', { name: row.name })}
            data-testid={`row-enable-${row.id}`}
          />
        ),
      },
      { prop: 'remark', title: t('basic.common.remark'), ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', width: 170 },
      {
        prop: 'operation',
        title: t('basic.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 280,
        render: (_, row) => (
          <RowActions
            record="category"
            id={row.id}
            name={row.name}
            before={
              <Auth code="basic_category_add">
                {row.level >= CATEGORY_MAX_LEVEL ? (
                  <Tooltip title={t('basic.category.maxLevelTip', { max: CATEGORY_MAX_LEVEL })}>
                    <Button type="link" size="small" icon={<PlusOutlined />} disabled data-testid={`row-add-${row.id}`}>
                      {t('basic.category.addChild')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Button type="link" size="small" icon={<PlusOutlined />} onClick={() => openDialog('add', { parentId: row.id, sort: 0 })} data-testid={`row-add-${row.id}`}>
                    {t('basic.category.addChild')}
                  </Button>
                )}
              </Auth>
            }
            onEdit={() => open('edit', row)}
            onView={() => open('view', row)}
            onDelete={() => remove([row.id])}
            deleteBlocked={row.children?.length ? t('basic.category.hasChildrenTip') : undefined}
          />
        ),
      },
    ],
    [t, enable, open, openDialog, remove],
  );

  const allParents = useMemo(() => parentIds(rows), [rows]);

  return (
    <div className="p8-basic-page" data-testid="category-page">
      <ProTable<CategoryNode>
        columns={columns}
        request={request}
        rowKey="id"
        listType="basic_category"
        pagination={false}
        rowSelection
        actionRef={tableRef}
        onLoad={onLoad}
        data-testid="category-table"
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), indentSize: 20 }}
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code="basic_category_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog('add', { parentId: null, sort: 0 })} data-testid="category-add">
                {t('basic.common.add')}
              </Button>
            </Auth>
            <BatchButtons record="category" selectedKeys={selectedRowKeys} onDelete={remove} onEnable={enable} />
            <Space.Compact>
              <Button icon={<PlusSquareOutlined />} onClick={() => setExpanded(allParents)} data-testid="category-expand">
                {t('basic.common.expandAll')}
              </Button>
              <Button icon={<MinusSquareOutlined />} onClick={() => setExpanded([])} data-testid="category-collapse">
                {t('basic.common.collapseAll')}
              </Button>
            </Space.Compact>
          </>
        )}
        toolbarRight={
          <ExcelButtons
            record="category"
            importPath={CATEGORY_IMPORT_PATH}
            template="category"
            exportPath={CATEGORY_EXPORT_PATH}
            exportParams={() => tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <CategoryDialog {...dialog.props} tree={fullTree.data ?? []} onSaved={changed} />
    </div>
  );
}
