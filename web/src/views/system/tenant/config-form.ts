import type { TenantConfig, TenantConfigView } from '@p8/contract/tenant-config';

/**
 * What the tenant-config screen edits and how it is laid out.
 * Pure; tested.
 */
export type EditableConfig = Omit<TenantConfig, 'openVerifyBill'>;
export type ConfigKey = keyof EditableConfig;
type SwitchKey = { [K in ConfigKey]: EditableConfig[K] extends boolean ? K : never }[ConfigKey];

export const PAGE_SIZES = [10, 25, 50, 100, 200] as const;
export const MAX_DECIMALS = 6;
export const DECIMAL_KEYS = ['numberRetainsSmallDigit', 'amountRetainsSmallDigit'] as const;

/** The switches of each section, in screen order; every boolean of the config is in exactly one. */
export const SWITCHES = {
  inventory: [
    'openShelves',
    'openNegativeInventory',
    'openSerialNumber',
    'openBatchNumber',
    'openDirectOutstock',
    'openConsumablesOutstock',
    'allowPurchaseInstockBeyond',
    'allowSaleOutstockBeyond',
    'allowPurchaseInstockAdditionalNumber',
    'allowSaleOutstockAdditionalNumber',
  ],
  precision: ['searchCache'],
  bills: ['openVerify', 'openDiscount', 'openTaxRate', 'autoOpenFlow', 'openSaleOrderBomSelect'],
  production: [
    'allowProductionInstockBeyond',
    'allowProductionClaimBeyond',
    'allowOutsourcingPickBeyond',
    'allowOutsourcingInstockBeyond',
    'completionNeedAllPickOutstock',
    'dispatchAutoAudit',
    'openEntrustMachining',
    'openBomStatistics',
    'packageResultLimitSubmit',
  ],
  range: ['applyRangeSupplier', 'applyRangeCustomer', 'applyRangeMaterial', 'applyRangeStock'],
  picture: ['hasPictureSearchModule'],
} as const satisfies Record<string, readonly SwitchKey[]>;

export const EDITABLE_KEYS: ConfigKey[] = [
  'logo',
  'title',
  'slogan',
  'phone',
  ...SWITCHES.inventory,
  'numberRetainsSmallDigit',
  'amountRetainsSmallDigit',
  'defaultPageSize',
  'defaultDateSearch',
  ...SWITCHES.precision,
  ...SWITCHES.bills,
  'billDateMaxDaysAhead',
  ...SWITCHES.production,
  ...SWITCHES.range,
  ...SWITCHES.picture,
  'pictureSearchType',
  'pictureSearchSimilarity',
];

/** The form's values from the server's view. */
export function formValuesOf(view: TenantConfigView): EditableConfig {
  return Object.fromEntries(EDITABLE_KEYS.map((key) => [key, view[key]])) as EditableConfig;
}

const same = (a: unknown, b: unknown) => (typeof a === 'string' || typeof b === 'string' ? (a ?? '') === (b ?? '') : a === b);

/** Keys whose form value differs from the stored one, with both values. */
export function changedKeys(stored: EditableConfig, values: Partial<EditableConfig>): Array<{ key: ConfigKey; from: unknown; to: unknown }> {
  return EDITABLE_KEYS.filter((key) => key in values && !same(stored[key], values[key])).map((key) => ({ key, from: stored[key], to: values[key] }));
}

/** Decimal places only increase, at most 6. Returns the broken rule, or null. */
export function decimalRule(stored: number, value: unknown): 'min' | 'max' | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'min';
  if (value < stored) return 'min';
  if (value > MAX_DECIMALS) return 'max';
  return null;
}
