import { useMemo, useState } from 'react';
import { Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounceFn } from '../../../../hooks/useDebounceFn.ts';
import { colleagueOptionsQuery, type StaffOption } from '../../../../components/Pickers/api/colleague-options.ts';

interface LeaderSelectProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The current leader's name, so an edited department shows it before any search. */
  currentName?: string | null;
  disabled?: boolean;
  id?: string;
}

const NO_ONE: number[] = [];

/** A staff picker with a server search (account or real name), for a department's leader. */
export default function LeaderSelect({ value, onChange, currentName, disabled, id }: LeaderSelectProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const setKeywordLater = useDebounceFn((text: string) => setKeyword(text.trim()), 300);
  const found = useQuery(colleagueOptionsQuery(keyword, NO_ONE));
  const options = useMemo(() => {
    const list: Array<{ value: number; label: string; staff: StaffOption | undefined }> = (found.data ?? []).map((s) => ({
      value: s.id,
      label: s.label === s.account ? s.account : `${s.label} (${s.account})`,
      staff: s,
    }));
    if (value && currentName && !list.some((o) => o.value === value)) list.unshift({ value, label: currentName, staff: undefined });
    return list;
  }, [found.data, value, currentName]);

  return (
    <Select<number>
      id={id}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      disabled={disabled}
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeywordLater.run }}
      loading={found.isFetching}
      placeholder={t('system.dept.leaderPlaceholder')}
      options={options}
      optionRender={(option) => {
        const staff = option.data.staff as StaffOption | undefined;
        return (
          <Space size={6}>
            <span>{option.label}</span>
            {staff?.deptName && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                · {staff.deptName}
              </Typography.Text>
            )}
          </Space>
        );
      }}
      onOpenChange={(open) => {
        if (!open) setKeyword('');
      }}
    />
  );
}
