import { useCallback, useMemo, useState } from 'react';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import ProTable, { type ProColumn, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import PartnerLedger from '../../../components/Finance/PartnerLedger.tsx';
import { listPrepaid, prepaidLedger, type PrepaidRow } from '../../../components/Finance/api.ts';

const amount = (prop: 'prepaid' | 'advance', title: string): ProColumn<PrepaidRow> => ({
  prop,
  title,
  width: 150,
  align: 'right',
  sortable: true,
  sum: true,
  // As the kit shows amounts, so that the cells and the totals row read alike.
  valueType: 'amount',
});

/**
 * Finance → prepaid and advances (menu finance_prepaid): per partner, a supplier's prepaid balance (1123)
 * and a customer's advance received (2203) — the kept balances verify checks — paged, sorted, filtered by
 * kind, code or name and non-zero balances, totalled and exported; a row opens its running ledger.
 */
export default function PrepaidPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const [partner, setPartner] = useState<PrepaidRow | null>(null);
  const canExport = useAuth()('finance_prepaid_export');

  const columns = useMemo<ProColumn<PrepaidRow>[]>(() => {
    const kinds: ValueEnum = { supplier: { text: t('prepaid.kinds.supplier'), color: 'blue' }, customer: { text: t('prepaid.kinds.customer'), color: 'green' } };
    const balances: ValueEnum = { true: { text: t('prepaid.nonZero') }, false: { text: t('prepaid.zero') } };
    return [
      { prop: 'keyword', title: t('prepaid.keyword'), hideInTable: true, search: { order: 0 } },
      { prop: 'partnerCode', title: t('report.partnerCode'), width: 120, sortable: true },
      {
        prop: 'partnerName',
        title: t('prepaid.partner'),
        width: 260,
        sortable: true,
        render: (_, r) => <Typography.Link data-testid={`prepaid-open-${r.partnerCode}`}>{r.partnerName}</Typography.Link>,
      },
      { prop: 'kind', title: t('prepaid.kind'), width: 100, valueEnum: kinds, search: { order: 1 }, render: (v) => <Tag color={kinds[v as string]?.color}>{kinds[v as string]?.text}</Tag> },
      amount('prepaid', t('report.prepaid')),
      amount('advance', t('report.advance')),
      { prop: 'nonZero', title: t('prepaid.balance'), hideInTable: true, valueEnum: balances, search: { order: 2 } },
    ];
  }, [t]);

  const loadLedger = useCallback((current: number, pageSize: number) => prepaidLedger(partner!.partnerId, current, pageSize), [partner]);

  return (
    <>
      <ProTable<PrepaidRow>
        columns={columns}
        rowKey="partnerId"
        request={listPrepaid}
        statistics="/admin/finance/prepaid/statistics"
        onRow={(record) => ({ onClick: () => setPartner(record), style: { cursor: 'pointer' } })}
        title={t('prepaid.title')}
        exportPath={canExport ? '/admin/finance/prepaid/export' : undefined}
        data-testid="finance-prepaid"
      />
      <PartnerLedger
        title={partner && t(`prepaid.ledgerOf.${partner.kind}`, { name: partner.partnerName })}
        ledgerKey={`prepaid:${partner?.partnerId}`}
        load={loadLedger}
        exportPath={canExport ? '/admin/finance/prepaid/ledger/export' : undefined}
        exportParams={partner ? { partnerId: partner.partnerId } : undefined}
        onClose={() => setPartner(null)}
      />
    </>
  );
}
