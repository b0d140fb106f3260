import { describe, expect, it } from 'vitest';
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { firstRefusal } from './rules.ts';

// A row out of view is checked by its cells' rules without their Form.Items: the same answers antd gives.
const form = { getFieldValue: (name: unknown) => (JSON.stringify(name) === '["lines",3,"open"]' ? 5 : undefined) } as unknown as FormInstance;
const check = (rules: Rule[], value: unknown) => firstRefusal(rules, value, form, 'lines.3.amount', 'fallback');

describe('a line grid cell checked by its rules', () => {
  it('refuses an empty required value with its message, or the fallback without one', async () => {
    expect(await check([{ required: true, message: 'need it' }], undefined)).toBe('need it');
    expect(await check([{ required: true }], '')).toBe('fallback');
    expect(await check([{ required: true }], [])).toBe('fallback');
    expect(await check([{ required: true, whitespace: true, message: 'blank' }], '  ')).toBe('blank');
    expect(await check([{ required: true }], 0)).toBeUndefined();
  });

  it('checks text length and pattern, and leaves an empty optional value alone', async () => {
    expect(await check([{ max: 3, message: 'long' }], 'abcd')).toBe('long');
    expect(await check([{ pattern: /^\d+$/, message: 'digits' }], '12a')).toBe('digits');
    expect(await check([{ max: 3, message: 'long' }, { pattern: /^\d+$/ }], undefined)).toBeUndefined();
  });

  it('runs validators — async, with a callback, made from the form — and answers the first refusal', async () => {
    const beyondOpen: Rule = ({ getFieldValue }) => ({
      validator: async (rule, value: number) => {
        const index = Number(String((rule as { field?: string }).field).split('.')[1]);
        if (value > getFieldValue(['lines', index, 'open'])) throw new Error('beyond open');
      },
    });
    expect(await check([beyondOpen], 6)).toBe('beyond open');
    expect(await check([beyondOpen], 5)).toBeUndefined();
    const callback: Rule = { validator: (_rule, value, done) => done(value === 'x' ? 'no x' : undefined) };
    expect(await check([callback], 'x')).toBe('no x');
    expect(await check([callback], 'y')).toBeUndefined();
    expect(await check([{ validator: async () => undefined }, { required: true, message: 'second' }], '')).toBe('second');
  });
});
