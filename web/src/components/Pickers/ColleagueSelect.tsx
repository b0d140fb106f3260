import { useMemo, useState, type CSSProperties } from 'react';
import { Select, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounceFn } from '../../hooks/useDebounceFn.ts';
import { colleagueOptionsQuery, type StaffOption } from './api/colleague-options.ts';

interface CommonProps {
  /** Staff never offered (the sender himself, reviewers already chosen). */
  exclude?: number[];
  /** Labels of ids that may not be in the first page of results (the reviewers of a rule being edited). */
  known?: StaffOption[];
  placeholder?: string;
  disabled?: boolean;
  style?: CSSProperties;
  'data-testid'?: string;
}

export interface ColleagueMultiSelectProps extends CommonProps {
  mode: 'multiple';
  value?: number[];
  onChange?: (ids: number[], options: StaffOption[]) => void;
}

export interface ColleagueSingleSelectProps extends CommonProps {
  mode?: undefined;
  value?: number | null;
  onChange?: (id: number, option: StaffOption) => void;
}

/**
 * Staff of the tenant searched by real name as the user types (first 50, debounced), for message
 * receivers and joint-review reviewers. Unlike `StaffSelect` (the caller's data scope, for assigning
 * records) it offers every enabled colleague: a user who sees only their own rows must still be able to
 * address someone. Remembers the labels it has seen, so a chosen member keeps
 * their name when a later search no longer lists them.
 */
export default function ColleagueSelect(props: ColleagueMultiSelectProps | ColleagueSingleSelectProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.common' });
  const { exclude = [], known = [], placeholder, disabled, style } = props;
  const [search, setSearch] = useState('');
  const debounced = useDebounceFn((text: string) => setSearch(text));
  const query = useQuery(colleagueOptionsQuery(search, exclude));
  // Names of members chosen under an earlier search, which the current one may not list.
  const [chosen, setChosen] = useState<StaffOption[]>([]);
  const labels = useMemo(() => new Map([...known, ...chosen, ...(query.data ?? [])].map((o) => [o.id, o])), [known, chosen, query.data]);
  const remember = (ids: number[]) => {
    const picked = ids.map((id) => labels.get(id)).filter((o): o is StaffOption => !!o && !chosen.some((c) => c.id === o.id));
    if (picked.length) setChosen((list) => [...list, ...picked]);
  };

  const selected = props.mode === 'multiple' ? (props.value ?? []) : props.value ? [props.value] : [];
  const found = query.data ?? [];
  // Chosen members stay listed (with their names) whatever the current search shows.
  const options = [
    ...found,
    ...selected.filter((id) => !found.some((o) => o.id === id)).map((id) => labels.get(id) ?? { id, label: `#${id}`, account: '', deptName: null }),
  ].map((o) => ({ value: o.id, label: o.label, option: o, title: o.account }));

  const renderOption = (o: StaffOption) => (
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

  const common = {
    showSearch: { filterOption: false, onSearch: (text: string) => debounced.run(text) },
    options,
    optionRender: (item: { data: Record<string, unknown> }) => renderOption(item.data.option as StaffOption),
    placeholder: placeholder ?? t('staffSearch'),
    notFoundContent: query.isFetching ? <Spin size="small" /> : t('noStaff'),
    loading: query.isFetching,
    disabled,
    allowClear: true,
    style: { width: '100%', ...style },
    onOpenChange: (open: boolean) => {
      if (!open && search) setSearch('');
    },
    'data-testid': props['data-testid'],
  };

  if (props.mode === 'multiple') {
    return (
      <Select<number[]>
        {...common}
        mode="multiple"
        value={props.value ?? []}
        maxTagCount="responsive"
        onChange={(ids) => {
          remember(ids);
          props.onChange?.(ids, ids.map((id) => labels.get(id)).filter((o): o is StaffOption => !!o));
        }}
      />
    );
  }
  return (
    <Select<number>
      {...common}
      value={props.value ?? undefined}
      onChange={(id) => {
        const option = labels.get(id);
        if (!option) return;
        remember([id]);
        props.onChange?.(id, option);
      }}
    />
  );
}
