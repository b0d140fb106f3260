import { useState } from 'react';
import { Button, Form, Input, Select, Table, Tooltip, Typography, type TableColumnType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Material } from '@p8/contract/basic';
import MaterialPicker from '../../../../components/Pickers/MaterialPicker.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { formatNumber } from '../../../../components/ProTable/format.ts';
import { useTenantConfig } from '../../../../hooks/useTenantConfig.ts';
import { materialQuery } from '../../../../components/Pickers/api/get-material.ts';

/** One BOM line in the form: the child material (shown), its quantity per parent quantity, loss, unit, remark. */
export interface LineRow {
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  quantity?: number;
  lossRate?: number;
  unitId?: number | null;
  /** Shown while the material's units load (and for a unit since removed). */
  unitName?: string | null;
  remark?: string;
}

/** Lines per BOM (the contract's limit). */
const MAX_LINES = 500;

export const lineOfMaterial = (m: Material): LineRow => ({
  materialId: m.id,
  materialCode: m.code,
  materialName: m.name,
  specification: m.specification,
  quantity: 1,
  lossRate: 0,
  unitId: m.mainUnitId,
  unitName: m.mainUnitName,
  remark: '',
});

/** The unit of a line: one of the child material's enabled units (its main unit by default). */
function LineUnitSelect({ materialId, fallbackName, value, onChange, index }: { materialId: number; fallbackName?: string | null; value?: number | null; onChange?: (v: number | null) => void; index: number }) {
  const { t } = useTranslation();
  const detail = useQuery(materialQuery(materialId));
  const options = (detail.data?.units ?? [])
    .filter((u) => u.enabled || u.unitId === value)
    .map((u) => ({ value: u.unitId, label: u.isMain ? `${u.unitName} (${t('basic.material.units.main')})` : `${u.unitName} (×${u.ratio})` }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: fallbackName ?? `#${value}` });
  return (
    <Select
      size="small"
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      loading={detail.isPending}
      allowClear
      placeholder={t('basic.bom.line.mainUnit')}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      data-testid={`bom-line-${index}-unit`}
    />
  );
}

interface LinesEditorProps {
  view: boolean;
  /** The parent material: it cannot be its own line. */
  parentId?: number;
  /** The BOM's parent quantity, for the "per one parent" figure. */
  parentQuantity?: number;
}

/**
 * The lines of a BOM: materials chosen with the MaterialPicker (several at once; a material appears
 * once and never the parent itself), each with its quantity (> 0) per the parent quantity, loss rate
 * (0–100 %), unit and remark. Test ids: `bom-line-add`, `bom-line-<n>-quantity|loss|unit|remove`.
 * Row fields are `preserve`d for the reason given in the material's units editor.
 */
export default function LinesEditor({ view, parentId, parentQuantity }: LinesEditorProps) {
  const { t } = useTranslation();
  const { settings } = useTenantConfig();
  const form = Form.useFormInstance();
  const rows = (Form.useWatch('lines', { form, preserve: true }) as LineRow[] | undefined) ?? [];
  const [picking, setPicking] = useState(false);
  const taken = [...(parentId ? [parentId] : []), ...rows.map((r) => r.materialId)];

  return (
    <Form.List
      name="lines"
      rules={[
        {
          validator: async (_, list: LineRow[] | undefined) => {
            if (!list?.length) throw new Error(t('error.BomItemsEmpty'));
            if (parentId && list.some((l) => l.materialId === parentId)) throw new Error(t('error.BomCannotContainSelf'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => {
        const columns: TableColumnType<(typeof fields)[number]>[] = [
          { key: 'index', title: '#', width: 44, align: 'center', render: (_, field) => field.name + 1 },
          {
            key: 'material',
            title: t('basic.bom.line.material'),
            width: 230,
            render: (_, field) => {
              const row = rows[field.name];
              return row ? (
                <div data-testid={`bom-line-${field.name}-material`}>
                  <div>
                    <Typography.Text strong>{row.materialCode}</Typography.Text> {row.materialName}
                  </div>
                  {row.specification && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {row.specification}
                    </Typography.Text>
                  )}
                </div>
              ) : null;
            },
          },
          {
            key: 'quantity',
            title: t('basic.bom.line.quantity'),
            width: 130,
            render: (_, field) => (
              <Form.Item
                preserve
                name={[field.name, 'quantity']}
                rules={[
                  {
                    validator: async (_r, v: number | null | undefined) => {
                      if (v === null || v === undefined || !(v > 0)) throw new Error(t('error.NumberMustGreaterThanZero'));
                    },
                  },
                ]}
              >
                <NumberInput size="small" min={0} max={1e9} data-testid={`bom-line-${field.name}-quantity`} />
              </Form.Item>
            ),
          },
          {
            key: 'lossRate',
            title: t('basic.bom.line.lossRate'),
            width: 110,
            render: (_, field) => (
              <Form.Item preserve name={[field.name, 'lossRate']}>
                <NumberInput size="small" min={0} max={100} precision={2} suffix="%" data-testid={`bom-line-${field.name}-loss`} />
              </Form.Item>
            ),
          },
          {
            key: 'need',
            title: (
              <Tooltip title={t('basic.bom.line.needTip')}>
                <span>{t('basic.bom.line.need')}</span>
              </Tooltip>
            ),
            width: 100,
            align: 'right',
            render: (_, field) => {
              const row = rows[field.name];
              if (!row?.quantity || !(parentQuantity && parentQuantity > 0)) return '—';
              return formatNumber((row.quantity / parentQuantity) * (1 + (row.lossRate ?? 0) / 100), settings.numberRetainsSmallDigit);
            },
          },
          {
            key: 'unit',
            title: t('basic.bom.line.unit'),
            width: 140,
            render: (_, field) => {
              const row = rows[field.name];
              return (
                <Form.Item preserve name={[field.name, 'unitId']}>
                  {row ? <LineUnitSelect materialId={row.materialId} fallbackName={row.unitName} index={field.name} /> : <span />}
                </Form.Item>
              );
            },
          },
          {
            key: 'remark',
            title: t('basic.common.remark'),
            render: (_, field) => (
              <Form.Item preserve name={[field.name, 'remark']}>
                <Input size="small" maxLength={500} data-testid={`bom-line-${field.name}-remark`} />
              </Form.Item>
            ),
          },
          ...(view
            ? []
            : [
                {
                  key: 'remove',
                  title: '',
                  width: 48,
                  align: 'center' as const,
                  render: (_: unknown, field: (typeof fields)[number]) => (
                    <Tooltip title={t('basic.common.remove')}>
                      <Button
                        type="text"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        onClick={() => remove(field.name)}
                        aria-label={t('basic.common.remove')}
                        data-testid={`bom-line-${field.name}-remove`}
                      />
                    </Tooltip>
                  ),
                },
              ]),
        ];
        return (
          <div className="p8-basic-lines" data-testid="bom-lines">
            <Table rowKey="key" size="small" bordered pagination={false} columns={columns} dataSource={fields} scroll={{ x: 900, y: 320 }} locale={{ emptyText: t('basic.bom.noLines') }} />
            {errors.length > 0 && (
              <Typography.Text type="danger" role="alert" data-testid="lines-error">
                {errors[0]}
              </Typography.Text>
            )}
            {!view && (
              <>
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  style={{ marginTop: 12 }}
                  disabled={fields.length >= MAX_LINES}
                  onClick={() => setPicking(true)}
                  data-testid="bom-line-add"
                >
                  {t('basic.bom.addLines')}
                </Button>
                <MaterialPicker
                  open={picking}
                  onClose={() => setPicking(false)}
                  disabledIds={taken}
                  title={t('basic.bom.pickLines')}
                  onOk={(materials) => {
                    for (const m of materials) if (!taken.includes(m.id)) add(lineOfMaterial(m));
                    void form.validateFields(['lines']).catch(() => undefined);
                  }}
                />
              </>
            )}
          </div>
        );
      }}
    </Form.List>
  );
}
