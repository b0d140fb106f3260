import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Select, Space, Table, Typography, type FormInstance, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MALL_MAX_SPEC_VALUES, MALL_MAX_SPECS, type MallSpec } from '@p8/contract/mall';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { completeSpecs, skuRows, type SkuRow } from './sku-matrix.ts';

/**
 * The SKU editor (`sku_dialog`): spec names with their values on top; below, one SKU per combination of
 * the values with its price, list price, cost, stock, code and image. Changing the specs keeps what was
 * typed for every combination that stays.
 */
export default function SkuEditor({ form, view }: { form: FormInstance; view: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.product' });
  const watched = Form.useWatch<Array<Partial<MallSpec>> | undefined>('specs', { form, preserve: true });
  const specs = useMemo(() => completeSpecs(watched), [watched]);
  const specsKey = JSON.stringify(specs);
  // Before the form has told its values (the first render) there is nothing to follow yet.
  const ready = watched !== undefined;

  // The rows follow the specs; what was typed for a kept combination stays.
  useEffect(() => {
    if (view || !ready) return;
    const current = form.getFieldValue('skus') as SkuRow[] | undefined;
    form.setFieldValue('skus', skuRows(JSON.parse(specsKey) as MallSpec[], current));
  }, [specsKey, form, view, ready]);

  return (
    <div data-testid="sku-dialog">
      <Form.List name="specs">
        {(fields, { add, remove }) => (
          <Card size="small" title={t('specs')} style={{ marginBottom: 16 }}>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{t('noSpecsTip')}</Typography.Paragraph>}
            {fields.map((field, index) => (
              <Space key={field.key} align="start" style={{ display: 'flex', marginBottom: 8 }}>
                <Form.Item name={[field.name, 'name']} rules={[{ required: true, whitespace: true, message: t('specNamePlaceholder') }, { max: 20 }]} style={{ marginBottom: 0 }}>
                  <Input placeholder={t('specNamePlaceholder')} style={{ width: 160 }} maxLength={20} data-testid={`spec-${index}-name`} />
                </Form.Item>
                <Form.Item name={[field.name, 'values']} rules={[{ required: true, message: t('specValuesPlaceholder') }]} style={{ marginBottom: 0 }}>
                  <Select
                    mode="tags"
                    open={false}
                    suffixIcon={null}
                    tokenSeparators={[',', '，']}
                    placeholder={t('specValuesPlaceholder')}
                    style={{ width: 560 }}
                    maxCount={MALL_MAX_SPEC_VALUES}
                    data-testid={`spec-${index}-values`}
                  />
                </Form.Item>
                {!view && <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('removeSpec')} onClick={() => remove(field.name)} data-testid={`spec-${index}-remove`} />}
              </Space>
            ))}
            {!view && (
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MALL_MAX_SPECS} onClick={() => add({ name: '', values: [] })} data-testid="spec-add">
                {fields.length >= MALL_MAX_SPECS ? t('maxSpecs') : t('addSpec')}
              </Button>
            )}
          </Card>
        )}
      </Form.List>
      <SkuGrid form={form} specs={specs} view={view} />
    </div>
  );
}

type BatchField = 'price' | 'marketPrice' | 'costPrice' | 'stock';

function SkuGrid({ form, specs, view }: { form: FormInstance; specs: MallSpec[]; view: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.product' });
  // The SKU fields are registered by the rows themselves: watch the stored values.
  const rows = (Form.useWatch<SkuRow[] | undefined>('skus', { form, preserve: true }) ?? []) as SkuRow[];
  const [batch, setBatch] = useState<Partial<Record<BatchField, number | null>>>({});

  const applyBatch = () => {
    const current = (form.getFieldValue('skus') as SkuRow[] | undefined) ?? [];
    const filled = Object.fromEntries(Object.entries(batch).filter(([, v]) => v !== null && v !== undefined));
    form.setFieldValue('skus', current.map((row) => ({ ...row, ...filled })));
  };

  const money = (field: BatchField, required: boolean) => (_: unknown, __: SkuRow, index: number) => (
    <Form.Item name={['skus', index, field]} rules={required ? [{ required: true, message: t('skuRequired') }] : []} style={{ marginBottom: 0 }}>
      <NumberInput kind="amount" precision={2} min={0} max={99_999_999.99} style={{ width: '100%' }} data-testid={`sku-${index}-${field}`} />
    </Form.Item>
  );

  const columns: TableColumnsType<SkuRow> = [
    ...(specs.length
      ? specs.map((spec, i) => ({ key: `spec${i}`, title: spec.name, width: 100, render: (_: unknown, row: SkuRow) => row.specValues[i] }))
      : [{ key: 'spec', title: t('skuSpec'), width: 100, render: () => t('single') }]),
    { key: 'price', title: <Typography.Text>{t('skuPrice')} *</Typography.Text>, width: 130, render: money('price', true) },
    { key: 'marketPrice', title: t('skuMarketPrice'), width: 130, render: money('marketPrice', false) },
    { key: 'costPrice', title: t('skuCostPrice'), width: 130, render: money('costPrice', false) },
    {
      key: 'stock',
      title: <Typography.Text>{t('skuStock')} *</Typography.Text>,
      width: 120,
      render: (_, __, index) => (
        <Form.Item name={['skus', index, 'stock']} rules={[{ required: true, message: t('skuRequired') }]} style={{ marginBottom: 0 }}>
          <NumberInput integer min={0} max={99_999_999} style={{ width: '100%' }} data-testid={`sku-${index}-stock`} />
        </Form.Item>
      ),
    },
    {
      key: 'code',
      title: t('skuCode'),
      width: 140,
      render: (_, __, index) => (
        <Form.Item name={['skus', index, 'code']} style={{ marginBottom: 0 }}>
          <Input maxLength={50} data-testid={`sku-${index}-code`} />
        </Form.Item>
      ),
    },
    {
      key: 'image',
      title: t('skuImage'),
      width: 120,
      render: (_, __, index) => (
        <Form.Item name={['skus', index, 'image']} style={{ marginBottom: 0 }}>
          <ImageUpload single showTip={false} />
        </Form.Item>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t('skuTitle')}
      extra={<Typography.Text type="secondary">{t('skuCountTip', { count: rows.length })}</Typography.Text>}
      styles={{ body: { padding: 0 } }}
    >
      {!view && rows.length > 1 && (
        <Space wrap style={{ padding: '8px 12px' }} data-testid="sku-batch">
          <Typography.Text>{t('batchFill')}</Typography.Text>
          {(['price', 'marketPrice', 'costPrice', 'stock'] as const).map((field) => (
            <NumberInput
              key={field}
              {...(field === 'stock' ? { integer: true } : { kind: 'amount' as const, precision: 2 })}
              min={0}
              placeholder={t(field === 'price' ? 'skuPrice' : field === 'marketPrice' ? 'skuMarketPrice' : field === 'costPrice' ? 'skuCostPrice' : 'skuStock')}
              value={batch[field] ?? null}
              onChange={(v) => setBatch((b) => ({ ...b, [field]: v as number | null }))}
              style={{ width: 120 }}
              data-testid={`sku-batch-${field}`}
            />
          ))}
          <Button onClick={applyBatch} data-testid="sku-batch-apply">
            {t('batchApply')}
          </Button>
        </Space>
      )}
      {rows.length > 200 && <Alert type="warning" showIcon title={t('skuCountTip', { count: rows.length })} />}
      <Table<SkuRow>
        size="small"
        rowKey={(row) => row.specValues.join('\u0001') || 'single'}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content', y: 420 }}
        data-testid="sku-grid"
      />
    </Card>
  );
}
