import { DatePicker, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { staffListNamesKey, type FieldDecl } from '@p8/contract/bills/fields';
import RichText from '../../../components/RichText/index.tsx';
import StaffSelect from '../../../components/Pickers/StaffSelect.tsx';
import SupplierPicker from '../../../components/Pickers/SupplierPicker.tsx';
import CustomerPicker from '../../../components/Pickers/CustomerPicker.tsx';
import WarehousePicker from '../../../components/Pickers/WarehousePicker.tsx';
import RecordInput from '../../../components/Pickers/RecordInput.tsx';
import { pickPartners } from '../../../components/Pickers/api/pick-partners.ts';
import { pickWarehouses } from '../../../components/Pickers/api/pick-warehouses.ts';
import NumberInput from '../../../components/NumberInput/index.tsx';
import { materialQuery } from '../../../components/Pickers/api/get-material.ts';
import { pickLocations } from '../../../components/Pickers/api/pick-locations.ts';
import { pickBoms } from '../../../components/Pickers/api/pick-boms.ts';
import { labelOf } from '../kit.ts';
import RecordRefControl, { type ValueProps } from '../../../components/RecordKit/RecordRefControl.tsx';

/** A picked record as the form keeps it: its id (what is sent) and its name (what is shown). */
export interface Picked {
  id: number;
  name: string;
}

/** The records picked in a dialog (a search over many, with their details), kept in the form as `Picked`. */
export const DIALOG_PICKED: ReadonlySet<string> = new Set(['supplier', 'customer', 'warehouse']);

/** A supplier, customer or warehouse field: its name, and the kit's picker to change it. */
export function RecordPick({ kind, value, onChange, disabled, size, ...rest }: ValueProps<Picked> & { kind: 'supplier' | 'customer' | 'warehouse' }) {
  const { t } = useTranslation();
  // The line material's mechanism (RecordInput): a typed code that matches one record takes it, Enter or ↓
  // (or a click) opens the kit's picker on what was typed, so a bill's header is filled without the mouse.
  const search = (keyword: string, pageSize: number): Promise<Array<{ id: number; code: string; name: string }>> =>
    (kind === 'warehouse' ? pickWarehouses({ keyword, current: 1, pageSize }) : pickPartners(kind, { keyword, current: 1, pageSize })).then((page) => page.data);
  const pick = (row: { id: number; name: string } | undefined) => {
    if (row) onChange?.({ id: row.id, name: row.name });
  };
  return (
    <RecordInput
      label={value?.name ?? ''}
      search={search}
      optionLabel={(row) => `${row.code} · ${row.name}`}
      onChoose={pick}
      picker={({ keyword, onClose }) =>
        kind === 'supplier' ? (
          <SupplierPicker open keyword={keyword} multiple={false} onClose={onClose} onOk={([r]) => pick(r)} />
        ) : kind === 'customer' ? (
          <CustomerPicker open keyword={keyword} multiple={false} onClose={onClose} onOk={([r]) => pick(r)} />
        ) : (
          <WarehousePicker open keyword={keyword} multiple={false} onClose={onClose} onOk={([r]) => pick(r)} />
        )
      }
      disabled={disabled}
      placeholder={t('bill.pick')}
      opensOnKeys
      size={size}
      buttonLabel={t('bill.pick')}
      data-testid={rest['data-testid'] ?? `record-pick-${kind}`}
    />
  );
}

/** The unit of a line: one of its material's enabled units, with how many main units it holds. */
export function UnitField({ materialId, fallbackName, value, onChange, onRatio, disabled, ...rest }: ValueProps<number> & { materialId?: number; fallbackName?: string | null; onRatio: (ratio: number) => void }) {
  const detail = useQuery({ ...materialQuery(materialId ?? 0), enabled: !!materialId });
  const units = detail.data?.units ?? [];
  const options = units.filter((u) => u.enabled || u.unitId === value).map((u) => ({ value: u.unitId, label: u.isMain ? u.unitName : `${u.unitName} ×${u.ratio}` }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: fallbackName ?? `#${value}` });
  return (
    <Select
      size="small"
      value={value ?? undefined}
      onChange={(v: number) => {
        onChange?.(v ?? null);
        onRatio(units.find((u) => u.unitId === v)?.ratio ?? 1);
      }}
      options={options}
      disabled={disabled}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      data-testid={rest['data-testid']}
    />
  );
}

/**
 * A choice among the records of the line's parent (a warehouse's locations, a material's BOMs), read once per
 * parent; without a parent there is nothing to choose from and `placeholder` says what to pick first.
 */
function ParentBoundSelect<T>({ parentId, queryKey, load, toOption, placeholder, notFoundContent, value, onChange, disabled, ...rest }: ValueProps<number> & {
  parentId?: number | null;
  queryKey: string;
  load: (parentId: number) => Promise<T[]>;
  /** At render, so that a label follows the language. */
  toOption: (row: T) => { value: number; label: string };
  placeholder: string;
  notFoundContent?: string;
}) {
  const found = useQuery({ queryKey: [queryKey, parentId], queryFn: () => load(parentId!), enabled: !!parentId, staleTime: 60_000 });
  return (
    <Select
      size="small"
      value={value ?? undefined}
      onChange={(v?: number) => onChange?.(v ?? null)}
      options={(found.data ?? []).map(toOption)}
      allowClear
      loading={found.isFetching}
      disabled={disabled || !parentId}
      placeholder={parentId ? undefined : placeholder}
      notFoundContent={notFoundContent}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      data-testid={rest['data-testid']}
    />
  );
}

/**
 * A storage location of a line: one of the enabled locations of the warehouse the line names (or, when it
 * names none, the bill's).
 */
export function LocationField({ warehouseId, ...props }: ValueProps<number> & { warehouseId?: number | null }) {
  const { t } = useTranslation();
  return (
    <ParentBoundSelect
      {...props}
      parentId={warehouseId}
      queryKey="bill-line-locations"
      load={async (id) => (await pickLocations({ current: 1, pageSize: 100, warehouseId: id })).data}
      toOption={(l) => ({ value: l.id, label: l.name })}
      placeholder={t('bill.warehouseFirst')}
    />
  );
}

/** A BOM of the line's material (its versions, the default marked); none to choose until the material is. */
export function BomField({ materialId, ...props }: ValueProps<number> & { materialId?: number | null }) {
  const { t } = useTranslation();
  return (
    <ParentBoundSelect
      {...props}
      parentId={materialId}
      queryKey="bill-line-boms"
      load={async (id) => (await pickBoms({ current: 1, pageSize: 100, materialId: id })).data}
      toOption={(b) => ({ value: b.id, label: b.isDefault ? `${b.version} (${t('bill.bomDefault')})` : b.version })}
      placeholder={t('bill.materialFirst')}
      notFoundContent={t('bill.noBom')}
    />
  );
}

/**
 * A line field naming another line of the bill by its material (`ofLines`: a production order's material line
 * names the product it is for): the materials of the bill's lines that meet the declaration, as the form holds them
 * now — a product added above is offered at once.
 */
export function LineOfBillSelect({ field, ...props }: ValueProps<number> & { field: FieldDecl }) {
  const form = Form.useFormInstance();
  const condition = field.ofLines!.lines;
  // Only the offered materials are watched (a string, so the cell re-renders only when they change).
  const offered = Form.useWatch((values: { lines?: Array<Record<string, unknown>> }) => {
    const seen = new Map<number, string>();
    for (const line of values.lines ?? []) {
      const material = line.materialId as { id?: number; code?: string; name?: string } | null | undefined;
      if (material?.id && condition.values.includes(String(line[condition.field] ?? ''))) seen.set(material.id, `${material.code ?? ''} ${material.name ?? ''}`.trim());
    }
    return JSON.stringify([...seen]);
  }, form);
  const options = (JSON.parse(offered ?? '[]') as Array<[number, string]>).map(([value, label]) => ({ value, label }));
  if (props.value && !options.some((o) => o.value === props.value)) options.push({ value: props.value, label: `#${props.value}` });
  return (
    <Select
      size={props.size}
      value={props.value ?? undefined}
      onChange={(v?: number) => props.onChange?.(v ?? null)}
      options={options}
      allowClear
      disabled={props.disabled}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      data-testid={props['data-testid']}
    />
  );
}

/** The control of a declared field by its kind (header form and line grid alike). */
export function FieldControl({ field, lang, size, testId, ...item }: { field: FieldDecl; lang: string; size?: 'small' | 'middle'; testId: string; value?: never; onChange?: never; id?: string }) {
  // Rendered by Form.Item, which hands value / onChange (and id, status…) in `item`: passed on to the control.
  const pass = { ...item, size, 'data-testid': testId };
  switch (field.kind) {
    case 'textarea':
      return <Input.TextArea {...item} autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} data-testid={testId} />;
    case 'number':
      return <NumberInput integer={field.precision === undefined} precision={field.precision} min={0} style={{ width: '100%' }} {...pass} />;
    case 'quantity':
      return <NumberInput min={0} style={{ width: '100%' }} {...pass} />;
    case 'price':
      return <NumberInput kind="amount" min={0} style={{ width: '100%' }} {...pass} />;
    case 'amount':
      // Money as decimal text, never through a float (a settlement line of a refund is negative).
      return <NumberInput kind="amount" {...({ stringMode: true } as object)} style={{ width: '100%' }} {...pass} />;
    case 'percent':
      return <NumberInput min={0} max={100} precision={2} style={{ width: '100%' }} {...pass} />;
    case 'date':
      return <DateText {...item} size={size} testId={testId} />;
    case 'month':
      return <DateText {...item} size={size} testId={testId} month />;
    case 'enum':
      return <Select {...item} size={size} options={field.options?.map((o) => ({ value: o.value, label: labelOf(o.label, lang) }))} data-testid={testId} />;
    case 'record':
      // Partners and warehouses are picked in the kit's dialogs (kept as `Picked`); every other kind by id.
      return DIALOG_PICKED.has(field.ref!) ? <RecordPick kind={field.ref as 'supplier'} {...(pass as ValueProps<Picked>)} /> : <RecordRefControl refKind={field.ref!} {...(pass as ValueProps<number>)} />;
    case 'richText':
      return <RichText {...(item as { value?: string; onChange?: (html: string) => void; disabled?: boolean })} height={200} maxHeight={480} data-testid={testId} />;
    case 'staffList':
      return <StaffListControl field={field} testId={testId} {...(item as { value?: number[]; onChange?: (ids: number[]) => void; disabled?: boolean; id?: string })} />;
    case 'serials':
      return <Select {...item} size={size} mode="tags" tokenSeparators={[',', ' ']} open={false} style={{ width: '100%' }} data-testid={testId} />;
    default:
      return <Input {...item} size={size} placeholder={field.example} maxLength={field.kind === 'batch' ? 100 : 500} data-testid={testId} />;
  }
}

/** Several staff members (a task's assignees): the names a loaded bill answers beside the ids show before any search lists them. */
function StaffListControl({ field, testId, value, onChange, disabled, id }: { field: FieldDecl; testId: string; value?: number[]; onChange?: (ids: number[]) => void; disabled?: boolean; id?: string }) {
  const form = Form.useFormInstance();
  const names = (form.getFieldValue(staffListNamesKey(field.key)) as string[] | undefined) ?? [];
  const stored = (form.getFieldValue(field.key) as number[] | undefined) ?? [];
  const known = stored.map((staffId, i) => ({ id: staffId, label: names[i] || `#${staffId}` }));
  return <StaffSelect mode="multiple" id={id} value={value ?? []} onChange={onChange} disabled={disabled} known={known} data-testid={testId} />;
}

/** A calendar date kept as `YYYY-MM-DD` text (what the API sends and takes), or a month as `YYYY-MM`. */
function DateText({ value, onChange, size, testId, month }: { value?: string | null; onChange?: (v: string | null) => void; size?: 'small' | 'middle'; testId: string; month?: boolean }) {
  const format = month ? 'YYYY-MM' : 'YYYY-MM-DD';
  return (
    <DatePicker
      size={size}
      picker={month ? 'month' : 'date'}
      value={value ? dayjs(value) : null}
      onChange={(d) => onChange?.(d ? d.format(format) : null)}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}
