import { useCallback, useMemo, useState } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AGING_BUCKETS } from '@p8/contract/finance';
import ProTable, { type ListParams, type ProColumn } from '../ProTable/index.tsx';
import { useAuth } from '../Auth/index.tsx';
import { useGlobalStore } from '../../stores/global.ts';
import { partnerBalances, partnerLedger, type PartnerBalanceRow } from './api.ts';
import PartnerLedger from './PartnerLedger.tsx';
import { formatMoney } from './money.ts';

const amountColumn = (prop: string, title: string): ProColumn<PartnerBalanceRow> => ({
  prop,
  title,
  width: 112,
  align: 'right',
  render: (value) => formatMoney(value as string),
});

/**
 * Finance → receivable / payable: per partner the balance, the advance (customers) or prepaid (suppliers)
 * balance and what audited bills leave open by age on a day; a row opens the partner's running ledger
 * (PartnerLedger).
 */
export default function PartnerBalances({ side }: { side: 'receivable' | 'payable' }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const language = useGlobalStore((s) => s.language);
  const [partner, setPartner] = useState<PartnerBalanceRow | null>(null);
  const other = side === 'receivable' ? 'advance' : 'prepaid';
  // The report and a partner's ledger export as .xlsx (the current query, the user's language).
  const canExport = useAuth()(`finance_${side}_export`);

  const columns = useMemo<ProColumn<PartnerBalanceRow>[]>(
    () => [
      { prop: 'asOf', title: t('report.asOf'), hideInTable: true, search: { type: 'date' } },
      { prop: 'partnerCode', title: t('report.partnerCode'), width: 100 },
      { prop: 'partnerName', title: t(`report.partner.${side}`), width: 210, render: (_, r) => <Typography.Link>{r.partnerName}</Typography.Link> },
      amountColumn('balance', t(`report.balance.${side}`)),
      amountColumn(other, t(`report.${other}`)),
      amountColumn('open', t('report.open')),
      {
        // Bills in a foreign currency: what is open in each currency, beside CNY (docs/cross-border.md).
        prop: 'currencies',
        title: t('report.openForeign'),
        width: 170,
        render: (_, r) =>
          r.currencies?.length ? (
            <span data-testid={`finance-${side}-foreign-${r.partnerId}`}>
              {r.currencies.map((c) => (
                <div key={c.currencyCode}>{`${c.currencyCode} ${formatMoney(c.open)}`}</div>
              ))}
            </span>
          ) : (
            '-'
          ),
      },
      ...AGING_BUCKETS.map((b) => amountColumn(b.key, b.label[language])),
    ],
    [t, side, other, language],
  );

  const load = useCallback((params: ListParams) => partnerBalances(side, typeof params.asOf === 'string' ? params.asOf : undefined), [side]);
  const loadLedger = useCallback((current: number, pageSize: number) => partnerLedger(side, partner!.partnerId, current, pageSize), [side, partner]);

  return (
    <>
      <ProTable<PartnerBalanceRow>
        columns={columns}
        rowKey="partnerId"
        request={load}
        pagination={false}
        onRow={(record) => ({ onClick: () => setPartner(record), style: { cursor: 'pointer' } })}
        title={t(`report.title.${side}`)}
        exportPath={canExport ? `/admin/finance/${side}/export` : undefined}
        data-testid={`finance-${side}`}
      />
      <PartnerLedger
        title={partner && t('report.ledgerOf', { name: partner.partnerName })}
        ledgerKey={`${side}:${partner?.partnerId}`}
        load={loadLedger}
        exportPath={canExport ? `/admin/finance/${side}/ledger/export` : undefined}
        exportParams={partner ? { partnerId: partner.partnerId } : undefined}
        onClose={() => setPartner(null)}
      />
    </>
  );
}
