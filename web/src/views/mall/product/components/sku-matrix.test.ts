import { describe, expect, it } from 'vitest';
import { combinations, completeSpecs, skuRows } from './sku-matrix.ts';

describe('the SKU matrix', () => {
  it('makes every combination of the values, first spec slowest', () => {
    expect(combinations([{ name: '颜色', values: ['红', '蓝'] }, { name: '尺码', values: ['S', 'M', 'L'] }])).toEqual([
      ['红', 'S'], ['红', 'M'], ['红', 'L'], ['蓝', 'S'], ['蓝', 'M'], ['蓝', 'L'],
    ]);
    expect(combinations([])).toEqual([[]]);
  });

  it('keeps what was typed for a kept combination and starts new ones empty', () => {
    const specs = [{ name: '颜色', values: ['红'] }];
    const rows = skuRows(specs, undefined);
    rows[0].price = 9.9;
    const grown = skuRows([{ name: '颜色', values: ['红', '绿'] }], rows);
    expect(grown.map((r) => [r.specValues, r.price])).toEqual([[['红'], 9.9], [['绿'], null]]);
  });

  it('ignores half-typed specs', () => {
    expect(completeSpecs([{ name: '颜色', values: [' 红 ', ''] }, { name: '', values: ['x'] }, { name: '尺码', values: [] }, undefined])).toEqual([{ name: '颜色', values: ['红'] }]);
  });
});
