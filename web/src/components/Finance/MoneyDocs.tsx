import { useCallback, useMemo, useRef, useState, type ComponentType } from 'react';
import { App, Button, Descriptions, Drawer, Popconfirm } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from './money.ts';
import ProTable, { type ListParams, type ProColumn, type ProTableAction, type ValueEnum } from '../ProTable/index.tsx';
import { Auth, useAuth } from '../Auth/index.tsx';
import { AddButton } from '../RecordKit/RecordToolbar.tsx';
import { listFundAccounts } from './fund-accounts.ts';
import { abandonMoneyDoc, listMoneyDocs, type MoneyDocRow, type MoneyKind } from './api.ts';

/** The fund accounts by id (names for the lists, options for the forms). */
export function useFundAccounts() {
  return useQuery({ queryKey: ['finance', 'fundAccounts'], queryFn: async () => (await listFundAccounts()).data });
}

/** What a kind's add dialog is given by the list. */
export interface MoneyFormProps {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

interface MoneyDocsProps {
  kind: MoneyKind;
  /** The kind's own columns, between the code and date and the amount. */
  columns: ProColumn<MoneyDocRow>[];
  /** The add dialog, open while adding; told to close and to reload the list. */
  form: ComponentType<MoneyFormProps>;
}

/**
 * Finance → transfers: a page of documents newest first or sorted by code, date or amount (filters: status,
 * date range), exported as the list shows them (`finance_<kind>_export`), a row's code opens it, "abandon" withdraws a posted one
 * (`finance_<kind>_abandon`), "add" opens the kind's form (`finance_<kind>_add`).
 */
export default function MoneyDocs({ kind, columns: own, form: AddForm }: MoneyDocsProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const { message } = App.useApp();
  const table = useRef<ProTableAction<MoneyDocRow>>(undefined);
  const [adding, setAdding] = useState(false);
  const [detail, setDetail] = useState<MoneyDocRow | null>(null);
  const record = `finance_${kind}` as const;
  // The list's current query (filters and sort) as .xlsx (`finance_<kind>_export`).
  const canExport = useAuth()(`${record}_export`);

  const abandon = useCallback(
    async (row: MoneyDocRow) => {
      await abandonMoneyDoc(kind, row.id);
      void message.success(t('abandoned', { code: row.docCode }));
      table.current?.reload();
    },
    [kind, message, t],
  );

  const columns = useMemo<ProColumn<MoneyDocRow>[]>(() => {
    const status: ValueEnum = { Posted: { text: t('status.Posted'), color: 'green' }, Abandoned: { text: t('status.Abandoned'), color: 'default' } };
    return [
      { prop: 'dateRange', title: t('date'), hideInTable: true, search: { type: 'dateRange', order: 0 } },
      {
        prop: 'docCode',
        title: t('code'),
        width: 170,
        sortable: true,
        render: (_, r) => (
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDetail(r)} data-testid={`${kind}-code-${r.docCode}`}>
            {r.docCode}
          </Button>
        ),
      },
      { prop: 'docDate', title: t('date'), width: 120, sortable: true },
      ...own,
      { prop: 'amount', title: t('amount'), width: 130, align: 'right', sortable: true, render: (v) => formatMoney(v as string) },
      { prop: 'status', title: t('statusTitle'), width: 100, valueEnum: status, search: true },
      { prop: 'remark', title: t('remark'), width: 180, ellipsis: true },
      {
        prop: 'actions',
        title: t('actions'),
        width: 100,
        fixed: 'right',
        hideInSetting: true,
        render: (_, r) =>
          r.status === 'Posted' && (
            <Auth code={`${record}_abandon`}>
              <Popconfirm title={t('abandonConfirm', { code: r.docCode })} onConfirm={() => abandon(r)} okButtonProps={{ danger: true, ...({ 'data-testid': `${kind}-abandon-confirm` } as Record<string, string>) }}>
                <Button type="link" size="small" danger style={{ padding: 0 }} data-testid={`${kind}-abandon-${r.docCode}`}>
                  {t('abandon')}
                </Button>
              </Popconfirm>
            </Auth>
          ),
      },
    ];
  }, [t, own, kind, record, abandon]);

  const load = useCallback((params: ListParams) => listMoneyDocs(kind, params), [kind]);
  const reload = useCallback(() => table.current?.reload(), []);

  return (
    <>
      <ProTable<MoneyDocRow>
        actionRef={table}
        columns={columns}
        rowKey="id"
        request={load}
        title={t(`title.${kind}`)}
        toolbar={<AddButton record={record} onClick={() => setAdding(true)} />}
        exportPath={canExport ? `/admin/finance/${kind}/export` : undefined}
        data-testid={`finance-${kind}s`}
      />
      <AddForm open={adding} onClose={() => setAdding(false)} onSaved={reload} />
      <Drawer open={detail !== null} width={520} title={detail ? `${detail.docCode} · ${formatMoney(detail.amount)}` : ''} onClose={() => setDetail(null)}>
        {detail && (
          <Descriptions column={1} bordered size="small" data-testid={`${kind}-detail`}>
            <Descriptions.Item label={t('date')}>{detail.docDate}</Descriptions.Item>
            <Descriptions.Item label={t('fromAccount')}>{detail.fromAccountName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('toAccount')}>{detail.toAccountName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('amount')}>{formatMoney(detail.amount)}</Descriptions.Item>
            <Descriptions.Item label={t('statusTitle')}>{t(`status.${detail.status}`)}</Descriptions.Item>
            <Descriptions.Item label={t('remark')}>{detail.remark}</Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
    </>
  );
}
