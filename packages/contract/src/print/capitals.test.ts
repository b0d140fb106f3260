import { describe, expect, it } from 'vitest';
import { amountInCapitals } from './capitals.ts';

describe('amount in Chinese capitals', () => {
  it.each([
    [0, '零元整'],
    ['0.00', '零元整'],
    [1, '壹元整'],
    [10, '壹拾元整'],
    [100, '壹佰元整'],
    [1001, '壹仟零壹元整'],
    [1010, '壹仟零壹拾元整'],
    [1234.56, '壹仟贰佰叁拾肆元伍角陆分'],
    [10.05, '壹拾元零伍分'],
    [0.5, '伍角'],
    [0.05, '伍分'],
    [100000, '壹拾万元整'],
    [100010, '壹拾万零壹拾元整'],
    [10000001, '壹仟万零壹元整'],
    [100000000, '壹亿元整'],
    [105000000.3, '壹亿零伍佰万元叁角'],
    ['123456789012.34', '壹仟贰佰叁拾肆亿伍仟陆佰柒拾捌万玖仟零壹拾贰元叁角肆分'],
    [-3, '负叁元整'],
    ['2.345', '贰元叁角伍分'],
    ['9.995', '壹拾元整'],
  ])('%s → %s', (value, expected) => {
    expect(amountInCapitals(value)).toBe(expected);
  });

  it('answers nothing for what is not an amount', () => {
    expect(amountInCapitals('abc')).toBe('');
    expect(amountInCapitals('')).toBe('');
  });
});
