import { useMemo } from 'react';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATEGORY_MAX_LEVEL, type CategoryNode } from '@p8/contract/basic';
import type { QueryParams } from '../../../app/http.ts';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { ExcelButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { deleteCategories } from './api/delete-categories.ts';
import { enableCategories } from './api/enable-categories.ts';
import { CATEGORY_EXPORT_PATH } from './api/export-categories.ts';
import { categoryTreeQueryKey, getCategoryTree, useCategoryTree } from '../../../components/Pickers/api/get-category-tree.ts';
import { CATEGORY_IMPORT_PATH } from './api/import-categories.ts';
import CategoryDialog, { type CategoryForm } from './components/category-dialog.tsx';
import { TreeRecordTable, useTreeRecords, type TreeSearch } from '../../../components/RecordKit/TreeRecord.tsx';
import { LEVEL_COLORS } from '../../../components/Tree/tree-utils.ts';

/** The status filter goes to the server; the name is searched here. */
const load = (params: QueryParams) => getCategoryTree(params.enabled === undefined ? undefined : String(params.enabled) === 'true');
const search = (params: QueryParams): TreeSearch<CategoryNode> => {
  const name = String(params.name ?? '')
    .trim()
    .toLowerCase();
  return { active: !!name || String(params.enabled ?? '') !== '', match: name ? (c) => c.name.toLowerCase().includes(name) : undefined };
};
const formOf = (row: CategoryNode): CategoryForm => ({ id: row.id, name: row.name, parentId: row.parentId, sort: row.sort, remark: row.remark });

/**
 * Basic records → material categories: a tree of at most three levels as a tree table, searched by
 * name and status, with add (top level or below a row — not below a level-3 row), edit, delete (the
 * server refuses a category with sub-categories or materials), enable, Excel import and export.
 * Every category opens the first time it is seen, everything after a search; a reload keeps what the
 * user folded.
 */
export default function CategoryPage() {
  const { t } = useTranslation();
  const fullTree = useCategoryTree();
  const records = useTreeRecords<CategoryNode, CategoryForm>({ load, search, openNewRows: true, treeQueryKey: categoryTreeQueryKey, remove: deleteCategories, enable: enableCategories, formOf });
  const { writes } = records;
  const recordColumns = useRecordColumns();

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
      recordColumns.status<CategoryNode>({
        record: 'basic_category',
        writes,
        confirmOff: (row) => t('basic.category.disableConfirm', { name: row.name }),
        column: { width: 100, align: 'center' },
      }),
      { prop: 'remark', title: t('basic.common.remark'), ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', width: 170 },
    ],
    [t, recordColumns, writes],
  );

  return (
    <div className="p8-basic-page" data-testid="category-page">
      <TreeRecordTable<CategoryNode>
        record="basic_category"
        section="basic.category"
        maxLevel={CATEGORY_MAX_LEVEL}
        records={records}
        columns={columns}
        toolbarRight={
          <ExcelButtons
            record="basic_category"
            importPath={CATEGORY_IMPORT_PATH}
            template="category"
            exportPath={CATEGORY_EXPORT_PATH}
            exportParams={() => records.tableRef.current?.getFilterParams() ?? {}}
            onImported={records.changed}
          />
        }
      />
      <CategoryDialog {...records.dialog.props} tree={fullTree.data ?? []} onSaved={records.changed} />
    </div>
  );
}
