import { useMemo } from 'react';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { toMicro } from '@p8/contract/bills/decimal';
import FormDialog from '../../../components/FormDialog/index.tsx';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { inputPrecision } from '../../../components/NumberInput/precision.ts';
import { useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { createTransfer, type MoneyDocRow } from '../../../components/Finance/api.ts';
import { formatMoney } from '../../../components/Finance/money.ts';
import MoneyDocs, { useFundAccounts, type MoneyFormProps } from '../../../components/Finance/MoneyDocs.tsx';

interface TransferForm {
  fromAccountId: number;
  toAccountId: number;
  amount: string;
  docDate: Dayjs;
  remark?: string;
}

/** Finance → transfers (menu finance_transfer): money moved between fund accounts; sort, export, add and abandon. */
export default function TransferPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const columns = useMemo<ProColumn<MoneyDocRow>[]>(
    () => [
      { prop: 'fromAccountName', title: t('fromAccount'), width: 160 },
      { prop: 'toAccountName', title: t('toAccount'), width: 160 },
    ],
    [t],
  );

  return (
    <MoneyDocs
      kind="transfer"
      columns={columns}
      form={TransferDialog}
    />
  );
}

/** What an amount column holds: below 10^14 (14 digits before the point, as the server's money schema). */
const AMOUNT_LIMIT = 10n ** 14n * 1_000_000n;

/**
 * Add a transfer: two different enabled accounts and a positive amount within what the columns hold, typed to
 * the tenant's decimal places — checked before sending.
 */
function TransferDialog({ open, onClose, onSaved }: MoneyFormProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const { t: root } = useTranslation();
  const { settings } = useTenantConfig();
  const funds = useFundAccounts();
  const options = (funds.data ?? []).filter((f) => f.enabled).map((f) => ({ value: f.id, label: `${f.name} (${formatMoney(f.balance)})` }));
  const submit = async (values: TransferForm) => {
    await createTransfer({ docDate: values.docDate.format('YYYY-MM-DD'), fromAccountId: values.fromAccountId, toAccountId: values.toAccountId, amount: values.amount, remark: values.remark ?? '' });
    onSaved();
  };
  return (
    <FormDialog<TransferForm> open={open} mode="add" labelCol={{ flex: '130px' }} entity={t('entity.transfer')} onClose={onClose} onSubmit={submit} initialValues={{ docDate: dayjs() }} data-testid="transfer-form">
      <Form.Item name="fromAccountId" label={t('fromAccount')} rules={[{ required: true, message: t('fundRequired') }]}>
        <Select options={options} data-testid="transfer-from" />
      </Form.Item>
      <Form.Item
        name="toAccountId"
        label={t('toAccount')}
        dependencies={['fromAccountId']}
        rules={[
          { required: true, message: t('fundRequired') },
          ({ getFieldValue }) => ({ validator: (_, v) => (v && v === getFieldValue('fromAccountId') ? Promise.reject(new Error(t('sameAccount'))) : Promise.resolve()) }),
        ]}
      >
        <Select options={options} data-testid="transfer-to" />
      </Form.Item>
      <Form.Item
        name="amount"
        label={t('amount')}
        rules={[
          { required: true, message: t('amountRequired') },
          {
            validator: (_, v: string | null | undefined) => {
              if (!v) return Promise.resolve();
              const micro = toMicro(String(v));
              if (micro <= 0n) return Promise.reject(new Error(t('amountPositive')));
              return micro >= AMOUNT_LIMIT ? Promise.reject(new Error(root('error.AmountOutOfRange'))) : Promise.resolve();
            },
          },
        ]}
      >
        <InputNumber<string> stringMode precision={inputPrecision({ kind: 'amount' }, settings)} style={{ width: '100%' }} data-testid="transfer-amount" />
      </Form.Item>
      <Form.Item name="docDate" label={t('date')} rules={[{ required: true, message: t('dateRequired') }]}>
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 500 }]}>
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
