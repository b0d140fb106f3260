import { useMemo, useReducer, useState } from 'react';
import { Alert, Input, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Region, RegionMatch } from '@p8/contract/basic';
import { regionChildrenQuery } from '../../../../components/Pickers/api/get-region-children.ts';
import { searchRegions } from '../../../../components/Pickers/api/search-regions.ts';
import { regionName } from '../../../../components/Pickers/region-place.ts';
import { useGlobalStore } from '../../../../stores/global.ts';
import { LEVEL_COLORS } from '../../../../components/Tree/tree-utils.ts';

/** A row of the tree: a region, or the "loading" stand-in that gives an unopened region its expand icon. */
interface Row extends Partial<RegionMatch> {
  key: string;
  placeholder?: boolean;
  children?: Row[];
}

/**
 * China's administrative divisions, shared by every tenant and read-only: a tree opened one level at a
 * time (each level is asked for when its parent is expanded), or a search by name or code that lists
 * the matches with their paths.
 */
export default function NationalRegions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const language = useGlobalStore((s) => s.language);
  const provinces = useQuery(regionChildrenQuery());
  const [tick, loaded] = useReducer((n: number) => n + 1, 0);
  const [keyword, setKeyword] = useState('');
  const matches = useQuery({ queryKey: ['basic', 'region', 'search', keyword], queryFn: () => searchRegions(keyword), enabled: !!keyword, staleTime: Infinity });

  const tree = useMemo(() => {
    const rowsOf = (regions: Region[]): Row[] =>
      regions.map((r) => {
        if (r.leaf) return { key: r.code, ...r };
        const below = queryClient.getQueryData(regionChildrenQuery(r.code).queryKey);
        return { key: r.code, ...r, children: below ? rowsOf(below) : [{ key: `${r.code}-loading`, placeholder: true }] };
      });
    return rowsOf(provinces.data ?? []);
    // `tick` changes when a level arrives: the cache is read afresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [provinces.data, queryClient, tick]);

  const columns = useMemo<TableColumnsType<Row>>(
    () => [
      {
        dataIndex: 'name',
        title: t('basic.district.name'),
        render: (name: string, row) =>
          row.placeholder ? <Typography.Text type="secondary">{t('basic.region.loading')}</Typography.Text> : regionName({ name, nameEn: row.nameEn ?? '' }, language),
      },
      ...(keyword ? [{ key: 'path', title: t('basic.region.path'), render: (_: unknown, row: Row) => row.path?.map((p) => regionName(p, language)).join(' / ') }] : []),
      { dataIndex: 'code', title: t('basic.district.code'), width: 160 },
      {
        dataIndex: 'level',
        title: t('basic.district.level'),
        width: 110,
        align: 'center',
        render: (level: number | undefined) => (level ? <Tag color={LEVEL_COLORS[level - 1]}>{t(`basic.district.levels.${level}`)}</Tag> : null),
      },
    ],
    [t, keyword, language],
  );

  return (
    <div data-testid="national-regions">
      <Alert type="info" showIcon message={t('basic.region.sharedTip')} style={{ marginBottom: 12 }} />
      <Input.Search
        allowClear
        maxLength={50}
        placeholder={t('basic.region.searchPlaceholder')}
        onSearch={(value) => setKeyword(value.trim())}
        style={{ maxWidth: 360, marginBottom: 12 }}
        data-testid="region-search"
      />
      {keyword ? (
        <Table<Row>
          rowKey="key"
          size="middle"
          columns={columns}
          dataSource={(matches.data ?? []).map((m) => ({ key: m.code, ...m }))}
          loading={matches.isFetching}
          pagination={false}
          data-testid="region-matches"
          footer={() => t('basic.region.matchesTip', { count: matches.data?.length ?? 0 })}
        />
      ) : (
        <Table<Row>
          rowKey="key"
          size="middle"
          columns={columns}
          dataSource={tree}
          loading={provinces.isPending}
          pagination={false}
          scroll={{ y: 'calc(100vh - 360px)' }}
          expandable={{
            onExpand: (expanded, row) => {
              if (expanded && row.code && !row.leaf) void queryClient.ensureQueryData(regionChildrenQuery(row.code)).then(loaded);
            },
          }}
          data-testid="region-tree"
        />
      )}
    </div>
  );
}
