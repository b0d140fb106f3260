import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MONEY_TYPE_LABELS, MONEY_TYPE_SHAPES, type AcceptedMoneyType } from '@p8/contract/finance';
import type { ProColumn } from '../ProTable/index.tsx';
import { useGlobalStore } from '../../stores/global.ts';
import type { MoneyDocRow } from './api.ts';
import MoneyDocs, { useFundAccounts, type MoneyFormProps } from './MoneyDocs.tsx';
import PartnerMoneyForm from './PartnerMoneyForm.tsx';

const PaymentForm = (props: MoneyFormProps) => <PartnerMoneyForm side="payment" {...props} />;
const ReceiptForm = (props: MoneyFormProps) => <PartnerMoneyForm side="receipt" {...props} />;

/** Finance → payments or receipts: the list of `MoneyDocs` with the type, partner and fund account, and its form. */
export default function PartnerMoneyDocs({ side }: { side: 'payment' | 'receipt' }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'finance.money' });
  const language = useGlobalStore((s) => s.language);
  const funds = useFundAccounts();
  const columns = useMemo<ProColumn<MoneyDocRow>[]>(() => {
    const types = (Object.keys(MONEY_TYPE_SHAPES) as AcceptedMoneyType[]).filter((k) => MONEY_TYPE_SHAPES[k].side === side);
    const fundName = new Map((funds.data ?? []).map((f) => [f.id, f.name]));
    return [
      { prop: 'moneyType', title: t('type'), width: 160, valueEnum: Object.fromEntries(types.map((k) => [k, { text: MONEY_TYPE_LABELS[k][language] }])), search: true },
      { prop: 'partnerName', title: t(`partner.${side}`), width: 200 },
      { prop: 'fundAccountId', title: t('fundAccount'), width: 150, render: (v) => (v ? (fundName.get(v as number) ?? `#${v as number}`) : '—') },
    ];
  }, [t, side, language, funds.data]);
  return <MoneyDocs kind={side} columns={columns} form={side === 'payment' ? PaymentForm : ReceiptForm} />;
}
