import { useMemo, useState } from 'react';
import { Button, Checkbox, Modal, Segmented, Table, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BillSourceBill, BillSourceLine } from '@p8/contract/bills/api';
import { billType } from '@p8/contract/bills/catalogue';
import { lineKindOf, type BillTypeDecl } from '@p8/contract/bills/registry';
import { formatMoney } from '../../../components/Finance/money.ts';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import NumberInput from '../../../components/NumberInput/index.tsx';
import { formatNumber } from '../../../components/ProTable/format.ts';
import { http } from '../../../app/http.ts';
import useTenantConfig from '../../../hooks/useTenantConfig.ts';
import { labelOf, pushDownNumbers, pushDownQuantityMax } from '../kit.ts';
import { quietly } from '../kit-errors.ts';

/**
 * Push down in two steps: first the open lines of audited bills of one of the type's source types (the
 * declaration's `sources`), several chosen at once; then the chosen lines, where the user lowers a
 * quantity (never above the open quantity unless the source's "beyond" switch is on) or drops a line.
 * The server makes a new draft with those quantities and checks them again as any save.
 * A type with settlement lines (payments, receipts) picks whole bills with what is open of their amount, in one step.
 */
export default function PushDownDialog({
  decl,
  api,
  lang,
  partnerId,
  onClose,
  onDone,
}: {
  decl: BillTypeDecl;
  api: string;
  lang: string;
  /** The supplier or customer already chosen on the new bill: the picker starts with that partner's bills only. */
  partnerId?: number;
  onClose: () => void;
  onDone: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { config, settings } = useTenantConfig();
  const [sourceType, setSourceType] = useState(decl.sources[0]?.type ?? '');
  const [chosen, setChosen] = useState<BillSourceLine[]>([]);
  const [step, setStep] = useState<'pick' | 'adjust'>('pick');
  const [numbers, setNumbers] = useState<Record<number, number | null>>({});
  const [busy, setBusy] = useState(false);
  const [partnerOnly, setPartnerOnly] = useState(partnerId !== undefined);
  const params = useMemo(() => ({ sourceType, ...(partnerOnly && partnerId !== undefined ? { partnerId } : {}) }), [sourceType, partnerOnly, partnerId]);
  const source = decl.sources.find((s) => s.type === sourceType);
  const beyond = !!source?.beyondSwitch && (config as Record<string, unknown> | undefined)?.[source.beyondSwitch] === true;
  const digits = settings.numberRetainsSmallDigit;

  const byBill = lineKindOf(decl) === 'settlement';
  // A column's render gets the cell's value first, the row second.
  const money = (key: keyof BillSourceBill) => (_value: unknown, row: BillSourceLine | BillSourceBill) => formatMoney((row as BillSourceBill)[key] as string);
  const columns = useMemo<ProColumn<BillSourceLine | BillSourceBill>[]>(
    () => byBill ? ([
      { prop: 'sourceBillCode', title: t('bill.sourceBill'), width: 170, search: { key: 'keyword', label: t('bill.billCode') } },
      { prop: 'sourceBillDate', title: t('bill.billDate'), width: 110 },
      { prop: 'partnerName', title: t('bill.partner'), width: 200 },
      { prop: 'amount', title: t('bill.billAmount'), width: 130, align: 'right', render: money('amount') },
      { prop: 'takenAmount', title: t('bill.takenAmount'), width: 130, align: 'right', render: money('takenAmount') },
      { prop: 'openAmount', title: t('bill.openAmount'), width: 130, align: 'right', render: money('openAmount') },
    ] as ProColumn<BillSourceLine | BillSourceBill>[]) : ([
      { prop: 'sourceBillCode', title: t('bill.sourceBill'), width: 170, search: { key: 'keyword', label: t('bill.keyword') } },
      { prop: 'sourceBillDate', title: t('bill.billDate'), width: 110 },
      { prop: 'partnerName', title: t('bill.partner'), width: 160 },
      { prop: 'materialCode', title: t('bill.materialCode'), width: 130 },
      { prop: 'materialName', title: t('bill.materialName'), width: 180 },
      { prop: 'specification', title: t('bill.specification'), width: 120 },
      { prop: 'unitName', title: t('bill.unit'), width: 70 },
      { prop: 'number', title: t('bill.sourceNumber'), width: 100, valueType: 'number' },
      { prop: 'takenNumber', title: t('bill.takenNumber'), width: 100, valueType: 'number' },
      { prop: 'openNumber', title: t('bill.openNumber'), width: 100, valueType: 'number' },
    ] as ProColumn<BillSourceLine | BillSourceBill>[]),
    [byBill, t],
  );

  const make = async () => {
    setBusy(true);
    let made: { id: number } | undefined;
    const sourceLineIds = chosen.map((l) => l.sourceLineId);
    // Whole bills take what is open of their amount; lines take the quantities of the adjust step.
    const body = byBill ? { sourceType, sourceLineIds } : { sourceType, sourceLineIds, numbers: pushDownNumbers(chosen, numbers) };
    const ok = await quietly(async () => (made = await http.post<{ id: number }>(`${api}/pushDown`, body)));
    setBusy(false);
    if (ok && made) onDone(made.id);
  };
  const incomplete = !byBill && chosen.some((l) => !(Number(numbers[l.sourceLineId] ?? l.openNumber) > 0));

  return (
    <Modal
      open
      width={1100}
      title={t(byBill ? 'bill.pushDownBillsTitle' : 'bill.pushDownTitle', { name: labelOf(decl.label, lang) })}
      onCancel={onClose}
      destroyOnHidden
      data-testid="bill-pushdown-dialog"
      footer={
        step === 'pick' ? (
          <>
            <Button onClick={onClose}>{t('bill.close')}</Button>
            {byBill ? (
              <Button type="primary" disabled={!chosen.length} loading={busy} onClick={() => void make()} data-testid="bill-pushdown-ok">
                {t('bill.pushDownBillsOk', { count: chosen.length })}
              </Button>
            ) : (
              <Button type="primary" disabled={!chosen.length} onClick={() => setStep('adjust')} data-testid="bill-pushdown-next">
                {t('bill.pushDownNext', { count: chosen.length })}
              </Button>
            )}
          </>
        ) : (
          <>
            <Button onClick={() => setStep('pick')} data-testid="bill-pushdown-back">
              {t('bill.pushDownBack')}
            </Button>
            <Button type="primary" disabled={!chosen.length || incomplete} loading={busy} onClick={() => void make()} data-testid="bill-pushdown-ok">
              {t('bill.pushDownOk', { count: chosen.length })}
            </Button>
          </>
        )
      }
    >
      {step === 'pick' && decl.sources.length > 1 && (
        <Segmented
          value={sourceType}
          onChange={(v) => {
            setSourceType(String(v));
            setChosen([]);
            setNumbers({});
          }}
          options={decl.sources.map((s) => ({ value: s.type, label: labelOf(billType(s.type)?.label ?? { zh: s.type, en: s.type }, lang) }))}
          style={{ marginBottom: 12 }}
        />
      )}
      <div style={{ display: step === 'pick' ? undefined : 'none' }}>
        <ProTable<BillSourceLine>
          path={`${api}/sources`}
          params={params}
          toolbar={
            partnerId !== undefined && (
              <Checkbox checked={partnerOnly} onChange={(e) => setPartnerOnly(e.target.checked)} data-testid="bill-pushdown-partner-only">
                {t('bill.pushDownPartnerOnly')}
              </Checkbox>
            )
          }
          rowKey="sourceLineId"
          columns={columns as ProColumn<BillSourceLine>[]}
          scroll={{ y: 380 }}
          size="small"
          rowSelection={{
            selectedRowKeys: chosen.map((l) => l.sourceLineId),
            // Rows chosen on another page stay chosen: the table tells only the rows of its page.
            onChange: (keys, rows) => {
              const known = new Map([...chosen, ...rows].map((r) => [r.sourceLineId, r]));
              setChosen(keys.map((k) => known.get(Number(k))).filter((r): r is BillSourceLine => !!r));
            },
          }}
        />
      </div>
      {step === 'adjust' && (
        <>
          <Typography.Paragraph type="secondary">{t('bill.pushDownAdjust', { rule: beyond ? t('bill.pushDownBeyondOn') : t('bill.pushDownBeyondOff') })}</Typography.Paragraph>
          <Table<BillSourceLine>
            rowKey="sourceLineId"
            size="small"
            pagination={false}
            scroll={{ y: 380 }}
            dataSource={chosen}
            data-testid="bill-pushdown-lines"
            columns={[
              { dataIndex: 'sourceBillCode', title: t('bill.sourceBill'), width: 170 },
              { dataIndex: 'materialCode', title: t('bill.materialCode'), width: 130 },
              { dataIndex: 'materialName', title: t('bill.materialName'), width: 180, ellipsis: true },
              { dataIndex: 'unitName', title: t('bill.unit'), width: 70 },
              { dataIndex: 'openNumber', title: t('bill.openNumber'), width: 110, align: 'right', render: (v: string) => formatNumber(Number(v), digits) },
              {
                key: 'number',
                title: t('bill.pushDownQuantity'),
                width: 150,
                render: (_v, line) => (
                  <NumberInput
                    min={0}
                    max={pushDownQuantityMax(line, beyond)}
                    value={numbers[line.sourceLineId] === undefined ? Number(line.openNumber) : numbers[line.sourceLineId]}
                    onChange={(value) => setNumbers((n) => ({ ...n, [line.sourceLineId]: value ?? null }))}
                    data-testid={`bill-pushdown-number-${line.sourceLineId}`}
                  />
                ),
              },
              {
                key: 'drop',
                title: '',
                width: 80,
                render: (_v, line) => (
                  <Button
                    type="link"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => setChosen((c) => c.filter((l) => l.sourceLineId !== line.sourceLineId))}
                    data-testid={`bill-pushdown-drop-${line.sourceLineId}`}
                  >
                    {t('bill.pushDownRemove')}
                  </Button>
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
