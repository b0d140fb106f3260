import { describe, expect, it } from 'vitest';
import { discountText, yuan } from './money.ts';

describe('mall money texts', () => {
  it.each([
    [0, '¥0.00'],
    [5, '-¥5.00'],
    [0.1, '-¥0.10'],
    [1234.5, '-¥1234.50'],
  ])('discount %s reads %s', (value, text) => {
    expect(discountText(value)).toBe(text);
  });

  it('never shows a negative zero', () => {
    expect(discountText(-0)).toBe('¥0.00');
    expect(yuan(-0)).toBe('¥0.00');
    expect(yuan(12.3)).toBe('¥12.30');
  });
});
