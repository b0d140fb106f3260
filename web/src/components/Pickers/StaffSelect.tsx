import { useMemo, useState, type CSSProperties } from 'react';
import { Select, Space, Spin, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounceFn } from '../../hooks/useDebounceFn.ts';
import { staffOptionsQuery, type StaffOption } from './api/list-staff-options.ts';

interface CommonProps {
  /** Names of ids that may not be among the results (the manager of the record being edited). */
  known?: Array<Pick<StaffOption, 'id' | 'label'> & Partial<StaffOption>>;
  placeholder?: string;
  disabled?: boolean;
  style?: CSSProperties;
  id?: string;
  'data-testid'?: string;
}

export interface StaffSelectMultipleProps extends CommonProps {
  mode: 'multiple';
  value?: number[];
  onChange?: (ids: number[]) => void;
}

export interface StaffSelectSingleProps extends CommonProps {
  mode?: undefined;
  value?: number | null;
  onChange?: (id: number | null) => void;
}

/**
 * Enabled staff of the tenant, searched by real name as the user types (debounced 500 ms). A Form.Item
 * control: one id, or several with `mode="multiple"`. Chosen staff keep their names whatever the
 * current search lists.
 */
export default function StaffSelect(props: StaffSelectMultipleProps | StaffSelectSingleProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.staff' });
  const { known = [], placeholder, disabled, style } = props;
  const [search, setSearch] = useState('');
  const debounced = useDebounceFn((text: string) => setSearch(text));
  const query = useQuery({ ...staffOptionsQuery(search), placeholderData: keepPreviousData });
  // Names of chosen staff, remembered when chosen: a later search may no longer list them.
  const [remembered, setRemembered] = useState<Map<number, StaffOption>>(() => new Map());
  const remember = (ids: number[]) => {
    const found = (query.data ?? []).filter((o) => ids.includes(o.id));
    if (found.length) setRemembered((map) => new Map([...map, ...found.map((o) => [o.id, o] as const)]));
  };

  const selected = props.mode === 'multiple' ? (props.value ?? []) : props.value ? [props.value] : [];
  const selectedKey = selected.join(',');
  const knownKey = known.map((k) => `${k.id}:${k.label}`).join(',');
  const options = useMemo(() => {
    const found = query.data ?? [];
    const extra = selected
      .filter((id) => !found.some((o) => o.id === id))
      .map((id): StaffOption => {
        const named = remembered.get(id) ?? known.find((k) => k.id === id);
        return { id, label: named?.label ?? `#${id}`, account: named?.account ?? '', deptName: named?.deptName ?? null };
      });
    return [...found, ...extra].map((o) => ({ value: o.id, label: o.label, option: o }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `selected` and `known` are keyed by their texts
  }, [query.data, selectedKey, knownKey, remembered]);

  const common = {
    id: props.id,
    showSearch: { filterOption: false, onSearch: (text: string) => debounced.run(text) },
    options,
    optionRender: (item: { data: Record<string, unknown> }) => {
      const o = item.data.option as StaffOption;
      return (
        <Space size={6}>
          <span>{o.label}</span>
          {o.account && o.account !== o.label && <Typography.Text type="secondary">@{o.account}</Typography.Text>}
          {o.deptName && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              · {o.deptName}
            </Typography.Text>
          )}
        </Space>
      );
    },
    placeholder: placeholder ?? t('search'),
    notFoundContent: query.isFetching ? <Spin size="small" /> : t('empty'),
    loading: query.isFetching,
    disabled,
    allowClear: true,
    onBlur: () => setSearch(''),
    style: { width: '100%', ...style },
    'data-testid': props['data-testid'],
  };

  if (props.mode === 'multiple') {
    return <Select<number[]> {...common} mode="multiple" maxTagCount="responsive" value={props.value ?? []} onChange={(ids) => {
          remember(ids ?? []);
          props.onChange?.(ids ?? []);
        }} />;
  }
  return <Select<number | null> {...common} value={props.value ?? null} onChange={(id) => {
        if (id) remember([id]);
        props.onChange?.(id ?? null);
      }} />;
}
