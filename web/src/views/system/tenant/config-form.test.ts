import { describe, expect, it } from 'vitest';
import { tenantConfigSchema } from '@p8/contract/tenant-config';
import { changedKeys, decimalRule, EDITABLE_KEYS, formValuesOf, SWITCHES } from './config-form.ts';

const defaults = tenantConfigSchema.parse({});

describe('tenant config form', () => {
  it('edits every key of the tenant config but openVerifyBill, each once', () => {
    const keys = Object.keys(tenantConfigSchema.shape).filter((k) => k !== 'openVerifyBill');
    expect([...EDITABLE_KEYS].sort()).toEqual(keys.sort());
    expect(new Set(EDITABLE_KEYS).size).toBe(EDITABLE_KEYS.length);
  });

  it('shows every switch of the tenant config in exactly one section', () => {
    const booleans = Object.entries(defaults)
      .filter(([, v]) => typeof v === 'boolean')
      .map(([k]) => k)
      .sort();
    const listed = Object.values(SWITCHES).flat() as string[];
    expect([...listed].sort()).toEqual(booleans);
  });

  it('lists only what changed', () => {
    const view = { ...defaults, id: 1, name: 'T', isLogoff: false, openVerifyBill: '', openVerifyBillList: [], moduleList: [], moduleListStr: '' };
    const stored = formValuesOf(view);
    expect(changedKeys(stored, stored)).toEqual([]);
    expect(changedKeys(stored, { ...stored, openTaxRate: true, amountRetainsSmallDigit: 4 })).toEqual([
      { key: 'amountRetainsSmallDigit', from: 2, to: 4 },
      { key: 'openTaxRate', from: false, to: true },
    ]);
  });

  it('lets decimal places only grow, up to 6', () => {
    expect(decimalRule(3, 3)).toBeNull();
    expect(decimalRule(3, 6)).toBeNull();
    expect(decimalRule(3, 2)).toBe('min');
    expect(decimalRule(3, 7)).toBe('max');
    expect(decimalRule(3, null)).toBe('min');
  });
});
