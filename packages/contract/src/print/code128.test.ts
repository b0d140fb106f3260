import { describe, expect, it } from 'vitest';
import { CODE128_PATTERNS, code128, code128Symbols } from './code128.ts';

describe('Code 128', () => {
  it('has 107 distinct symbols of 11 modules (the stop 13), each of three bars and three spaces', () => {
    expect(CODE128_PATTERNS).toHaveLength(107);
    expect(new Set(CODE128_PATTERNS).size).toBe(107);
    CODE128_PATTERNS.forEach((p, value) => {
      const widths = [...p].map(Number);
      expect(widths.reduce((a, b) => a + b, 0), String(value)).toBe(value === 106 ? 13 : 11);
      // The bars of a symbol add up to an even number of modules (the code's own parity check).
      expect(widths.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0) % 2, String(value)).toBe(0);
    });
  });

  it('encodes start B, the text, its check symbol and stop', () => {
    // The worked example of the specification's kind: "PJJ123C" in subset B.
    const symbols = code128Symbols('PJJ123C');
    expect(symbols.slice(0, 1)).toEqual([104]);
    expect(symbols.slice(1, 8)).toEqual([48, 42, 42, 17, 18, 19, 35]);
    const check = (104 + 48 * 1 + 42 * 2 + 42 * 3 + 17 * 4 + 18 * 5 + 19 * 6 + 35 * 7) % 103;
    expect(symbols.slice(8)).toEqual([check, 106]);
  });

  it('draws bars and spaces with quiet zones, and nothing for text it cannot carry', () => {
    const widths = code128('CG-001');
    // Quiet zone, start, 6 characters, check, stop, quiet zone.
    expect(widths.reduce((a, b) => a + b, 0)).toBe(10 + 11 * 8 + 13 + 10);
    expect(code128('')).toEqual([]);
    expect(code128('单据')).toEqual([]);
  });
});
