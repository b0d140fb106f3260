import { useCallback, useMemo, useState } from 'react';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import ProTable, { type ListParams, type ProColumn } from '../../../components/ProTable/index.tsx';
import { useGlobalStore } from '../../../stores/global.ts';
import { trialBalance, type TrialBalanceRow } from '../../../components/Finance/api.ts';
import { formatMoney } from '../../../components/Finance/money.ts';
import { useAuth } from '../../../components/Auth/index.tsx';

const KIND_COLOR: Record<string, string> = { asset: 'blue', liability: 'orange', equity: 'purple', income: 'green', expense: 'red' };

/** Finance → trial balance (menu finance_trialBalance): per account the opening balance, the period's debits and credits, the closing balance; the totals agree. */
export default function TrialBalancePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const language = useGlobalStore((s) => s.language);
  const can = useAuth();
  const [totals, setTotals] = useState<{ debit: string; credit: string } | null>(null);
  const columns = useMemo<ProColumn<TrialBalanceRow>[]>(
    () => [
      { prop: 'range', title: t('report.date'), hideInTable: true, search: { type: 'dateRange' } },
      { prop: 'code', title: t('trial.code'), width: 100 },
      { prop: 'name', title: t('trial.name'), width: 240, render: (_, r) => r.name[language] },
      { prop: 'kind', title: t('trial.kind'), width: 110, render: (_, r) => <Tag color={KIND_COLOR[r.kind]}>{t(`trial.kinds.${r.kind}`)}</Tag> },
      { prop: 'opening', title: t('trial.opening'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'debit', title: t('trial.debit'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'credit', title: t('trial.credit'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'balance', title: t('trial.balance'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
    ],
    [t, language],
  );
  // Stable: a new request function would make the table load again (and the totals re-render it).
  const load = useCallback(async (params: ListParams) => {
    const answer = await trialBalance({ start: typeof params.start === 'string' ? params.start : undefined, end: typeof params.end === 'string' ? params.end : undefined });
    setTotals({ debit: answer.debitTotal, credit: answer.creditTotal });
    return { data: answer.accounts, pagination: { current: 1, pageSize: answer.accounts.length, total: answer.accounts.length } };
  }, []);
  return (
    <ProTable<TrialBalanceRow>
      columns={columns}
      rowKey="code"
      pagination={false}
      title={t('trial.title')}
      data-testid="finance-trial-balance"
      exportPath={can('finance_trialBalance_export') ? '/admin/finance/trialBalance/export' : undefined}
      toolbarRight={
        totals && (
          <Typography.Text type={totals.debit === totals.credit ? 'success' : 'danger'}>
            {t('trial.totals', { debit: formatMoney(totals.debit), credit: formatMoney(totals.credit) })}
          </Typography.Text>
        )
      }
      request={load}
    />
  );
}
