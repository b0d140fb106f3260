import { useState } from 'react';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { billType } from '@p8/contract/bills/catalogue';
import { billLink, billScreenPath } from '@p8/contract/bills/registry';
import { MONEY_TYPE_LABELS, type MoneyType } from '@p8/contract/finance';
import ExportButton from '../ExportButton/index.tsx';
import { useOpenPaths } from '../../hooks/useOpenPaths.ts';
import { useGlobalStore } from '../../stores/global.ts';
import type { PagedResult } from '../../app/http.ts';
import type { LedgerRow } from './api.ts';
import { formatMoney } from './money.ts';

const LEDGER_PAGE_SIZE = 50;

export interface PartnerLedgerProps {
  /** The drawer's title (the partner); none: closed. */
  title: string | null;
  /** Which ledger it shows (`prepaid:12`): another one starts on its first page. */
  ledgerKey: string;
  /** A page of the partner's ledger, paged by the server (each page's balances carry the lines before it). */
  load: (current: number, pageSize: number) => Promise<PagedResult<LedgerRow>>;
  /** The ledger's export (`<ledger>/export` with the partner), for holders of its button. */
  exportPath?: string;
  exportParams?: Record<string, number>;
  onClose: () => void;
}

/**
 * A partner's running ledger in a drawer (receivable, payable, prepaid or advance): date, what the line is
 * (a payment's or receipt's type, else the bill type), its number, what came in and went out, the balance
 * after each line. A line of a bill links to
 * the bill on its screen (the form opens there) when the user may open that screen.
 */
export default function PartnerLedger({ title, ledgerKey, load, exportPath, exportParams, onClose }: PartnerLedgerProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const language = useGlobalStore((s) => s.language);
  const navigate = useNavigate();
  const openPaths = useOpenPaths();
  const [paging, setPaging] = useState({ key: ledgerKey, current: 1, pageSize: LEDGER_PAGE_SIZE });
  const own = paging.key === ledgerKey ? paging : { key: ledgerKey, current: 1, pageSize: LEDGER_PAGE_SIZE };
  const found = useQuery({
    queryKey: ['finance-ledger', ledgerKey, own.current, own.pageSize],
    queryFn: () => load(own.current, own.pageSize),
    enabled: title !== null,
    // Read again each time it opens: a payment audited since changes it.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const page: PagedResult<LedgerRow> | undefined = title === null ? undefined : found.data;

  /** What the line is: a payment's or receipt's type (预付款 / Advance payment), else its bill type or document kind. */
  const typeOf = (row: LedgerRow) =>
    MONEY_TYPE_LABELS[row.memo as MoneyType]?.[language] ?? ((row.billType && billType(row.billType)?.label[language]) || t(`report.sourceKind.${row.sourceKind}`));

  /** The bill's screen with its form open, when the line is a bill's the user may open. */
  const linkOf = (row: LedgerRow) => {
    const decl = row.billType ? billType(row.billType) : undefined;
    return decl && openPaths.has(billScreenPath(decl)) ? billLink(decl, row.sourceId) : undefined;
  };

  return (
    <Drawer
      open={title !== null}
      width={920}
      title={title ?? ''}
      extra={exportPath && <ExportButton path={exportPath} params={exportParams} data-testid="finance-ledger-export" />}
      onClose={onClose}
      data-testid="finance-ledger"
    >
      <Table<LedgerRow>
        size="small"
        rowKey="id"
        dataSource={page?.data ?? []}
        loading={found.isFetching}
        pagination={{
          current: page?.pagination.current,
          pageSize: page?.pagination.pageSize,
          total: page?.pagination.total,
          showSizeChanger: true,
          onChange: (current, pageSize) => setPaging({ key: ledgerKey, current, pageSize }),
        }}
        columns={[
          { dataIndex: 'date', title: t('report.date'), width: 110 },
          {
            dataIndex: 'billType',
            title: t('report.billType'),
            width: 150,
            render: (_, r) => <Tag>{typeOf(r)}</Tag>,
          },
          {
            dataIndex: 'sourceCode',
            title: t('report.source'),
            render: (_, r) => {
              const link = linkOf(r);
              return (
                <span style={{ whiteSpace: 'nowrap' }}>
                  {link ? (
                    <Typography.Link onClick={() => navigate(link.path, { state: link.state })} data-testid={`finance-ledger-link-${r.id}`}>
                      {r.sourceCode}
                    </Typography.Link>
                  ) : (
                    r.sourceCode
                  )}
                  {r.reversal && (
                    <Tag color="red" style={{ marginLeft: 4 }}>
                      {t('report.reversal')}
                    </Tag>
                  )}
                </span>
              );
            },
          },
          { dataIndex: 'increase', title: t('report.increase'), align: 'right', width: 120, render: (v: string) => formatMoney(v) },
          { dataIndex: 'decrease', title: t('report.decrease'), align: 'right', width: 120, render: (v: string) => formatMoney(v) },
          { dataIndex: 'balance', title: t('report.running'), align: 'right', width: 130, render: (v: string) => formatMoney(v) },
        ]}
      />
    </Drawer>
  );
}
