import { useMemo, useState } from 'react';
import { Card, DatePicker, Segmented, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PASS_RATE_BY_LABELS, PassRateBy, type PassRateRow } from '@p8/contract/quality';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import EChart, { type EChartOption } from '../../../components/EChart/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import { http } from '../../../app/http.ts';

/**
 * Quality → pass rate (menu quality_passRate): audited inspections of a period by supplier, material or process —
 * inspected, accepted, concession and rejected quantities and the pass rate — with the busiest groups' rates as
 * bars; exported by holders of quality_passRate_export.
 */
export default function PassRatePage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'quality' });
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const can = useAuth();
  const [by, setBy] = useState<PassRateBy>('supplier');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);
  const params = { by, from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') };
  const top = useQuery({
    queryKey: ['quality-pass-rate-chart', params],
    queryFn: () => http.list<PassRateRow>('/admin/quality/passRate', { ...params, current: 1, pageSize: 15 }, { noLoading: true }),
  });
  const option = useMemo<EChartOption>(() => {
    const rows = top.data?.data ?? [];
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 64 },
      xAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { rotate: 30, interval: 0 } },
      yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      series: [{ type: 'bar', name: t('passRate'), data: rows.map((r) => Number(r.passRate)), barMaxWidth: 36, label: { show: true, position: 'top', formatter: '{c}%' } }],
    } as EChartOption;
  }, [top.data, t]);
  const quantity = (prop: keyof PassRateRow, title: string): ProColumn<PassRateRow> => ({ prop, title, width: 120, align: 'right', valueType: 'number' });
  const columns = useMemo<ProColumn<PassRateRow>[]>(
    () => [
      { prop: 'name', title: t(`groupBy.${by}`), width: 220, lockSetting: true },
      { prop: 'lines', title: t('inspections'), width: 100, align: 'right' },
      quantity('inspected', t('inspected')),
      quantity('accepted', t('accepted')),
      quantity('concession', t('concession')),
      quantity('rejected', t('rejected')),
      { prop: 'passRate', title: t('passRate'), width: 110, align: 'right', render: (v) => <span data-testid="pass-rate-cell">{`${String(v)}%`}</span> },
    ],
    [t, by],
  );
  const controls = (
    <Space wrap>
      <Segmented<PassRateBy> value={by} onChange={setBy} options={PassRateBy.map((value) => ({ value, label: PASS_RATE_BY_LABELS[value][lang] }))} data-testid="pass-rate-by" />
      <DatePicker.RangePicker allowClear={false} value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} data-testid="pass-rate-range" />
    </Space>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title={t('passRateChart')}>
        <EChart option={option} height={260} data-testid="pass-rate-chart" />
      </Card>
      <ProTable<PassRateRow>
        path="/admin/quality/passRate"
        listType="quality_passRate"
        params={params}
        rowKey="id"
        columns={columns}
        title={controls}
        exportPath={can('quality_passRate_export') ? '/admin/quality/passRate/export' : undefined}
        exportFileName={t('passRateFile', { from: params.from, to: params.to })}
        data-testid="pass-rate"
      />
    </Space>
  );
}
