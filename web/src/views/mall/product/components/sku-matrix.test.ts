import { describe, expect, it } from 'vitest';
import { combinations, completeSpecs, skuRows, skusToSend } from './sku-matrix.ts';

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

  it('sends one SKU per combination, named by its index (the form hands back the typed fields only)', () => {
    const specs = [{ name: '颜色', values: ['红', '蓝'] }, { name: '尺码', values: ['S', 'M', 'L'] }];
    const typed = combinations(specs).map((_, i) => ({ price: 10 + i, stock: i, code: ` C${i} ` }));
    const sent = skusToSend(specs, typed);
    expect(sent.map((s) => [s.specValues.join('/'), s.price, s.stock, s.code])).toEqual([
      ['红/S', 10, 0, 'C0'], ['红/M', 11, 1, 'C1'], ['红/L', 12, 2, 'C2'], ['蓝/S', 13, 3, 'C3'], ['蓝/M', 14, 4, 'C4'], ['蓝/L', 15, 5, 'C5'],
    ]);
    // Without specs: the one SKU, with the untyped amounts as zero.
    expect(skusToSend([], [{ price: 5 }])).toEqual([{ specValues: [], price: 5, marketPrice: 0, costPrice: 0, stock: 0, code: '', image: '' }]);
  });

  it('sends the stock read for each kept combination (editing), none for a new one', () => {
    const stored = [{ specValues: ['红'], stock: 7, marketPrice: 0, costPrice: 0, code: '', image: '' }, { specValues: ['蓝'], stock: 0, marketPrice: 0, costPrice: 0, code: '', image: '' }];
    const sent = skusToSend([{ name: '颜色', values: ['红', '绿', '蓝'] }], [{ price: 1, stock: 9 }, { price: 1, stock: 4 }, { price: 1, stock: 2 }], stored);
    expect(sent.map((s) => [s.specValues[0], s.stock, s.stockSeen])).toEqual([['红', 9, 7], ['绿', 4, undefined], ['蓝', 2, 0]]);
  });
});
