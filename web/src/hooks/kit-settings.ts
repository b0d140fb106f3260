import type { TenantConfigView } from '@p8/contract/tenant-config';

/**
 * The tenant settings the screen kit reads (page size, default date range, decimal places, search
 * cache) and what it falls back to when the tenant gives nothing (the list falls back to
 * 200 rows). Pure; tested.
 */
export const KIT_DEFAULTS = {
  defaultPageSize: 200,
  defaultDateSearch: 7,
  numberRetainsSmallDigit: 3,
  amountRetainsSmallDigit: 2,
  searchCache: false,
} as const;

export interface KitSettings {
  defaultPageSize: number;
  defaultDateSearch: number;
  numberRetainsSmallDigit: number;
  amountRetainsSmallDigit: number;
  searchCache: boolean;
}

const digits = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6 ? value : fallback;

/** The kit's settings from a tenant config that may be missing or partial. */
export function kitSettingsOf(config: Partial<TenantConfigView> | undefined | null): KitSettings {
  const pageSize = config?.defaultPageSize;
  const days = config?.defaultDateSearch;
  return {
    defaultPageSize: typeof pageSize === 'number' && pageSize > 0 ? pageSize : KIT_DEFAULTS.defaultPageSize,
    defaultDateSearch: typeof days === 'number' && days >= 0 ? days : KIT_DEFAULTS.defaultDateSearch,
    numberRetainsSmallDigit: digits(config?.numberRetainsSmallDigit, KIT_DEFAULTS.numberRetainsSmallDigit),
    amountRetainsSmallDigit: digits(config?.amountRetainsSmallDigit, KIT_DEFAULTS.amountRetainsSmallDigit),
    searchCache: config?.searchCache === true,
  };
}

