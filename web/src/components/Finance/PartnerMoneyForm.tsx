import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, InputNumber, Select, Table, Typography, type FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import { MONEY_TYPE_LABELS, MONEY_TYPE_SHAPES, type AcceptedMoneyType } from '@p8/contract/finance';
import FormDialog from '../FormDialog/index.tsx';
import { useTenantConfig } from '../../hooks/useTenantConfig.ts';
import { useGlobalStore } from '../../stores/global.ts';
import PartnerPick, { type PickedPartner } from './PartnerPick.tsx';
import { createMoneyDoc, openBills, type OpenBill } from './api.ts';
import { formatMoney } from './money.ts';
import { useFundAccounts } from './MoneyDocs.tsx';
import { checkSettlement, type SettleInput, type SettleProblem } from './settle.ts';

interface MoneyForm {
  moneyType: AcceptedMoneyType;
  partner?: PickedPartner;
  fundAccountId?: number;
  docDate: Dayjs;
  settle?: SettleInput;
  amount?: string;
  remark?: string;
}

const SIDES = {
  payment: { open: 'payable', partner: 'supplier', first: 'OrdinaryPay' },
  receipt: { open: 'receivable', partner: 'customer', first: 'OrdinaryReceipt' },
} as const;

/** The open bills of the partner with an amount to settle per bill (decimal text; `finance-settle-<code>`). */
function SettleField({ bills, value, onChange }: { bills: OpenBill[]; value?: SettleInput; onChange?: (v: SettleInput) => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const { settings } = useTenantConfig();
  const digits = settings.amountRetainsSmallDigit;
  const set = (billId: number, amount: string | null) => onChange?.({ ...value, [billId]: amount });
  return (
    <Table<OpenBill>
      size="small"
      rowKey="billId"
      pagination={false}
      scroll={{ y: 240 }}
      dataSource={bills}
      locale={{ emptyText: t('noOpenBills') }}
      columns={[
        { dataIndex: 'billCode', title: t('billCode'), width: 180 },
        { dataIndex: 'billDate', title: t('billDate'), width: 100 },
        { dataIndex: 'amount', title: t('billAmount'), align: 'right', render: (v: string) => formatMoney(v, digits) },
        {
          dataIndex: 'unsettled',
          title: t('unsettled'),
          align: 'right',
          render: (v: string, b) => (
            <Typography.Link onClick={() => set(b.billId, microText(toMicro(v)))} title={t('settleAll')}>
              {formatMoney(v, digits)}
            </Typography.Link>
          ),
        },
        {
          key: 'settle',
          title: t('settleAmount'),
          width: 150,
          render: (_, b) => (
            <InputNumber<string>
              stringMode
              size="small"
              precision={digits}
              style={{ width: '100%' }}
              value={value?.[b.billId] ?? null}
              onChange={(v) => set(b.billId, v)}
              data-testid={`finance-settle-${b.billCode}`}
            />
          ),
        },
      ]}
    />
  );
}

/**
 * Add a payment (to a supplier) or a receipt (from a customer): the type, the partner, the fund account
 * (not for a deduction from prepaid or a settlement from the advance), and for the types that settle bills
 * the partner's open bills with the amount to settle on each — checked before sending, in exact decimals,
 * never beyond what is open. An advance, and a settlement payment beyond its bills, takes an amount.
 */
export default function PartnerMoneyForm({ side, open, onClose, onSaved }: { side: 'payment' | 'receipt'; open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const language = useGlobalStore((s) => s.language);
  const s = SIDES[side];
  const types = (Object.keys(MONEY_TYPE_SHAPES) as AcceptedMoneyType[]).filter((k) => MONEY_TYPE_SHAPES[k].side === side);
  const funds = useFundAccounts();

  const submit = async (values: MoneyForm) => {
    const shape = MONEY_TYPE_SHAPES[values.moneyType];
    const bills = shape.settles ? await openBills(s.open, values.partner!.id) : [];
    const { allocations } = checkSettlement(bills, shape.settles ? (values.settle ?? {}) : {}, shape.settles);
    const base = {
      docDate: values.docDate.format('YYYY-MM-DD'),
      partnerId: values.partner!.id,
      fundAccountId: shape.fund ? values.fundAccountId : null,
      allocations,
      amount: shape.settles && !('surplusToBalance' in shape) ? null : (values.amount ?? null),
      remark: values.remark ?? '',
    };
    await createMoneyDoc(side, side === 'payment' ? { payType: values.moneyType as 'OrdinaryPay', ...base } : { receiptType: values.moneyType as 'OrdinaryReceipt', ...base });
    onSaved();
  };

  return (
    <FormDialog<MoneyForm> open={open} mode="add" width={860} entity={t(`entity.${side}`)} labelCol={{ flex: '130px' }} onClose={onClose} onSubmit={submit} initialValues={{ moneyType: s.first, docDate: dayjs(), settle: {} }} data-testid={`${side}-form`}>
      {({ form }) => <MoneyFields side={side} types={types} language={language} funds={funds.data ?? []} form={form} />}
    </FormDialog>
  );
}

interface FieldsProps {
  side: 'payment' | 'receipt';
  types: AcceptedMoneyType[];
  language: 'zh' | 'en';
  funds: Array<{ id: number; name: string; enabled: boolean; balance: string }>;
  form: FormInstance<MoneyForm>;
}

function problemText(t: (key: string, options?: Record<string, string>) => string, problem: SettleProblem): string {
  if (!problem) return '';
  return problem.key === 'settleRequired' ? t('settleRequired') : t(problem.key, { code: problem.billCode, open: formatMoney(problem.open, 6).replace(/\.?0+$/, '') });
}

function MoneyFields({ side, types, language, funds, form }: FieldsProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const s = SIDES[side];
  const moneyType = Form.useWatch('moneyType', form) ?? s.first;
  const partner = Form.useWatch('partner', form);
  const settle = Form.useWatch('settle', form);
  const shape = MONEY_TYPE_SHAPES[moneyType];
  const bills = useQuery({ queryKey: ['finance', 'openBills', s.open, partner?.id], queryFn: () => openBills(s.open, partner!.id), enabled: !!partner && shape.settles });
  const openList = bills.data ?? [];
  const check = checkSettlement(openList, settle ?? {}, shape.settles);
  const needsAmount = !shape.settles || 'surplusToBalance' in shape;
  return (
    <>
      <Form.Item name="moneyType" label={t('type')} rules={[{ required: true }]}>
        <Select options={types.map((k) => ({ value: k, label: MONEY_TYPE_LABELS[k][language] }))} data-testid={`${side}-type`} />
      </Form.Item>
      <Form.Item name="partner" label={t(`partner.${side}`)} rules={[{ required: true, message: t(`partnerRequired.${side}`) }]}>
        <PartnerPick kind={s.partner} data-testid={`${side}-partner`} />
      </Form.Item>
      {shape.fund && (
        <Form.Item name="fundAccountId" label={t('fundAccount')} rules={[{ required: true, message: t('fundRequired') }]}>
          <Select
            options={funds.filter((f) => f.enabled).map((f) => ({ value: f.id, label: `${f.name} (${formatMoney(f.balance)})` }))}
            data-testid={`${side}-fund`}
          />
        </Form.Item>
      )}
      <Form.Item name="docDate" label={t('date')} rules={[{ required: true, message: t('dateRequired') }]}>
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      {shape.settles && (
        <Form.Item
          name="settle"
          label={t('bills')}
          extra={partner ? t('settledTotal', { total: formatMoney(microText(check.total)) }) : t('pickPartnerFirst')}
          rules={[{ validator: () => (check.problem ? Promise.reject(new Error(problemText(t, check.problem))) : Promise.resolve()) }]}
        >
          <SettleField bills={openList} />
        </Form.Item>
      )}
      {needsAmount && (
        <Form.Item
          name="amount"
          label={t(shape.settles ? 'amountWithSurplus' : 'advanceAmount')}
          rules={[
            { required: !shape.settles, message: t('amountRequired') },
            {
              validator: (_, v: string | null | undefined) => {
                if (v === null || v === undefined || v === '') return Promise.resolve();
                const amount = toMicro(String(v));
                if (amount <= 0n) return Promise.reject(new Error(t('amountPositive')));
                if (shape.settles && amount < check.total) return Promise.reject(new Error(t('amountBelowBills', { total: formatMoney(microText(check.total)) })));
                return Promise.resolve();
              },
            },
          ]}
        >
          <InputNumber<string> stringMode style={{ width: '100%' }} data-testid={`${side}-amount`} />
        </Form.Item>
      )}
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 500 }]}>
        <Input.TextArea maxLength={500} rows={2} />
      </Form.Item>
    </>
  );
}
