import { describe, expect, it } from 'vitest';
import { formatCell, formatNumber, valueAt } from './format.ts';
import { formatMoney } from '../Finance/money.ts';

const tenant = { numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 };

describe('cell formatting', () => {
  it("shows quantities and amounts with the tenant's decimal places", () => {
    expect(formatCell(12.5, 'number', tenant)).toBe('12.500');
    expect(formatCell('1234.567', 'amount', tenant)).toBe('1,234.57');
    expect(formatCell(2, 'amount', tenant, 4)).toBe('2.0000');
  });

  it('groups thousands in every list figure: cells, sums, money (both languages write 1,234,567.89)', () => {
    expect(formatCell('1234567.891', 'amount', tenant)).toBe('1,234,567.89');
    expect(formatCell(-1234567, 'number', tenant)).toBe('-1,234,567.000');
    expect(formatCell(999, 'amount', tenant)).toBe('999.00');
    expect(formatCell(1000, 'number', { ...tenant, numberRetainsSmallDigit: 0 })).toBe('1,000');
    expect(formatNumber('1234567.891', 2)).toBe('1,234,567.89');
    expect(formatMoney('-1234567.005000', 2)).toBe('-1,234,567.01');
    expect(formatMoney(null)).toBe('—');
    // The grouping is the locale's in both languages the screens are written in.
    for (const locale of ['zh-CN', 'en-US']) expect(new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(1234567.89)).toBe('1,234,567.89');
  });

  it('keeps empty values empty and never shows -0', () => {
    expect(formatNumber(null, 2)).toBe('');
    expect(formatNumber('', 2)).toBe('');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
    expect(formatNumber('abc', 2)).toBe('abc');
    // Decimal text at the columns' edge (14 digits before the point) keeps its cents; halves round away from zero.
    expect(formatNumber('99999999999999.99', 2)).toBe('99,999,999,999,999.99');
    expect(formatNumber('-99999999999999.995000', 2)).toBe('-100,000,000,000,000.00');
    expect(formatNumber(1.005, 2)).toBe('1.01');
    expect(formatNumber('12.5', 0)).toBe('13');
    // From 1e21 on toFixed writes an exponent: the figure is written out instead.
    expect(formatNumber(1e37, 2)).toBe(`10${',000'.repeat(12)}.00`);
    expect(formatNumber(-1e21, 0)).toBe('-1,000,000,000,000,000,000,000');
  });

  it('formats dates and reads nested fields', () => {
    expect(formatCell('2026-03-01T08:09:10', 'date', tenant)).toBe('2026-03-01');
    expect(formatCell('2026-03-01T08:09:10', 'dateTime', tenant)).toBe('2026-03-01 08:09:10');
    expect(valueAt({ supplier: { name: 'ACME' } }, 'supplier.name')).toBe('ACME');
    expect(valueAt({ supplier: null }, 'supplier.name')).toBeUndefined();
  });
});
