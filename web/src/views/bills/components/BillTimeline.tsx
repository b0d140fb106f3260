import { Empty, Tag, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { BillTransitionView } from '@p8/contract/bills/api';
import { BILL_OPERATION_LABELS, BILL_STATUS_LABELS, DELIVERY_OPERATION_LABELS, type BillOperation } from '@p8/contract/bills/status';
import { http } from '../../../app/http.ts';
import { labelOf } from '../kit.ts';
import { STATUS_COLOR } from './status.ts';

/** Labels of every step: the operations, the delivery confirmations. */
const STEP_LABELS = { ...BILL_OPERATION_LABELS, ...DELIVERY_OPERATION_LABELS };

/** Words of the timeline steps the operations list has no label for. */
const OTHER_STEPS = { create: 'bill.step.create', update: 'bill.step.update', progress: 'bill.step.progress' } as const;

/** The bill's transitions, oldest first: who did what, when, the status it led to, a refusal's reason. */
export default function BillTimeline({ api, id, version, lang }: { api: string; id: number; version: number; lang: string }) {
  const { t } = useTranslation();
  const steps = useQuery({ queryKey: ['bill-timeline', api, id, version], queryFn: () => http.get<BillTransitionView[]>(`${api}/${id}/timeline`, undefined, { noLoading: true }) });
  return (
    <div className="bill-timeline" data-testid="bill-timeline">
      <Typography.Title level={5}>{t('bill.timeline')}</Typography.Title>
      {steps.data?.length ? (
        <Timeline
          items={steps.data.map((s) => ({
            color: s.operation === 'refuse' ? 'red' : s.operation === 'audit' ? 'green' : 'blue',
            children: (
              <div data-testid={`bill-step-${s.operation}`}>
                <b>{s.operation in OTHER_STEPS ? t(OTHER_STEPS[s.operation as keyof typeof OTHER_STEPS]) : labelOf(STEP_LABELS[s.operation as BillOperation], lang)}</b>{' '}
                <Tag color={STATUS_COLOR[s.toStatus]}>{labelOf(BILL_STATUS_LABELS[s.toStatus], lang)}</Tag>
                <Typography.Text type="secondary">
                  {s.accountName} · {dayjs(s.at).format('YYYY-MM-DD HH:mm:ss')}
                </Typography.Text>
                {s.reason && <div className="bill-step-reason">{s.reason}</div>}
              </div>
            ),
          }))}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={steps.isPending ? t('bill.loading') : t('bill.noSteps')} />
      )}
    </div>
  );
}
