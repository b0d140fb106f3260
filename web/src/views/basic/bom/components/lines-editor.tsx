import { useMemo, useState } from 'react';
import { Button, Form, Input, Select, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BOM_ITEM_TYPE_LABELS, BomItemType, type Material } from '@p8/contract/basic';
import LineGrid, { type LineColumn } from '../../../../components/LineGrid/index.tsx';
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
  /** 子项类型: standard, or a consumable the orders' picks may take freely. */
  itemType?: BomItemType;
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
  // A material tagged consumables (耗材) comes in as a consumable line; the user may change either.
  itemType: m.tags?.includes('consumables') ? 'Consumable' : 'Standard',
  unitId: m.mainUnitId,
  unitName: m.mainUnitName,
  remark: '',
});

/** The unit of a line: one of the child material's enabled units (its main unit by default). */
function LineUnitSelect({ materialId, fallbackName, value, onChange, testId }: { materialId?: number; fallbackName?: string | null; value?: number | null; onChange?: (v: number | null) => void; testId: string }) {
  const { t } = useTranslation();
  const detail = useQuery({ ...materialQuery(materialId ?? 0), enabled: !!materialId });
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
      data-testid={testId}
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
 * The lines of a BOM on the shared LineGrid: materials chosen with the MaterialPicker (several at once;
 * a material appears once and never the parent itself), each with its quantity (> 0) per the parent
 * quantity, loss rate (0–100 %), unit and remark. Test ids: `bom-line-add`,
 * `bom-line-<n>-material|quantity|loss|itemType|unit|remark|remove`.
 */
export default function LinesEditor({ view, parentId, parentQuantity }: LinesEditorProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { settings } = useTenantConfig();
  const form = Form.useFormInstance();
  const [picking, setPicking] = useState(false);

  const columns = useMemo<LineColumn<LineRow>[]>(
    () => [
      { key: 'index', title: '#', width: 44, align: 'center', watch: 'none', render: ({ index }) => index + 1 },
      {
        key: 'material',
        title: t('basic.bom.line.material'),
        width: 230,
        render: ({ row, testId }) =>
          row.materialId ? (
            <div data-testid={testId}>
              <div>
                <Typography.Text strong>{row.materialCode}</Typography.Text> {row.materialName}
              </div>
              {row.specification && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {row.specification}
                </Typography.Text>
              )}
            </div>
          ) : null,
      },
      {
        key: 'quantity',
        field: 'quantity',
        title: t('basic.bom.line.quantity'),
        width: 130,
        rules: [
          {
            validator: async (_r, v: number | null | undefined) => {
              if (v === null || v === undefined || !(v > 0)) throw new Error(t('error.NumberMustGreaterThanZero'));
            },
          },
        ],
        render: ({ testId }) => <NumberInput size="small" min={0} max={1e9} data-testid={testId} />,
      },
      {
        key: 'loss',
        field: 'lossRate',
        title: t('basic.bom.line.lossRate'),
        width: 110,
        render: ({ testId }) => <NumberInput size="small" min={0} max={100} precision={2} suffix="%" data-testid={testId} />,
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
        render: ({ row }) => {
          if (!row.quantity || !(parentQuantity && parentQuantity > 0)) return '—';
          return formatNumber((row.quantity / parentQuantity) * (1 + (row.lossRate ?? 0) / 100), settings.numberRetainsSmallDigit);
        },
      },
      {
        key: 'itemType',
        field: 'itemType',
        title: t('basic.bom.line.itemType'),
        // "Consumable" whole in English.
        width: 136,
        render: ({ testId }) => <Select size="small" options={BomItemType.map((value) => ({ value, label: BOM_ITEM_TYPE_LABELS[value][lang] }))} popupMatchSelectWidth={false} style={{ width: '100%' }} data-testid={testId} />,
      },
      {
        key: 'unit',
        field: 'unitId',
        title: t('basic.bom.line.unit'),
        width: 140,
        // The choice is among the units of the row's material.
        watch: 'row',
        render: ({ row, testId }) => <LineUnitSelect materialId={row.materialId} fallbackName={row.unitName} testId={testId} />,
      },
      {
        key: 'remark',
        field: 'remark',
        title: t('basic.common.remark'),
        width: 200,
        render: ({ testId }) => <Input size="small" maxLength={500} data-testid={testId} />,
      },
    ],
    [t, lang, parentQuantity, settings.numberRetainsSmallDigit],
  );

  return (
    <LineGrid<LineRow>
      name="lines"
      data-testid="bom-lines"
      rowTestId="bom-line"
      columns={columns}
      view={view}
      maxRows={MAX_LINES}
      height={320}
      emptyText={t('basic.bom.noLines')}
      rules={[
        {
          validator: async (_, list: LineRow[] | undefined) => {
            if (!list?.length) throw new Error(t('error.BomItemsEmpty'));
            if (parentId && list.some((l) => l.materialId === parentId)) throw new Error(t('error.BomCannotContainSelf'));
          },
        },
      ]}
      // Lines come from the material picker, several at once.
      addButton={(add, count) => {
        const rows = (form.getFieldValue('lines') as LineRow[] | undefined) ?? [];
        const taken = [...(parentId ? [parentId] : []), ...rows.map((r) => r.materialId)];
        return (
          <>
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              style={{ marginTop: 12 }}
              disabled={count >= MAX_LINES}
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
        );
      }}
    />
  );
}
