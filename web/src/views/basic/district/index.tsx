import { useMemo } from 'react';
import { Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DISTRICT_MAX_LEVEL, type DistrictNode } from '@p8/contract/basic';
import type { QueryParams } from '../../../app/http.ts';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { sectionTreeTexts, TreeRecordTable, useTreeRecords, type TreeSearch } from '../../../components/RecordKit/TreeRecord.tsx';
import { LEVEL_COLORS } from '../../../components/Tree/tree-utils.ts';
import { deleteDistricts } from './api/delete-districts.ts';
import { districtTreeQueryKey, getDistrictTree, useDistrictTree } from '../../../components/Pickers/api/get-district-tree.ts';
import DistrictDialog, { type DistrictForm } from './components/district-dialog.tsx';
import NationalRegions from './components/national-regions.tsx';

const load = () => getDistrictTree();
/** Name (contains) and code (starts with), both searched here. */
const search = (params: QueryParams): TreeSearch<DistrictNode> => {
  const name = String(params.name ?? '')
    .trim()
    .toLowerCase();
  const code = String(params.code ?? '').trim();
  const active = !!(name || code);
  return { active, match: active ? (d) => (!name || d.name.toLowerCase().includes(name)) && (!code || d.code.startsWith(code)) : undefined };
};
const formOf = (row: DistrictNode): DistrictForm => ({ id: row.id, name: row.name, code: row.code, parentId: row.parentId, sort: row.sort });

/**
 * Basic records → districts, in two tabs. National regions: China's administrative divisions, shared by
 * every tenant and read-only (components/national-regions.tsx). Own districts: the tenant's own places
 * for supplier and customer addresses (an industrial park, a market…): a tree of at most four levels
 * (province / city / county / town) as a tree table, searched by name or code, with add (top level or
 * below a row — not below a level-4 row), edit and delete (refused for a district with sub-districts or
 * used by an address). Districts are many: only a search opens the tree (and adding below a row opens
 * that row); otherwise the user unfolds what he needs.
 */
export default function DistrictPage() {
  const { t } = useTranslation();
  const treeTexts = useMemo(() => sectionTreeTexts(t, 'basic.district', DISTRICT_MAX_LEVEL), [t]);
  const fullTree = useDistrictTree();
  const records = useTreeRecords<DistrictNode, DistrictForm>({ load, search, openNewRows: false, treeQueryKey: districtTreeQueryKey, remove: deleteDistricts, formOf });

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
    ],
    [t],
  );

  return (
    <div className="p8-basic-page" data-testid="district-page">
      <Tabs
        items={[
          { key: 'national', label: t('basic.region.national'), children: <NationalRegions /> },
          {
            key: 'own',
            label: t('basic.region.ownDistricts'),
            children: (
              <>
                <TreeRecordTable<DistrictNode> record="basic_district" texts={treeTexts} maxLevel={DISTRICT_MAX_LEVEL} records={records} columns={columns} />
                <DistrictDialog {...records.dialog.props} tree={fullTree.data ?? []} onSaved={records.changed} />
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
