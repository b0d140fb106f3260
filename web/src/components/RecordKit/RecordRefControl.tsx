import { Select, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { recordKind } from '@p8/contract/records/catalogue';
import { recordApiPath, recordTitleField, type DeclaredRecord, type RecordKindDecl } from '@p8/contract/records/registry';
import { http } from '../../app/http.ts';
import StaffSelect from '../Pickers/StaffSelect.tsx';
import { deptTreeQuery } from '../Pickers/api/get-dept-tree.ts';
import { feeTypeOptionsQuery, fundAccountOptionsQuery } from '../Pickers/api/list-money-options.ts';

/** What a form item hands a control: the value, its setter, and how it is shown. */
export interface ValueProps<T> {
  value?: T | null;
  onChange?: (value: T | null) => void;
  disabled?: boolean;
  'data-testid'?: string;
  size?: 'small' | 'middle';
}

/**
 * The control of a field naming a record (`kind: 'record'`), by the kind it names (records/references.ts), kept
 * by id: staff, departments, fund accounts and fee types by their selects, and any declared kind (a process, a
 * work team…) by one select over its picker. The bill kit picks partners and warehouses in its own dialogs, and
 * the kinds that belong to a line's material or warehouse (unit, location, BOM) in its grid cells.
 */
export default function RecordRefControl({ refKind, ...props }: ValueProps<number> & { refKind: string }) {
  switch (refKind) {
    case 'staff':
      return <StaffSelect value={props.value ?? null} onChange={(id: number | null) => props.onChange?.(id)} disabled={props.disabled} data-testid={props['data-testid']} />;
    case 'department':
      return <DeptField {...props} />;
    case 'fundAccount':
      return <FundAccountSelect {...props} />;
    case 'fee':
      return <FeeTypeSelect {...props} />;
    default: {
      const decl = recordKind(refKind);
      if (!decl) throw new Error(`no control picks records of kind ${refKind}`);
      return <DeclaredRecordSelect decl={decl} {...props} />;
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

/** A department of the tenant's tree. */
function DeptField({ value, onChange, disabled, ...rest }: ValueProps<number>) {
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
