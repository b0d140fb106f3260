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
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import StatusSwitch from '../../../components/RecordKit/StatusSwitch.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { createFundAccount, enableFundAccounts, listFundAccounts, updateFundAccount, type FundAccountRow } from '../../../components/Finance/fund-accounts.ts';

const KIND_COLOR: Record<FundKind, string> = { cash: 'gold', bank: 'blue', ewallet: 'cyan' };

interface FundForm {
  name: string;
  kind: FundKind;
  accountNumber?: string;
  openingBalance?: number;
  openingDate: Dayjs;
  remark?: string;
}

/** Why the kind and the opening of an account cannot change now (money has moved, or it is disabled), if so. */
function openingLock(row: FundAccountRow | undefined): 'moved' | 'disabled' | undefined {
  if (!row) return undefined;
  if (row.moved) return 'moved';
  return row.enabled ? undefined : 'disabled';
}

/**
 * Finance → fund accounts (menu finance_account): cash, bank and e-wallet accounts with their balances; add
 * one with its opening balance, edit one (its kind and opening only while nothing but the opening has
 * posted), enable or disable one (only at a zero balance).
 */
export default function FundAccountPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance' });
  const { message } = App.useApp();
  const language = useGlobalStore((s) => s.language);
  const table = useRef<ProTableAction<FundAccountRow>>(undefined);
  const [dialog, setDialog] = useState<{ mode: 'add' | 'edit'; row?: FundAccountRow }>();
  const load = useCallback(() => listFundAccounts(), []);
  const writes = useRecordWrites<FundAccountRow>({ table, enable: enableFundAccounts });
  const recordColumns = useRecordColumns();

  const columns = useMemo<ProColumn<FundAccountRow>[]>(
    () => [
      { prop: 'name', title: t('account.name'), width: 180 },
      { prop: 'kind', title: t('account.kind'), width: 110, render: (_, r) => <Tag color={KIND_COLOR[r.kind]}>{FUND_KIND_LABELS[r.kind][language]}</Tag> },
      { prop: 'accountNumber', title: t('account.number'), width: 160, render: (v) => (v as string) || '—' },
      { prop: 'openingDate', title: t('account.openingDate'), width: 120 },
      { prop: 'openingBalance', title: t('account.openingBalance'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      { prop: 'balance', title: t('account.balance'), width: 150, align: 'right', render: (v) => formatMoney(v as string) },
      {
        prop: 'enabled',
        title: t('account.enabled'),
        width: 90,
        align: 'center',
        // Checked before sending: an account with money on it cannot be switched off (the server refuses it too).
        render: (_, r) => (
          <StatusSwitch
            record="finance_account"
            id={r.id}
            checked={r.enabled}
            onChange={(on) => writes.setEnabled([r], on)}
            confirmOff={t('account.disableConfirm', { name: r.name })}
            disabled={r.enabled && Number(r.balance) !== 0}
            disabledTip={t('account.balanceBlocksDisable')}
          />
        ),
      },
      { prop: 'remark', title: t('account.remark'), width: 160 },
      recordColumns.actions<FundAccountRow>(90, (r) => <RowActions record="finance_account" id={r.id} name={r.name} onEdit={() => setDialog({ mode: 'edit', row: r })} />),
    ],
    [t, language, writes, recordColumns],
  );

  const editing = dialog?.mode === 'edit' ? dialog.row : undefined;
  const lock = openingLock(editing);

  const submit = async (values: FundForm) => {
    if (editing) {
      await updateFundAccount({
        id: editing.id,
        name: values.name,
        accountNumber: values.accountNumber ?? '',
        remark: values.remark ?? '',
        ...(lock ? {} : { kind: values.kind, openingBalance: values.openingBalance ?? 0, openingDate: values.openingDate.format('YYYY-MM-DD') }),
      });
      void message.success(t('account.updated'));
      table.current?.reload();
      return;
    }
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
        toolbar={<AddButton record="finance_account" onClick={() => setDialog({ mode: 'add' })} />}
        data-testid="finance-accounts"
      />
      <FormDialog<FundForm>
        open={!!dialog}
        mode={dialog?.mode ?? 'add'}
        entity={t('account.entity')}
        onClose={() => setDialog(undefined)}
        onSubmit={submit}
        successMessage={false}
        initialValues={
          editing
            ? { name: editing.name, kind: editing.kind, accountNumber: editing.accountNumber, openingBalance: Number(editing.openingBalance), openingDate: dayjs(editing.openingDate), remark: editing.remark }
            : { kind: 'bank', openingDate: dayjs() }
        }
        data-testid="fund-account-dialog"
      >
        <Form.Item name="name" label={t('account.name')} rules={[{ required: true, whitespace: true, message: t('account.nameRequired') }, { max: 100 }]}>
          <Input maxLength={100} data-testid="fund-account-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('account.kind')} rules={[{ required: true }]} extra={lock && t(lock === 'moved' ? 'account.openingFixed' : 'account.openingDisabled')}>
          <Select options={FundKind.map((k) => ({ value: k, label: FUND_KIND_LABELS[k][language] }))} disabled={!!lock} data-testid="fund-account-kind" />
        </Form.Item>
        <Form.Item name="accountNumber" label={t('account.number')} rules={[{ max: 50 }]}>
          <Input maxLength={50} data-testid="fund-account-number" />
        </Form.Item>
        <Form.Item name="openingBalance" label={t('account.openingBalance')} rules={[{ type: 'number', min: 0, message: t('account.openingNegative') }]}>
          <NumberInput kind="amount" min={0} max={99999999999999} style={{ width: '100%' }} disabled={!!lock} data-testid="fund-account-opening" />
        </Form.Item>
        <Form.Item name="openingDate" label={t('account.openingDate')} rules={[{ required: true, message: t('account.dateRequired') }]}>
          <DatePicker style={{ width: '100%' }} disabled={!!lock} />
        </Form.Item>
        <Form.Item name="remark" label={t('account.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea maxLength={500} rows={2} data-testid="fund-account-remark" />
        </Form.Item>
      </FormDialog>
    </>
  );
}
