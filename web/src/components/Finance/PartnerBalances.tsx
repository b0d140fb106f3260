import { useCallback, useMemo, useState } from 'react';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AGING_BUCKETS } from '@p8/contract/finance';
import ProTable, { type ListParams, type ProColumn } from '../ProTable/index.tsx';
import ExportButton from '../ExportButton/index.tsx';
import { useAuth } from '../Auth/index.tsx';
import { useGlobalStore } from '../../stores/global.ts';
import type { PagedResult } from '../../app/http.ts';
import { partnerBalances, partnerLedger, type LedgerRow, type PartnerBalanceRow } from './api.ts';
import { formatMoney } from './money.ts';

const LEDGER_PAGE_SIZE = 50;

const amountColumn = (prop: string, title: string): ProColumn<PartnerBalanceRow> => ({
  prop,
  title,
  width: 112,
  align: 'right',
  render: (value) => formatMoney(value as string),
});

/**
 * Finance → receivable / payable: per partner the balance, the advance (customers) or prepaid (suppliers)
 * balance and what audited bills leave open by age on a day; a row opens the partner's running ledger.
 */
export default function PartnerBalances({ side }: { side: 'receivable' | 'payable' }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const language = useGlobalStore((s) => s.language);
  const [ledger, setLedger] = useState<{ partner: PartnerBalanceRow; page: PagedResult<LedgerRow> } | null>(null);
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
      ...AGING_BUCKETS.map((b) => amountColumn(b.key, b.label[language])),
    ],
    [t, side, other, language],
  );

  const load = useCallback((params: ListParams) => partnerBalances(side, typeof params.asOf === 'string' ? params.asOf : undefined), [side]);
  // The ledger is paged by the server; every page's running balance carries the lines before it.
  const openLedger = async (partner: PartnerBalanceRow, current = 1, pageSize = LEDGER_PAGE_SIZE) => setLedger({ partner, page: await partnerLedger(side, partner.partnerId, current, pageSize) });

  return (
    <>
      <ProTable<PartnerBalanceRow>
        columns={columns}
        rowKey="partnerId"
        request={load}
        pagination={false}
        onRow={(record) => ({ onClick: () => void openLedger(record), style: { cursor: 'pointer' } })}
        title={t(`report.title.${side}`)}
        exportPath={canExport ? `/admin/finance/${side}/export` : undefined}
        data-testid={`finance-${side}`}
      />
      <Drawer open={ledger !== null} width={860} title={ledger ? t('report.ledgerOf', { name: ledger.partner.partnerName }) : ''}
        extra={ledger && canExport && <ExportButton path={`/admin/finance/${side}/ledger/export`} params={{ partnerId: ledger.partner.partnerId }} data-testid="finance-ledger-export" />}
        onClose={() => setLedger(null)}
      >
        <Table<LedgerRow>
          size="small"
          rowKey="id"
          dataSource={ledger?.page.data ?? []}
          pagination={{
            current: ledger?.page.pagination.current,
            pageSize: ledger?.page.pagination.pageSize,
            total: ledger?.page.pagination.total,
            showSizeChanger: true,
            onChange: (current, pageSize) => ledger && void openLedger(ledger.partner, current, pageSize),
          }}
          columns={[
            { dataIndex: 'date', title: t('report.date'), width: 110 },
            {
              dataIndex: 'sourceCode',
              title: t('report.source'),
              render: (_, r) => (
                <span>
                  <Tag>{t(`report.sourceKind.${r.sourceKind}`)}</Tag>
                  {r.sourceCode}
                  {r.reversal && <Tag color="red" style={{ marginLeft: 4 }}>{t('report.reversal')}</Tag>}
                </span>
              ),
            },
            { dataIndex: 'increase', title: t('report.increase'), align: 'right', render: (v: string) => formatMoney(v) },
            { dataIndex: 'decrease', title: t('report.decrease'), align: 'right', render: (v: string) => formatMoney(v) },
            { dataIndex: 'balance', title: t('report.running'), align: 'right', render: (v: string) => formatMoney(v) },
          ]}
        />
      </Drawer>
    </>
  );
}
