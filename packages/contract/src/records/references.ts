import type { Label } from '../bills/status.ts';
import type { ErrorKey } from '../errors.ts';
import { RECORD_KINDS } from './catalogue.ts';
import type { RecordKindDecl } from './registry.ts';

/*
 * The record kinds a field may name. A bill field (or a record field) that holds the id of another record
 * says `kind: 'record', ref: '<kind>'`; everything the engine and the web kit do with such a value comes from
 * the referenced kind's entry here — the refusal for an id that is not there, whether it lives inside another
 * record (a storage location in a warehouse), and the record kind whose delete asks whether a bill still names
 * it. The server says where each kind is stored, what is shown and exported for it and what an import matches,
 * in one place (server/src/core/record-refs.ts); the web says which control picks it
 * (web/src/views/bills/components/controls.tsx), with one generic select for every declared kind.
 *
 * Every declared record kind (catalogue.ts) is referable the day it is declared: a production bill naming a
 * process needs no entry of its own here.
 */

export interface RecordRefDecl {
  /** The kind's name, singular ("Supplier"): picker titles and refusals. */
  label: Label;
  /** The refusal for an id (or an imported text) that names no such record of the tenant. */
  missing: ErrorKey;
  /**
   * The kind of record this one belongs to: a location is one of a warehouse's, a BOM one of a material's. A
   * field naming it says which field of the same values names that parent (`FieldDecl.within`), and an id
   * outside the parent is refused as missing.
   */
  parent?: string;
  /**
   * The record kind whose delete asks the bills naming it (core/record-usage.ts): a warehouse is `stock`. None
   * for a kind that is never deleted (a fund account with postings is disabled instead).
   */
  usage?: string;
}

/** The hand-written record kinds bills name (their screens are their own: partners, warehouses, materials…). */
const HAND_WRITTEN = {
  supplier: { label: { zh: '供应商', en: 'Supplier' }, missing: 'SupplierNotExist', usage: 'supplier' },
  customer: { label: { zh: '客户', en: 'Customer' }, missing: 'CustomerNotExist', usage: 'customer' },
  warehouse: { label: { zh: '仓库', en: 'Warehouse' }, missing: 'WarehouseNotExist', usage: 'stock' },
  location: { label: { zh: '库位', en: 'Storage location' }, missing: 'LocationNotExist', parent: 'warehouse', usage: 'location' },
  material: { label: { zh: '物料', en: 'Material' }, missing: 'MaterialNotExist', usage: 'material' },
  bom: { label: { zh: 'BOM', en: 'BOM' }, missing: 'BomNotExist', parent: 'material', usage: 'bom' },
  staff: { label: { zh: '员工', en: 'Staff member' }, missing: 'PleaseSelectStaff', usage: 'staff' },
  department: { label: { zh: '部门', en: 'Department' }, missing: 'DeptNotExist', usage: 'department' },
  fundAccount: { label: { zh: '资金账户', en: 'Fund account' }, missing: 'FundAccountNotExist' },
} as const satisfies Record<string, RecordRefDecl>;

/** A hand-written referable kind (the server names its table; declared kinds name theirs by declaration). */
export type HandWrittenRef = keyof typeof HAND_WRITTEN;

/** How a declared record kind is referred to: by its own declaration. */
function declaredRef(decl: RecordKindDecl): RecordRefDecl {
  return { label: decl.noun, missing: decl.notExist, usage: decl.kind };
}

/** Every referable record kind, by the name a field's `ref` gives. */
export const RECORD_REFS: Readonly<Record<string, RecordRefDecl>> = {
  ...HAND_WRITTEN,
  ...Object.fromEntries(RECORD_KINDS.map((decl) => [decl.kind, declaredRef(decl)])),
};

/** The declaration of a referable kind; throws for a name nothing declares (a field naming it is a programming error). */
export function recordRef(ref: string): RecordRefDecl {
  const found = RECORD_REFS[ref];
  if (!found) throw new Error(`no record kind "${ref}" is referable (packages/contract/src/records/references.ts)`);
  return found;
}
