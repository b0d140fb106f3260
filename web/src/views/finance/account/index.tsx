import { useCallback, useMemo, useRef, useState } from 'react';
import { App, DatePicker, Form, Input, Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FUND_KIND_LABELS, FundKind } from '@p8/contract/finance';
import { formatMoney } from '../../../components/Finance/money.ts';
import FormDialog from '../../../components/FormDialog/index.tsx';
import NumberInput from '../../../components/NumberInput/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import { useGlobalStore } from '../../../stores/global.ts';
import { createFundAccount, listFundAccounts, type FundAccountRow } from '../../../components/Finance/fund-accounts.ts';

const KIND_COLOR: Record<FundKind, string> = { cash: 'gold', bank: 'blue', ewallet: 'cyan' };

interface FundForm {
  name: string;
  kind: FundKind;
  accountNumber?: string;
  openingBalance?: number;
  openingDate: Dayjs;
  remark?: string;
}

/** Finance → fund accounts (menu finance_account): cash, bank and e-wallet accounts with their balances; add one with its opening balance. */
export default function FundAccountPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const { message } = App.useApp();
  const language = useGlobalStore((s) => s.language);
  const table = useRef<ProTableAction<FundAccountRow>>(undefined);
  const [adding, setAdding] = useState(false);
  const load = useCallback(() => listFundAccounts(), []);

  const columns = useMemo<ProColumn<FundAccountRow>[]>(
    () => [
      { prop: 'name', title: t('account.name'), width: 200 },
      { prop: 'kind', title: t('account.kind'), width: 110, render: (_, r) => <Tag color={KIND_COLOR[r.kind]}>{FUND_KIND_LABELS[r.kind][language]}</Tag> },
      { prop: 'accountNumber', title: t('account.number'), width: 200, render: (v) => (v as string) || '—' },
      { prop: 'openingDate', title: t('account.openingDate'), width: 120 },
      { prop: 'openingBalance', title: t('account.openingBalance'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'balance', title: t('account.balance'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'enabled', title: t('account.enabled'), width: 90, render: (_, r) => <Tag color={r.enabled ? 'green' : 'default'}>{t(r.enabled ? 'account.on' : 'account.off')}</Tag> },
      { prop: 'remark', title: t('account.remark'), width: 200 },
    ],
    [t, language],
  );

  const submit = async (values: FundForm) => {
    await createFundAccount({
      name: values.name,
      kind: values.kind,
      accountNumber: values.accountNumber ?? '',
      openingBalance: values.openingBalance ?? 0,
      openingDate: values.openingDate.format('YYYY-MM-DD'),
      remark: values.remark ?? '',
    });
    void message.success(t('account.added'));
    table.current?.reload();
  };

  return (
    <>
      <ProTable<FundAccountRow>
        actionRef={table}
        columns={columns}
        rowKey="id"
        request={load}
        pagination={false}
        title={t('account.title')}
        toolbar={<AddButton record="finance_account" onClick={() => setAdding(true)} />}
        data-testid="finance-accounts"
      />
      <FormDialog<FundForm> open={adding} mode="add" entity={t('account.entity')} onClose={() => setAdding(false)} onSubmit={submit} initialValues={{ kind: 'bank', openingDate: dayjs() }}>
        <Form.Item name="name" label={t('account.name')} rules={[{ required: true, whitespace: true, message: t('account.nameRequired') }, { max: 100 }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="kind" label={t('account.kind')} rules={[{ required: true }]}>
          <Select options={FundKind.map((k) => ({ value: k, label: FUND_KIND_LABELS[k][language] }))} />
        </Form.Item>
        <Form.Item name="accountNumber" label={t('account.number')} rules={[{ max: 50 }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="openingBalance" label={t('account.openingBalance')}>
          <NumberInput kind="amount" min={0} max={99999999999999} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="openingDate" label={t('account.openingDate')} rules={[{ required: true, message: t('account.dateRequired') }]}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="remark" label={t('account.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </FormDialog>
    </>
  );
}
