import { useCallback, useEffect, useMemo, useReducer, type CSSProperties } from 'react';
import { Cascader } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DistrictNode } from '@p8/contract/basic';
import { regionChildrenQuery } from './api/get-region-children.ts';
import { useGlobalStore } from '../../stores/global.ts';
import { OWN_DISTRICTS, regionName } from './region-place.ts';

/**
 * The place of an address: a national region (province / city / county / town, loaded one level at a
 * time as the user opens it — the 45,000 regions never come to the browser at once), or one of the
 * tenant's own districts under a last entry "Own districts" (shown when the tenant has any). The value is
 * the path of keys: region codes (`['440000', '440300', '440305']`), or `OWN_DISTRICTS` followed by
 * `d<id>` keys (region-place.ts converts them to and from what an address stores).
 */

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

const ownOptions = (nodes: DistrictNode[]): Option[] =>
  nodes.map((n) => ({ value: `d${n.id}`, label: n.name, isLeaf: !n.children?.length, children: n.children?.length ? ownOptions(n.children) : undefined }));

export interface RegionCascaderProps {
  value?: string[];
  onChange?: (path: string[] | undefined) => void;
  /** The tenant's own districts (offered after the national regions when there are any). */
  ownDistricts?: DistrictNode[];
  placeholder?: string;
  disabled?: boolean;
  style?: CSSProperties;
  id?: string;
  'data-testid'?: string;
}

export function RegionCascader({ value, onChange, ownDistricts, placeholder, disabled, style, id, 'data-testid': testId }: RegionCascaderProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const language = useGlobalStore((s) => s.language);
  // Levels live in the query cache (shared by every cascader of the screen); a load re-renders this one.
  const [tick, loaded] = useReducer((n: number) => n + 1, 0);
  const load = useCallback(
    async (parent?: string) => {
      await queryClient.ensureQueryData(regionChildrenQuery(parent));
      loaded();
    },
    [queryClient],
  );

  // The provinces, and every level above the chosen region, so that its names show before any click.
  const regionPath = value && value[0] !== OWN_DISTRICTS ? value : [];
  const pathKey = regionPath.join(',');
  useEffect(() => {
    void Promise.all([undefined, ...pathKey.split(',').filter(Boolean).slice(0, -1)].map((code) => load(code)));
  }, [pathKey, load]);

  const options = useMemo(() => {
    const build = (parent?: string): Option[] | undefined =>
      queryClient.getQueryData(regionChildrenQuery(parent).queryKey)?.map((r) => ({ value: r.code, label: regionName(r, language), isLeaf: r.leaf, children: r.leaf ? undefined : build(r.code) }));
    const national = build() ?? [];
    return ownDistricts?.length ? [...national, { value: OWN_DISTRICTS, label: t('basic.region.ownDistricts'), isLeaf: false, children: ownOptions(ownDistricts) }] : national;
    // `tick` changes when a level arrives: the cache is read afresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient, ownDistricts, t, language, tick]);

  return (
    <Cascader<Option>
      id={id}
      options={options}
      value={value}
      onChange={(path) => onChange?.(path?.length ? (path as string[]) : undefined)}
      loadData={(selected) => void load(selected.at(-1)?.value)}
      changeOnSelect
      allowClear
      disabled={disabled}
      placeholder={placeholder ?? t('basic.region.placeholder')}
      style={{ width: '100%', ...style }}
      data-testid={testId}
    />
  );
}
