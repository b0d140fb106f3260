import { useMemo, useState } from 'react';
import { Button, Form, Input, Space, Typography } from 'antd';
import { PlusOutlined, ScanOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Material, MaterialTag } from '@p8/contract/basic';
import type { BillLineView } from '@p8/contract/bills/api';
import type { AmountRules } from '@p8/contract/bills/amounts';
import { LINE_KINDS, lineKindOf, MAX_BILL_LINES, type BillTypeDecl } from '@p8/contract/bills/registry';
import { abs, microText, toMicro } from '@p8/contract/bills/decimal';
import { nameKey } from '@p8/contract/bills/fields';
import { formatMoney } from '../../../components/Finance/money.ts';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import LineGrid, { type LineColumn } from '../../../components/LineGrid/index.tsx';
import MaterialInput, { type PickedMaterial } from '../../../components/Pickers/MaterialInput.tsx';
import MaterialPicker from '../../../components/Pickers/MaterialPicker.tsx';
import { listPickerMaterials } from '../../../components/Pickers/api/list-picker-materials.ts';
import { formatNumber } from '../../../components/ProTable/format.ts';
import { feedback } from '../../../app/feedback.ts';
import { useFormChanged } from '../../../components/FormDialog/unsaved.ts';
import { gridFields, labelOf, lineFigures, liveLineAmount } from '../kit.ts';
import BatchCell from './BatchCell.tsx';
import ReadingsCell from './ReadingsCell.tsx';
import { fieldRules } from './field-rules.ts';
import { BomField, FieldControl, LineOfBillSelect, LocationField, UnitField, type Picked } from './controls.tsx';

/** A line as the form holds it: the declared fields, the material and pickers as records, the unit's ratio. */
export type LineRow = Record<string, unknown> & {
  id?: number;
  materialId?: PickedMaterial | null;
  unitId?: number | null;
  unitName?: string | null;
  ratio?: number;
  number?: number | null;
  unitPrice?: number | null;
  taxRate?: number | null;
  discountRate?: number | null;
  warehouseId?: Picked | null;
  sourceLineId?: number | null;
  sourceBillCode?: string | null;
};

/** A saved line for the form. */
export function lineOfView(line: BillLineView): LineRow {
  const row: LineRow = { ...line };
  // Lines of money have no material.
  row.materialId = line.materialId ? { id: line.materialId as number, code: line.materialCode, name: line.materialName, specification: line.specification } : null;
  for (const key of ['warehouseId', 'targetWarehouseId']) {
    if (line[key]) row[key] = { id: line[key] as number, name: (line[key.replace(/Id$/, 'Name')] as string | undefined) ?? `#${String(line[key])}` };
  }
  const base = Number(line.baseNumber ?? 0);
  const number = Number(line.number ?? 0);
  row.ratio = number > 0 && base > 0 ? base / number : 1;
  return row;
}

/** A new line of a material: its main unit, one of it. */
export const lineOfMaterial = (m: Material): LineRow => ({
  materialId: { id: m.id, code: m.code, name: m.name, specification: m.specification },
  unitId: m.mainUnitId,
  unitName: m.mainUnitName,
  ratio: 1,
  number: 1,
});

/** Keys the grid computes from the others (shown, never typed). */
const COMPUTED = new Set(['priceTotal', 'taxUnitPrice', 'taxPriceTotal', 'baseNumber']);

/** Material cell: choosing another material resets the unit to its main unit. */
function MaterialCell({ index, value, onChange, testId, tag }: { index: number; value?: PickedMaterial | null; onChange?: (v: PickedMaterial | null) => void; testId: string; tag?: MaterialTag }) {
  const form = Form.useFormInstance();
  return (
    <MaterialInput
      compact
      value={value}
      tag={tag}
      data-testid={testId}
      onChange={(m) => {
        onChange?.(m);
        form.setFieldValue(['lines', index, 'unitId'], m?.mainUnitId ?? null);
        form.setFieldValue(['lines', index, 'unitName'], m?.mainUnitName ?? null);
        form.setFieldValue(['lines', index, 'ratio'], 1);
      }}
    />
  );
}

function UnitCell({ index, row, value, onChange, testId }: { index: number; row: Partial<LineRow>; value?: number | null; onChange?: (v: number | null) => void; testId: string }) {
  const form = Form.useFormInstance();
  return <UnitField materialId={row.materialId?.id} fallbackName={row.unitName} value={value} onChange={onChange} onRatio={(r) => form.setFieldValue(['lines', index, 'ratio'], r)} data-testid={testId} />;
}

/** Location cell: a location of the line's warehouse (its own, else the bill's; the target ones for a transfer's target). */
function LocationCell({ field, row, value, onChange, disabled, testId }: { field: string; row: Partial<LineRow>; value?: number | null; onChange?: (v: number | null) => void; disabled: boolean; testId: string }) {
  const warehouseKey = field === 'targetLocationId' ? 'targetWarehouseId' : 'warehouseId';
  const header = Form.useWatch(warehouseKey) as Picked | null | undefined;
  const own = row[warehouseKey] as Picked | null | undefined;
  return <LocationField warehouseId={own?.id ?? header?.id} value={value} onChange={onChange} disabled={disabled} data-testid={testId} />;
}

interface BillLinesProps {
  decl: BillTypeDecl;
  config: TenantConfigView | undefined;
  rules: AmountRules;
  view: boolean;
  lang: string;
}

/**
 * The bill's lines on the shared LineGrid, a column per declared line field (those whose tenant switch is
 * on): material by picker or by code / barcode entry, unit among the material's units (the main-unit
 * quantity follows its ratio), batch, serials, warehouse, tax and discount; amounts computed as typed with
 * the contract's arithmetic (what the server stores). Test ids `bill-line-<n>-<field>`.
 */
export default function BillLines({ decl, config, rules, view, lang }: BillLinesProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const [picking, setPicking] = useState(false);
  const [code, setCode] = useState('');
  const changed = useFormChanged();
  const fields = useMemo(() => gridFields(decl, config), [decl, config]);
  const kind = lineKindOf(decl);

  const columns = useMemo<LineColumn<LineRow>[]>(() => {
    const cols: LineColumn<LineRow>[] = [{ key: 'index', title: '#', width: 44, align: 'center', watch: 'none', render: ({ index }) => index + 1 }];
    for (const field of fields) {
      const title = labelOf(field.label, lang);
      const width = field.width ?? 120;
      if (field.key === 'sourceBillId') {
        // The bill a settlement line settles: chosen by push down, shown by its code.
        cols.push({ key: field.key, title, width, watch: 'row', render: ({ row, testId }) => <span data-testid={testId}>{String(row.sourceBillCode ?? '')}</span> });
      } else if (decl.lineAmount && field.key === 'amount') {
        // Computed from the line's items and deductions as typed (a salary line's net pay), never negative.
        cols.push({
          key: field.key,
          title,
          width,
          align: 'right',
          watch: 'row',
          render: ({ row, testId }) => {
            const amount = liveLineAmount(decl, row, rules.amountDigits) ?? 0n;
            return (
              <Typography.Text type={amount < 0n ? 'danger' : undefined} strong data-testid={testId}>
                {formatMoney(microText(amount), rules.amountDigits)}
              </Typography.Text>
            );
          },
        });
      } else if (kind !== 'material' && field.readOnly) {
        cols.push({ key: field.key, title, width, align: 'right', watch: 'row', render: ({ row, testId }) => <span data-testid={testId}>{formatMoney(row[field.key] as string | undefined, rules.amountDigits)}</span> });
      } else if (kind === 'settlement' && field.key === 'amount') {
        // Within what is open on the bill and of its sign, checked as the server will (exact decimals).
        cols.push({
          key: field.key,
          field: field.key,
          title,
          width,
          watch: 'none',
          rules: [
            { required: true, message: t('error.PleaseInputAmount') },
            ({ getFieldValue }) => ({
              validator: async (rule, value) => {
                const index = Number(String((rule as { field?: string }).field ?? '').split('.')[1]);
                const open = toMicro(String(getFieldValue(['lines', index, 'openAmount']) ?? 0));
                const amount = toMicro(String(value ?? 0));
                if (amount === 0n) throw new Error(t('error.AmountMustGreaterThanZero'));
                if (amount > 0n !== open > 0n) throw new Error(t('bill.signOfBill'));
                if (abs(amount) > abs(open)) throw new Error(t('bill.beyondOpen', { open: formatMoney(microText(open), rules.amountDigits) }));
              },
            }),
          ],
          render: ({ testId }) => <FieldControl field={field} lang={lang} size="small" testId={testId} />,
        });
      } else if (field.key === 'materialId') {
        cols.push({
          key: field.key,
          field: 'materialId',
          title,
          width,
          rules: [{ required: true, message: t('error.PleaseSelectMaterial') }],
          render: ({ index, testId }) => <MaterialCell index={index} testId={testId} tag={decl.materialTag?.tag} />,
        });
      } else if (field.key === 'unitId') {
        cols.push({ key: field.key, field: 'unitId', title, width, watch: 'row', render: ({ index, row, testId }) => <UnitCell index={index} row={row} testId={testId} /> });
      } else if (field.kind === 'readings') {
        // An inspection line's readings, against the template its material (and step) takes.
        cols.push({ key: field.key, field: field.key, title, width, watch: 'row', render: ({ row, testId }) => <ReadingsCell decl={decl} materialId={row.materialId?.id} processId={row.processId as number | null | undefined} view={view} testId={testId} /> });
      } else if (field.ofLines) {
        cols.push({ key: field.key, field: field.key, title, width, watch: 'none', render: ({ testId }) => <LineOfBillSelect field={field} disabled={view} size="small" data-testid={testId} /> });
      } else if (field.ref === 'bom') {
        cols.push({ key: field.key, field: field.key, title, width, watch: 'row', render: ({ row, testId }) => <BomField materialId={row.materialId?.id} disabled={view} data-testid={testId} /> });
      } else if (field.ref === 'location') {
        cols.push({ key: field.key, field: field.key, title, width, watch: 'row', render: ({ row, testId }) => <LocationCell field={field.key} row={row} disabled={view} testId={testId} /> });
      } else if (field.key === 'batchNumber' && decl.stock !== 'none' && decl.stock !== 'in' && decl.stock !== 'check') {
        cols.push({ key: field.key, field: field.key, title, width: Math.max(width, 150), watch: 'row', render: ({ index, row, testId }) => <BatchCell decl={decl} index={index} row={row} testId={testId} /> });
      } else if (COMPUTED.has(field.key)) {
        const digits = field.kind === 'quantity' ? rules.numberDigits : rules.amountDigits;
        cols.push({
          key: field.key,
          title,
          width,
          align: 'right',
          render: ({ row, testId }) => <span data-testid={testId}>{formatNumber(lineFigures(row, rules)[field.key as 'priceTotal'], digits)}</span>,
        });
      } else if (field.readOnly) {
        // Shown as the server answers it (a stock check's book quantity), with the tenant's digits for figures.
        const digits = field.kind === 'quantity' ? rules.numberDigits : field.kind === 'amount' || field.kind === 'price' ? rules.amountDigits : undefined;
        // A record by its name, a choice by its label (an inspection line's template and verdict).
        const shown = (row: LineRow) =>
          field.kind === 'record'
            ? String(row[nameKey(field.key)] ?? '')
            : field.kind === 'enum'
              ? labelOf(field.options?.find((o) => o.value === row[field.key])?.label ?? { zh: '', en: '' }, lang)
              : digits === undefined
                ? String(row[field.key] ?? '')
                : formatNumber(row[field.key], digits);
        const align = field.kind === 'record' || field.kind === 'enum' ? 'left' : 'right';
        cols.push({ key: field.key, title, width, align, render: ({ row, testId }) => <span data-testid={testId}>{shown(row)}</span> });
      } else {
        cols.push({
          key: field.key,
          field: field.key,
          title,
          width,
          watch: 'none',
          rules: fieldRules(field, t, kind === 'material' ? rules : undefined),
          render: ({ testId }) => <FieldControl field={field} lang={lang} size="small" testId={testId} />,
        });
      }
    }
    if (kind === 'material') cols.push({ key: 'source', title: t('bill.sourceBill'), width: 150, render: ({ row }) => <Typography.Text type="secondary">{row.sourceBillCode ?? ''}</Typography.Text> });
    return cols;
  }, [decl, fields, kind, lang, rules, t, view]);

  const rows = () => (form.getFieldValue('lines') as LineRow[] | undefined) ?? [];

  /** Code or barcode entry: Enter adds the material whose code matches exactly, or the only one whose code, name or unit barcode matches (the picker search). */
  const enterCode = async (add: (row: LineRow) => void) => {
    const text = code.trim();
    if (!text) return;
    const page = await listPickerMaterials({ keyword: text, current: 1, pageSize: 20, tag: decl.materialTag?.tag });
    const found = page.data.find((m) => m.code === text) ?? (page.data.length === 1 ? page.data[0] : undefined);
    if (!found) {
      feedback.message.warning(t('bill.codeNotFound', { code: text }));
      return;
    }
    const at = rows().findIndex((r) => r.materialId?.id === found.id && !r.sourceLineId);
    if (at >= 0) {
      form.setFieldValue(['lines', at, 'number'], Number(rows()[at].number ?? 0) + 1);
      changed();
    } else add(lineOfMaterial(found));
    setCode('');
  };

  return (
    <LineGrid<LineRow>
      name="lines"
      data-testid="bill-lines"
      rowTestId="bill-line"
      columns={columns}
      view={view}
      maxRows={MAX_BILL_LINES}
      height={420}
      newRow={() => (kind === 'material' ? { number: 1, ratio: 1 } : {})}
      emptyText={t(kind === 'material' ? 'bill.noLines' : kind === 'settlement' ? 'bill.noSettleLines' : 'bill.noMoneyLines')}
      rules={[
        {
          validator: async (_r, list: LineRow[] | undefined) => {
            // As many lines as the type needs (the contract's rule the server applies too).
            if ((list?.length ?? 0) < (decl.minLines ?? LINE_KINDS[kind].minLines)) throw new Error(t('error.BillItemsEmpty'));
          },
        },
      ]}
      addButton={(add, count) =>
        kind === 'settlement' ? null : kind !== 'material' ? (
          <Button type="dashed" icon={<PlusOutlined />} style={{ marginTop: 12 }} disabled={count >= MAX_BILL_LINES} onClick={() => add({})} data-testid="bill-line-add">
            {t('bill.addMoneyLine')}
          </Button>
        ) : (
        <Space style={{ marginTop: 12 }} wrap>
          <Button icon={<PlusOutlined />} disabled={count >= MAX_BILL_LINES} onClick={() => setPicking(true)} data-testid="bill-line-pick">
            {t('bill.pickMaterials')}
          </Button>
          <Button type="dashed" icon={<PlusOutlined />} disabled={count >= MAX_BILL_LINES} onClick={() => add({ number: 1, ratio: 1 })} data-testid="bill-line-add">
            {t('bill.addLine')}
          </Button>
          <Input
            prefix={<ScanOutlined />}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => void enterCode((row) => add(row))}
            placeholder={t('bill.codeEntry')}
            style={{ width: 260 }}
            data-testid="bill-code-entry"
          />
          <MaterialPicker
            open={picking}
            tag={decl.materialTag?.tag}
            onClose={() => setPicking(false)}
            onOk={(materials) => {
              for (const m of materials) add(lineOfMaterial(m));
              setPicking(false);
            }}
          />
        </Space>
      )}
    />
  );
}
