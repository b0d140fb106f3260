import { useMemo } from 'react';
import { Col, DatePicker, Form, Input, Row, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { MallPrizeKind, type MallLottery, type MallPrizeInput } from '@p8/contract/mall';
import LineGrid, { type LineColumn } from '../../../../components/LineGrid/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import { createLottery, updateLottery } from '../api/lottery.ts';

interface LotteryForm {
  name: string;
  time: [Dayjs, Dayjs];
  drawLimit: number;
  rule?: string;
  enabled: boolean;
  prizes: Array<Partial<MallPrizeInput>>;
}

const sumOf = (prizes: Array<Partial<MallPrizeInput>> | undefined) => (prizes ?? []).reduce((n, p) => n + Math.round((p?.probability ?? 0) * 100), 0) / 100;

const bodyOf = (v: LotteryForm) => ({
  name: v.name.trim(),
  startAt: v.time[0].format('YYYY-MM-DD HH:mm:ss'),
  endAt: v.time[1].format('YYYY-MM-DD HH:mm:ss'),
  drawLimit: v.drawLimit ?? 0,
  rule: v.rule?.trim() ?? '',
  enabled: v.enabled,
  prizes: v.prizes.map((p) => ({ ...(p.id ? { id: p.id } : {}), ...(p.id && p.stockSeen !== undefined && { stockSeen: p.stockSeen }), name: (p.name ?? '').trim(), kind: p.kind ?? 'goods', image: p.image ?? '', probability: p.probability ?? 0, stock: p.kind === 'none' ? 0 : (p.stock ?? 0) })),
});

/**
 * Add / edit / view a lottery activity: name, time window, draws per customer, rules, and the prizes —
 * each with its kind, chance and stock; exactly one "no prize" slot, and chances adding up to 100 %.
 */
export default function LotteryDialog({ detail, ...dialog }: RecordDialogProps<MallLottery> & { detail?: MallLottery }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.lottery' });
  const record = detail ?? dialog.state.record;
  const initialValues: Partial<LotteryForm> = record
    ? {
        name: record.name,
        time: [dayjs(record.startAt), dayjs(record.endAt)],
        drawLimit: record.drawLimit,
        rule: record.rule,
        enabled: record.enabled,
        // stockSeen: the stock read, so that the server applies the change typed to the stock there is then.
        prizes: record.prizes.map(({ id, name, kind, image, probability, stock }) => ({ id, name, kind, image, probability, stock, stockSeen: stock })),
      }
    : { drawLimit: 1, enabled: true, prizes: [{ name: '', kind: 'goods', probability: 10, stock: 10 }, { name: t('defaultNone'), kind: 'none', probability: 90, stock: 0 }] };

  const columns = useMemo<LineColumn<Partial<MallPrizeInput>>[]>(
    () => [
      { key: 'name', field: 'name', title: t('prizeName'), width: 220, rules: [{ required: true, whitespace: true }], render: ({ testId }) => <Input size="small" maxLength={30} data-testid={testId} /> },
      {
        key: 'kind',
        field: 'kind',
        title: t('prizeKind'),
        width: 130,
        render: ({ testId }) => <Select size="small" options={MallPrizeKind.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} data-testid={testId} />,
      },
      { key: 'probability', field: 'probability', title: t('probability'), width: 120, render: ({ testId }) => <NumberInput size="small" min={0} max={100} precision={2} data-testid={testId} /> },
      {
        key: 'stock',
        field: 'stock',
        title: t('prizeStock'),
        width: 120,
        watch: 'row',
        // Not `disabled={false}`: that would enable the field in the view dialog, whose form disables the rest.
        render: ({ row, testId }) => <NumberInput size="small" integer min={0} disabled={row.kind === 'none' || undefined} data-testid={testId} />,
      },
    ],
    [t],
  );

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      width={900}
      bodyOf={bodyOf}
      create={createLottery}
      update={updateLottery}
      labelCol={{ flex: '110px' }}
      data-testid="lottery-dialog"
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true }, { max: 50 }]}>
            <Input maxLength={50} data-testid="lottery-name" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="drawLimit" label={t('drawLimit')} extra={t('drawLimitTip')}>
            <NumberInput integer min={0} max={1000} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="time" label={t('time')} rules={[{ required: true }]}>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="enabled" label={t('status')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="rule" label={t('rule')} rules={[{ max: 2000 }]}>
            <Input.TextArea rows={2} maxLength={2000} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item noStyle shouldUpdate={(a: LotteryForm, b: LotteryForm) => a.prizes !== b.prizes}>
        {({ getFieldValue }) => {
          const sum = sumOf(getFieldValue('prizes') as LotteryForm['prizes']);
          return (
            <Typography.Paragraph type={sum === 100 ? 'secondary' : 'danger'} data-testid="lottery-sum">
              {t('prizes')} · {t('probabilitySum', { sum: sum.toFixed(2) })}
            </Typography.Paragraph>
          );
        }}
      </Form.Item>
      <LineGrid<Partial<MallPrizeInput>>
        name="prizes"
        rowTestId="prize"
        data-testid="lottery-prizes"
        columns={columns}
        view={dialog.state.mode === 'view'}
        maxRows={12}
        newRow={() => ({ name: '', kind: 'goods', probability: 0, stock: 0 })}
        addText={t('addPrize')}
        rules={[
          {
            validator: async (_, prizes: LotteryForm['prizes'] | undefined) => {
              if ((prizes ?? []).filter((p) => p?.kind === 'none').length !== 1) throw new Error(t('noneSlotError'));
              if (sumOf(prizes) !== 100) throw new Error(t('probabilitySumError'));
            },
          },
        ]}
      />
    </RecordFormDialog>
  );
}
