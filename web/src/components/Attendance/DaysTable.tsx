import { Space, Table, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DAY_RESULT_LABELS, DAY_TYPE_LABELS, WEEKDAY_LABELS, type AttendanceDay, type DayResult } from '@p8/contract/people';

/** A day's result as a coloured tag (normal green, rest grey, the rest warnings). */
const RESULT_COLORS: Record<DayResult, string> = { normal: 'green', late: 'orange', early: 'orange', absent: 'red', missing: 'volcano', rest: 'default' };

/**
 * A person's days of a month (the clock-in screen's own, the report's person): date, weekday (Monday to
 * Sunday), the calendar's type, the result, the punches (outside and replacement punches marked).
 */
export default function DaysTable({ days, testId }: { days: AttendanceDay[]; testId: string }) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'people' });
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Table<AttendanceDay>
      size="small"
      rowKey="date"
      pagination={false}
      dataSource={days}
      data-testid={testId}
      onRow={(day) => ({ 'data-testid': `${testId}-${day.date}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { dataIndex: 'date', title: t('date'), width: 120 },
        { dataIndex: 'weekday', title: t('weekday'), width: 100, render: (w: number) => WEEKDAY_LABELS[w][lang] },
        { dataIndex: 'dayType', title: t('dayType'), width: 110, render: (v: AttendanceDay['dayType']) => DAY_TYPE_LABELS[v][lang] },
        {
          dataIndex: 'result',
          title: t('result'),
          width: 120,
          render: (v: DayResult | null) => (v ? <Tag color={RESULT_COLORS[v]} data-testid="day-result">{DAY_RESULT_LABELS[v][lang]}</Tag> : <span style={{ opacity: 0.5 }}>{t('open')}</span>),
        },
        {
          dataIndex: 'punches',
          title: t('punches'),
          render: (_: unknown, day) => (
            <Space size={[4, 4]} wrap>
              {day.punches.map((p) => (
                <Tooltip key={p.id} title={p.addressName ?? ''}>
                  <Tag color={p.source === 'replacement' ? 'blue' : p.outside ? 'orange' : undefined}>
                    {dayjs(p.punchedAt).format(dayjs(p.punchedAt).format('YYYY-MM-DD') === day.date ? 'HH:mm' : 'MM-DD HH:mm')}
                    {p.outside ? ` ${t('outside')}` : ''}
                    {p.source === 'replacement' ? ` ${t('replaced')}` : ''}
                  </Tag>
                </Tooltip>
              ))}
            </Space>
          ),
        },
      ]}
    />
  );
}
