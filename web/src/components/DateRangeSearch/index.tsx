import { useMemo } from 'react';
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import type { RangePickerProps } from 'antd/es/date-picker';
import { useTranslation } from 'react-i18next';
import { DATE_SHORTCUTS, shortcutRange } from '../ProTable/query.ts';

/**
 * A date range picker with the shortcuts: today, yesterday, last 7 days, last 30 days,
 * last month, this year, last year. Used by the ProTable search form; usable on its own.
 */
export type DateRangeSearchProps = RangePickerProps;

/** The shortcuts, counted from `today` (yyyy-mm-dd) when given — a business day of the server — else the browser's. */
export function useDatePresets(today?: string): NonNullable<RangePickerProps['presets']> {
  const { t, i18n } = useTranslation();
  return useMemo(
    () => DATE_SHORTCUTS.map((key) => ({ label: t(`kit.date.${key}`), value: () => shortcutRange(key, today ? dayjs(today) : undefined) })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels follow the language
    [t, i18n.language, today],
  );
}

export default function DateRangeSearch(props: DateRangeSearchProps) {
  const { t } = useTranslation();
  const presets = useDatePresets();
  return (
    <DatePicker.RangePicker
      presets={presets}
      placeholder={[t('kit.table.startDate'), t('kit.table.endDate')]}
      allowEmpty={[true, true]}
      style={{ width: '100%' }}
      {...props}
    />
  );
}
