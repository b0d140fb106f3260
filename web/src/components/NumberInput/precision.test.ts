import { describe, expect, it } from 'vitest';
import { inputPrecision } from './precision.ts';

const tenant = { numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 };

describe('number input precision', () => {
  it('has no decimals for integer fields', () => {
    expect(inputPrecision({ integer: true, precision: 4 }, tenant)).toBe(0);
  });
  it("uses the tenant's places for quantities and amounts", () => {
    expect(inputPrecision({}, tenant)).toBe(3);
    expect(inputPrecision({ kind: 'amount' }, tenant)).toBe(2);
  });
  it('takes a fixed precision, within 0–6', () => {
    expect(inputPrecision({ precision: 1 }, tenant)).toBe(1);
    expect(inputPrecision({ precision: 9 }, tenant)).toBe(6);
  });
});
