import { describe, expect, it } from 'vitest';

/**
 * Every text exists in both languages — same files, same keys, no empty text. A text counting something may
 * have plural forms (i18next's `_one` / `_other` suffixes, chosen by the `count` it is given): English says
 * "1 message" and "2 messages", Chinese has one form; the forms of a key count as that key.
 */
type Texts = { [key: string]: string | Texts };

const zh = import.meta.glob<{ default: Texts }>('./zh/*.ts', { eager: true });
const en = import.meta.glob<{ default: Texts }>('./en/*.ts', { eager: true });

const fileOf = (path: string) => path.replace(/^\.\/(zh|en)\//, '');

function keysOf(texts: Texts, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function emptyKeys(texts: Texts, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string' ? (value.trim() ? [] : [`${prefix}${key}`]) : emptyKeys(value, `${prefix}${key}.`),
  );
}

/** A key without its plural suffix. */
const unsuffixed = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');
const baseKeys = (texts: Texts) => [...new Set(keysOf(texts).map(unsuffixed))].sort();

describe('locales', () => {
  it('have the same namespace files in zh and en', () => {
    expect(Object.keys(zh).map(fileOf).sort()).toEqual(Object.keys(en).map(fileOf).sort());
  });

  for (const path of Object.keys(zh)) {
    const file = fileOf(path);
    it(`${file} has the same keys in zh and en`, () => {
      const other = en[`./en/${file}`];
      expect(other, `en/${file}`).toBeDefined();
      expect(baseKeys(zh[path]!.default)).toEqual(baseKeys(other!.default));
    });
    it(`${file} has no empty text`, () => {
      expect(emptyKeys(zh[path]!.default)).toEqual([]);
      expect(emptyKeys(en[`./en/${file}`]!.default)).toEqual([]);
    });
  }
});
