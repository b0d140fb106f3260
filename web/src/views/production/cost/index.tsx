import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, DatePicker, Descriptions, Popconfirm, Progress, Segmented, Space, Tag, Typography } from 'antd';
import { CalculatorOutlined, RollbackOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { BackgroundJobView } from '@p8/contract/system';
import { COST_PERIOD_STATUS_LABELS, OVERHEAD_BASIS_LABELS, OverheadBasis, type CostOrderRow, type CostPeriodDetail, type CostPeriodRow } from '@p8/contract/production-cost';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import { formatMoney } from '../../../components/Finance/money.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { feedback } from '../../../app/feedback.ts';
import { http } from '../../../app/http.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantity = (v: unknown) => String(Number(v));

/**
 * Production → cost accounting (menu production_cost): pick a month, run its cost (a background job whose
 * progress shows here), see each production order's opening work in progress, the month's material, labour
 * and overhead, what it finished at what unit cost and what it carries on; cancel a run (反核算) to change
 * the month's bills. The figures are the server's (modules/finance/cost-run.ts).
 */
export default function CostAccountingPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'production.cost' });
  const { t: tRoot } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const can = useAuth();
  const [period, setPeriod] = useState<Dayjs>(() => dayjs().subtract(dayjs().date() <= 10 ? 1 : 0, 'month'));
  const [basis, setBasis] = useState<OverheadBasis>('hours');
  const [detail, setDetail] = useState<CostPeriodDetail | null>(null);
  const [job, setJob] = useState<{ done: number; total: number | null } | null>(null);
  const table = useRef<ProTableAction<CostOrderRow>>(undefined);
  const key = period.format('YYYY-MM');

  const columns = useMemo<ProColumn<CostOrderRow>[]>(
    () => [
      { prop: 'orderCode', title: t('order'), width: 170 },
      { prop: 'materialName', title: t('product'), width: 180, render: (_, r) => (r.materialCode ? `${r.materialCode} ${r.materialName}` : r.materialName) },
      { prop: 'completed', title: t('completed'), width: 100, align: 'right', render: (v) => quantity(v) },
      { prop: 'unfinished', title: t('unfinished'), width: 100, align: 'right', render: (v) => quantity(v) },
      { prop: 'degree', title: t('degree'), width: 100, align: 'right', render: (v) => `${Math.round(Number(v) * 100)}%` },
      { prop: 'opening', title: t('opening'), width: 120, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'material', title: t('material'), width: 120, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'rolledIn', title: t('rolledIn'), width: 140, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'labour', title: t('labour'), width: 120, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'overhead', title: t('overhead'), width: 120, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'finished', title: t('finished'), width: 130, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'unitCost', title: t('unitCost'), width: 110, align: 'right', render: (v) => formatMoney(v as string, 4) },
      { prop: 'perpetual', title: t('perpetual'), width: 130, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'closing', title: t('closing'), width: 130, align: 'right', render: (v) => formatMoney(v as string) },
    ],
    [t],
  );

  const load = useCallback(async () => {
    // A month never run answers nothing: not accounted, no orders.
    const answer = (await http.get<CostPeriodDetail | null>(`/admin/production/cost/${key}`, undefined, { noLoading: true })) ?? { period: key, status: 'NotAccounted', basis: 'hours', overhead: '0', unallocated: '0', orders: [] };
    setDetail(answer);
    if (answer.status === 'Calculated') setBasis(answer.basis);
    return { data: answer.orders, pagination: { current: 1, pageSize: answer.orders.length, total: answer.orders.length } };
  }, [key]);

  useEffect(() => {
    table.current?.reload();
  }, [key]);

  // Opens on the latest period costed, if any (else the month picked above).
  useEffect(() => {
    void http.get<CostPeriodRow[]>('/admin/production/cost', undefined, { noLoading: true }).then((periods) => {
      const latest = periods.find((p) => p.status === 'Calculated');
      if (latest) setPeriod(dayjs(`${latest.period}-01`));
    });
  }, []);

  const run = async () => {
    try {
      const { id } = await http.post<{ id: number }>('/admin/production/cost/run', { period: key, basis }, { noLoading: true });
      setJob({ done: 0, total: null });
      for (;;) {
        await pause(500);
        const state = await http.get<BackgroundJobView>(`/admin/system/jobs/${id}`, undefined, { noLoading: true });
        setJob(state.progress);
        if (state.status === 'succeeded') {
          feedback.message.success(t('done', { period: key }));
          break;
        }
        if (state.status === 'failed') {
          feedback.message.error(tRoot(`error.${state.errorKey ?? 'ServerError'}`));
          break;
        }
      }
    } catch {
      // The HTTP client showed the refusal.
    } finally {
      setJob(null);
      table.current?.reload();
    }
  };

  const cancel = async () => {
    try {
      await http.post('/admin/production/cost/cancel', { period: key });
      feedback.message.success(t('cancelled', { period: key }));
    } finally {
      table.current?.reload();
    }
  };

  const calculated = detail?.status === 'Calculated';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="production-cost">
      <Space wrap align="center">
        <Typography.Text>{t('period')}</Typography.Text>
        <DatePicker
          picker="month"
          allowClear={false}
          value={period}
          disabledDate={(d) => d.isAfter(dayjs(), 'month')}
          onChange={(d) => d && setPeriod(d)}
          data-testid="cost-period"
        />
        <Typography.Text>{t('basis')}</Typography.Text>
        <Segmented<OverheadBasis>
          value={basis}
          onChange={setBasis}
          options={OverheadBasis.map((b) => ({ value: b, label: OVERHEAD_BASIS_LABELS[b][language] }))}
          data-testid="cost-basis"
        />
        {can('production_cost_run') && (
          <Button type="primary" icon={<CalculatorOutlined />} loading={!!job} onClick={run} data-testid="cost-run">
            {calculated ? t('rerun') : t('run')}
          </Button>
        )}
        {can('production_cost_cancel') && calculated && (
          <Popconfirm title={t('cancelConfirm', { period: key })} onConfirm={cancel}>
            <Button danger icon={<RollbackOutlined />} data-testid="cost-cancel">
              {t('cancel')}
            </Button>
          </Popconfirm>
        )}
        {job && <Progress style={{ width: 160 }} size="small" percent={job.total ? Math.round((job.done / job.total) * 100) : 5} status="active" data-testid="cost-progress" />}
      </Space>
      {detail && (
        <Descriptions size="small" column={4} bordered>
          <Descriptions.Item label={t('status')}>
            <Tag color={calculated ? 'green' : 'default'} data-testid="cost-status">
              {COST_PERIOD_STATUS_LABELS[detail.status][language]}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('basis')}>{calculated ? OVERHEAD_BASIS_LABELS[detail.basis][language] : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('overheadPool')}>{formatMoney(detail.overhead)}</Descriptions.Item>
          <Descriptions.Item label={t('unallocated')}>{formatMoney(detail.unallocated)}</Descriptions.Item>
        </Descriptions>
      )}
      <ProTable<CostOrderRow>
        columns={columns}
        rowKey={(r) => `${r.orderId}|${r.materialId}`}
        pagination={false}
        search={false}
        title={t('title', { period: key })}
        actionRef={table}
        data-testid="cost-orders"
        request={load}
        scroll={{ x: 1740 }}
      />
    </Space>
  );
}
