import { describe, expect, it } from 'vitest';
import { kitSettingsOf } from './kit-settings.ts';

describe('kit settings from the tenant config', () => {
  it('takes the tenant values', () => {
    expect(
      kitSettingsOf({ defaultPageSize: 25, defaultDateSearch: 30, numberRetainsSmallDigit: 4, amountRetainsSmallDigit: 3, searchCache: true }),
    ).toEqual({ defaultPageSize: 25, defaultDateSearch: 30, numberRetainsSmallDigit: 4, amountRetainsSmallDigit: 3, searchCache: true });
  });

  it('falls back to 200 rows, 7 days, 3 and 2 decimals and no cache when the tenant gives nothing', () => {
    expect(kitSettingsOf(undefined)).toEqual({ defaultPageSize: 200, defaultDateSearch: 7, numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2, searchCache: false });
  });

  it('ignores decimal places outside 0–6', () => {
    expect(kitSettingsOf({ numberRetainsSmallDigit: 9, amountRetainsSmallDigit: -1 })).toMatchObject({ numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 });
  });

  it('keeps a default date search of 0 days (no default range)', () => {
    expect(kitSettingsOf({ defaultDateSearch: 0 }).defaultDateSearch).toBe(0);
  });
});
