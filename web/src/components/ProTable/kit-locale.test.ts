import { describe, expect, it } from 'vitest';
import en from '../../locales/en/kit.ts';
import zh from '../../locales/zh/kit.ts';

type Texts = { [key: string]: string | Texts };
const keys = (texts: Texts, prefix = ''): string[] =>
  Object.entries(texts).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`)));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const at = (texts: Texts, path: string) => path.split('.').reduce<Texts | string>((t, k) => (t as Texts)[k], texts) as string;

/** A counted text's English plural forms (`_one`, `_other`) stand for its one key (locales/plurals.test.ts). */
const unsuffixed = (key: string) => key.replace(/_(one|other)$/, '');
const hasKey = (texts: Texts, path: string) => keys(texts).includes(path);

describe('screen kit texts (namespace kit)', () => {
  it('has every key in both zh and en', () => {
    expect([...new Set(keys(en).map(unsuffixed))].sort()).toEqual(keys(zh).sort());
  });

  it('uses the same placeholders in both languages', () => {
    for (const key of keys(zh)) {
      if (hasKey(en, key)) expect(placeholders(at(en, key)), key).toEqual(placeholders(at(zh, key)));
      else {
        // The many form says all the Chinese one does; the one form may leave the count out ("once").
        expect(placeholders(at(en, `${key}_other`)), key).toEqual(placeholders(at(zh, key)));
        for (const name of placeholders(at(en, `${key}_one`))) expect(placeholders(at(zh, key)), key).toContain(name);
      }
    }
  });
});
