import { DatePicker, Input, Select, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { FieldDecl } from '@p8/contract/bills/fields';
import { recordKind } from '@p8/contract/records/catalogue';
import { recordApiPath, recordTitleField, type DeclaredRecord, type RecordKindDecl } from '@p8/contract/records/registry';
import { http } from '../../../app/http.ts';
import SupplierPicker from '../../../components/Pickers/SupplierPicker.tsx';
import CustomerPicker from '../../../components/Pickers/CustomerPicker.tsx';
import WarehousePicker from '../../../components/Pickers/WarehousePicker.tsx';
import RecordInput from '../../../components/Pickers/RecordInput.tsx';
import { pickPartners } from '../../../components/Pickers/api/pick-partners.ts';
import { pickWarehouses } from '../../../components/Pickers/api/pick-warehouses.ts';
import StaffSelect from '../../../components/Pickers/StaffSelect.tsx';
import NumberInput from '../../../components/NumberInput/index.tsx';
import { deptTreeQuery } from '../../../components/Pickers/api/get-dept-tree.ts';
import { materialQuery } from '../../../components/Pickers/api/get-material.ts';
import { pickLocations } from '../../../components/Pickers/api/pick-locations.ts';
import { pickBoms } from '../../../components/Pickers/api/pick-boms.ts';
import { feeTypeOptionsQuery, fundAccountOptionsQuery } from '../../../components/Pickers/api/list-money-options.ts';
import { labelOf } from '../kit.ts';

/** A picked record as the form keeps it: its id (what is sent) and its name (what is shown). */
export interface Picked {
  id: number;
  name: string;
}

interface ValueProps<T> {
  value?: T | null;
  onChange?: (value: T | null) => void;
  disabled?: boolean;
  'data-testid'?: string;
  size?: 'small' | 'middle';
}

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

/** A department of the tenant's tree. */
export function DeptField({ value, onChange, disabled, ...rest }: ValueProps<number>) {
  const tree = useQuery(deptTreeQuery);
  return (
    <TreeSelect
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      treeData={tree.data ?? []}
      fieldNames={{ label: 'name', value: 'id', children: 'children' }}
      allowClear
      disabled={disabled}
      treeDefaultExpandAll
      data-testid={rest['data-testid']}
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

/** The control of a declared field by its kind (header form and line grid alike). */
export function FieldControl({ field, lang, size, testId, ...item }: { field: FieldDecl; lang: string; size?: 'small' | 'middle'; testId: string; value?: never; onChange?: never; id?: string }) {
  // Rendered by Form.Item, which hands value / onChange (and id, status…) in `item`: passed on to the control.
  const pass = { ...item, size, 'data-testid': testId };
  switch (field.kind) {
    case 'textarea':
      return <Input.TextArea {...item} autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} data-testid={testId} />;
    case 'number':
      return <NumberInput integer min={0} style={{ width: '100%' }} {...pass} />;
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
      return <RecordControl refKind={field.ref!} item={item} pass={pass} testId={testId} />;
    case 'serials':
      return <Select {...item} size={size} mode="tags" tokenSeparators={[',', ' ']} open={false} style={{ width: '100%' }} data-testid={testId} />;
    default:
      return <Input {...item} size={size} maxLength={field.kind === 'batch' ? 100 : 500} data-testid={testId} />;
  }
}

/** The records picked in a dialog (a search over many, with their details), kept in the form as `Picked`. */
export const DIALOG_PICKED: ReadonlySet<string> = new Set(['supplier', 'customer', 'warehouse']);

/**
 * The control of a field naming a record, by the kind it names (records/references.ts): the dialogs and selects of
 * the hand-written kinds, and one select over its picker for any declared kind (a process, a pay type…). The
 * kinds that belong to a line's material or warehouse (unit, location, BOM) are the line grid's own cells.
 */
function RecordControl({ refKind, item, pass, testId }: { refKind: string; item: object; pass: ValueProps<never> & { size?: 'small' | 'middle' }; testId: string }) {
  switch (refKind) {
    case 'supplier':
    case 'customer':
    case 'warehouse':
      return <RecordPick kind={refKind} {...(pass as ValueProps<Picked>)} />;
    case 'staff':
      return <StaffSelect {...item} data-testid={testId} />;
    case 'department':
      return <DeptField {...item} data-testid={testId} />;
    case 'fundAccount':
      return <FundAccountSelect {...(pass as ValueProps<number>)} />;
    case 'fee':
      return <FeeTypeSelect {...(pass as ValueProps<number>)} />;
    default: {
      const decl = recordKind(refKind);
      if (!decl) throw new Error(`no control picks records of kind ${refKind}`);
      return <DeclaredRecordSelect decl={decl} {...(pass as ValueProps<number>)} />;
    }
  }
}

/** A record of a declared kind: the enabled ones its picker lists, by their title. */
function DeclaredRecordSelect({ decl, value, onChange, disabled, size, ...rest }: ValueProps<number> & { decl: RecordKindDecl }) {
  const title = recordTitleField(decl).key;
  const found = useQuery({
    queryKey: [decl.area, decl.kind, 'picker'],
    queryFn: () => http.list<DeclaredRecord>(`${recordApiPath(decl)}/picker`, { current: 1, pageSize: 200 }, { noLoading: true }).then((page) => page.data),
    staleTime: 30_000,
  });
  const options = (found.data ?? []).map((r) => ({ value: r.id, label: String(r[title] ?? r.id) }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: `#${value}` });
  return <Select size={size} value={value ?? undefined} onChange={(v?: number) => onChange?.(v ?? null)} options={options} allowClear showSearch optionFilterProp="label" disabled={disabled} loading={found.isFetching} popupMatchSelectWidth={false} style={{ width: '100%' }} data-testid={rest['data-testid']} />;
}

/** A fund account of the tenant (enabled ones offered). */
function FundAccountSelect({ value, onChange, disabled, size, ...rest }: ValueProps<number>) {
  const found = useQuery(fundAccountOptionsQuery);
  const options = (found.data ?? []).filter((a) => a.enabled || a.id === value).map((a) => ({ value: a.id, label: a.name }));
  return <Select size={size} value={value ?? undefined} onChange={(v?: number) => onChange?.(v ?? null)} options={options} allowClear disabled={disabled} loading={found.isFetching} popupMatchSelectWidth={false} style={{ width: '100%' }} data-testid={rest['data-testid']} />;
}

/** A fee type of the tenant (enabled ones), income and expense alike (the server refuses the wrong kind). */
function FeeTypeSelect({ value, onChange, disabled, size, ...rest }: ValueProps<number>) {
  const found = useQuery(feeTypeOptionsQuery);
  const options = (found.data ?? []).filter((f) => f.enabled || f.id === value).map((f) => ({ value: f.id, label: f.name }));
  return <Select size={size} value={value ?? undefined} onChange={(v?: number) => onChange?.(v ?? null)} options={options} showSearch optionFilterProp="label" disabled={disabled} loading={found.isFetching} popupMatchSelectWidth={false} style={{ width: '100%' }} data-testid={rest['data-testid']} />;
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
