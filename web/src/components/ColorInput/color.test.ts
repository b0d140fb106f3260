import { describe, expect, it } from 'vitest';
import { hexToRgb, normalizeHex, parseColor, parseRgb, rgbToHex } from './color.ts';

describe('colour input values', () => {
  it('accepts six hex digits with or without a leading #', () => {
    expect(normalizeHex('#409eff')).toBe('#409EFF');
    expect(normalizeHex('409EFF')).toBe('#409EFF');
  });

  it('rejects other hex lengths and non-hex digits', () => {
    for (const bad of ['#40f', '#409EF', '#409EFF0', '##409EFF', '#40G9FF', '']) expect(normalizeHex(bad)).toBeNull();
  });

  it('takes RGB parts of 1 to 3 digits, at most 255', () => {
    expect(parseRgb('rgb(64, 158, 255)')).toEqual({ r: 64, g: 158, b: 255 });
    expect(parseRgb('rgb(0,0,0)')).toEqual({ r: 0, g: 0, b: 0 });
    expect(parseRgb('rgb(1000, 0, 0)')).toBeNull();
    expect(parseRgb('rgb(256, 0, 0)')).toBeNull();
    expect(parseRgb('rgb(, 0, 0)')).toBeNull();
  });

  it('converts between hex and RGB', () => {
    expect(hexToRgb('#409EFF')).toEqual({ r: 64, g: 158, b: 255 });
    expect(rgbToHex({ r: 64, g: 158, b: 255 })).toBe('#409EFF');
    expect(parseColor('rgb(64,158,255)')).toBe('#409EFF');
    expect(parseColor('blue')).toBeNull();
  });
});
