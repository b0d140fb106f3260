import { useMemo, useState } from 'react';
import { Avatar, Select, Space } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Staff } from '@p8/contract/system';
import { useDebounceFn } from '../../../../hooks/useDebounceFn.ts';
import { getStaff } from '../../staff/api/get-staff.ts';

interface LeaderSelectProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The current leader's name, so an edited department shows it before any search. */
  currentName?: string | null;
  disabled?: boolean;
  id?: string;
}

/** Staff matching a keyword by account or real name (the list filters are ANDed, so two calls). */
async function searchStaff(keyword: string): Promise<Staff[]> {
  if (!keyword) return (await getStaff({ current: 1, pageSize: 50 })).data;
  const [byName, byRealName] = await Promise.all([
    getStaff({ current: 1, pageSize: 20, name: keyword }),
    getStaff({ current: 1, pageSize: 20, realName: keyword }),
  ]);
  const seen = new Map<number, Staff>();
  for (const staff of [...byName.data, ...byRealName.data]) seen.set(staff.id, staff);
  return [...seen.values()];
}

/** A staff picker with a server search, for a department's leader. */
export default function LeaderSelect({ value, onChange, currentName, disabled, id }: LeaderSelectProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const setKeywordLater = useDebounceFn((text: string) => setKeyword(text.trim()), 300);
  const found = useQuery({
    queryKey: ['system', 'dept', 'leader-search', keyword],
    queryFn: () => searchStaff(keyword),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const list: Array<{ value: number; label: string; staff: Staff | undefined }> = (found.data ?? []).map((s) => ({
      value: s.id,
      label: s.realName ? `${s.realName} (${s.name})` : s.name,
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
        const staff = option.data.staff as Staff | undefined;
        return (
          <Space size={8}>
            <Avatar size={20} src={staff?.avatar || undefined} icon={<UserOutlined />} />
            <span>{option.label}</span>
            {staff?.deptName && <span style={{ opacity: 0.55, fontSize: 12 }}>{staff.deptName}</span>}
          </Space>
        );
      }}
      onOpenChange={(open) => {
        if (!open) setKeyword('');
      }}
    />
  );
}
