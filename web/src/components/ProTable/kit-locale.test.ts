import { describe, expect, it } from 'vitest';
import en from '../../locales/en/kit.ts';
import zh from '../../locales/zh/kit.ts';

type Texts = { [key: string]: string | Texts };
const keys = (texts: Texts, prefix = ''): string[] =>
  Object.entries(texts).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`)));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const at = (texts: Texts, path: string) => path.split('.').reduce<Texts | string>((t, k) => (t as Texts)[k], texts) as string;

describe('screen kit texts (namespace kit)', () => {
  it('has every key in both zh and en', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
  });

  it('uses the same placeholders in both languages', () => {
    for (const key of keys(zh)) expect(placeholders(at(en, key)), key).toEqual(placeholders(at(zh, key)));
  });
});
