import { useMemo } from 'react';
import { Avatar, Tag } from 'antd';
import { AppstoreOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MALL_CATEGORY_MAX_LEVEL, type MallCategoryNode } from '@p8/contract/mall';
import type { QueryParams } from '../../../app/http.ts';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import { sectionTreeTexts, TreeRecordTable, useTreeRecords, type TreeSearch } from '../../../components/RecordKit/TreeRecord.tsx';
import { LEVEL_COLORS } from '../../../components/Tree/tree-utils.ts';
import { getMallCategoryTree, mallCategoryTreeQueryKey, useMallCategoryTree } from '../../../components/Mall/api/get-mall-category-tree.ts';
import { deleteMallCategories } from './api/delete-categories.ts';
import { enableMallCategories } from './api/enable-categories.ts';
import MallCategoryDialog, { type MallCategoryForm } from './components/category-dialog.tsx';

const load = (params: QueryParams) => getMallCategoryTree(params.enabled === undefined ? undefined : String(params.enabled) === 'true');
const search = (params: QueryParams): TreeSearch<MallCategoryNode> => {
  const name = String(params.name ?? '').trim().toLowerCase();
  return { active: !!name || String(params.enabled ?? '') !== '', match: name ? (c) => c.name.toLowerCase().includes(name) : undefined };
};
const formOf = (row: MallCategoryNode): MallCategoryForm => ({ id: row.id, name: row.name, parentId: row.parentId, icon: row.icon, sort: row.sort, enabled: row.enabled });

/**
 * Mall → product categories: a two-level tree with icon, order and switch; add at the top or below a top
 * category, edit, delete (refused with sub-categories or products), enable.
 */
export default function MallCategoryPage() {
  const { t } = useTranslation();
  const treeTexts = useMemo(() => sectionTreeTexts(t, 'mall.category', MALL_CATEGORY_MAX_LEVEL), [t]);
  const fullTree = useMallCategoryTree();
  const records = useTreeRecords<MallCategoryNode, MallCategoryForm>({
    load,
    search,
    openNewRows: true,
    treeQueryKey: mallCategoryTreeQueryKey,
    remove: deleteMallCategories,
    enable: enableMallCategories,
    formOf,
  });
  const { writes } = records;
  const recordColumns = useRecordColumns();

  const columns = useMemo<ProColumn<MallCategoryNode>[]>(
    () => [
      { prop: 'name', title: t('mall.category.name'), search: true, lockSetting: true, width: 260 },
      {
        prop: 'icon',
        title: t('mall.category.icon'),
        width: 80,
        align: 'center',
        render: (v) => <Avatar shape="square" size={32} src={v ? String(v) : undefined} icon={v ? undefined : <AppstoreOutlined />} />,
      },
      {
        prop: 'level',
        title: t('mall.category.level'),
        width: 90,
        align: 'center',
        render: (_, row) => <Tag color={LEVEL_COLORS[row.level - 1]}>{t(`mall.category.level${row.level}`)}</Tag>,
      },
      { prop: 'productCount', title: t('mall.category.productCount'), width: 90, align: 'right' },
      { prop: 'sort', title: t('mall.common.sort'), width: 80, align: 'center' },
      recordColumns.status<MallCategoryNode>({
        record: 'mall_category',
        writes,
        confirmOff: (row) => t('mall.category.disableConfirm', { name: row.name }),
        column: { width: 100, align: 'center' },
      }),
      { prop: 'createdAt', title: t('mall.common.createdAt'), valueType: 'dateTime', width: 170 },
    ],
    [t, recordColumns, writes],
  );

  return (
    <div data-testid="mall-category-page">
      <TreeRecordTable<MallCategoryNode>
        record="mall_category"
        texts={treeTexts}
        maxLevel={MALL_CATEGORY_MAX_LEVEL}
        records={records}
        columns={columns}
        // The tree as the search shows it: the server filters it the same way (name, enabled).
        toolbarRight={<ExportRecordsButton record="mall_category" exportPath="/admin/mall/category/export" exportParams={() => records.tableRef.current?.getFilterParams() ?? {}} />}
      />
      <MallCategoryDialog {...records.dialog.props} tree={fullTree.data ?? []} onSaved={records.changed} />
    </div>
  );
}
