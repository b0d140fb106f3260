import { useMemo, useState } from 'react';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DAY_RESULT_LABELS, type ReportRow } from '@p8/contract/people';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import PersonDays from './components/PersonDays.tsx';

/**
 * People → attendance report (menu people_report): each attendance group member's month — workdays and the
 * days by result, outside and replaced punches — exported by holders of people_report_export; a row opens the
 * person's days.
 */
export default function AttendanceReportPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'people' });
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const can = useAuth();
  const [month, setMonth] = useState<Dayjs>(() => dayjs());
  const key = month.format('YYYY-MM');
  const count = (title: string, prop: keyof ReportRow, color?: string): ProColumn<ReportRow> => ({
    prop,
    title,
    width: 100,
    align: 'right',
    render: (v) => <span style={{ color: color && Number(v) > 0 ? color : undefined }}>{String(v)}</span>,
  });
  const columns = useMemo<ProColumn<ReportRow>[]>(
    () => [
      { prop: 'keyword', title: t('staffKeyword'), hideInTable: true, search: true },
      { prop: 'staffName', title: t('staff'), width: 160, lockSetting: true },
      { prop: 'groupName', title: t('group'), width: 160 },
      count(t('workdays'), 'workdays'),
      count(DAY_RESULT_LABELS.normal[lang], 'normal'),
      count(DAY_RESULT_LABELS.late[lang], 'late', '#fa8c16'),
      count(DAY_RESULT_LABELS.early[lang], 'early', '#fa8c16'),
      count(DAY_RESULT_LABELS.absent[lang], 'absent', '#f5222d'),
      count(DAY_RESULT_LABELS.missing[lang], 'missing', '#fa541c'),
      count(t('outsidePunches'), 'outside'),
      count(t('replacements'), 'replaced'),
    ],
    [t, lang],
  );
  return (
    <ProTable<ReportRow>
      path="/admin/people/report"
      listType="people_report"
      params={{ month: key }}
      rowKey="staffId"
      columns={columns}
      title={<DatePicker picker="month" allowClear={false} value={month} onChange={(v) => v && setMonth(v)} data-testid="report-month" />}
      exportPath={can('people_report_export') ? '/admin/people/report/export' : undefined}
      exportFileName={t('reportFile', { month: key })}
      expandable={{ expandedRowRender: (row) => <PersonDays month={key} staffId={row.staffId} /> }}
      data-testid="people-report"
    />
  );
}
