import { describe, expect, it } from 'vitest';

/** Every text exists in both languages — same files, same keys, no empty text. */
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

describe('locales', () => {
  it('have the same namespace files in zh and en', () => {
    expect(Object.keys(zh).map(fileOf).sort()).toEqual(Object.keys(en).map(fileOf).sort());
  });

  for (const path of Object.keys(zh)) {
    const file = fileOf(path);
    it(`${file} has the same keys in zh and en`, () => {
      const other = en[`./en/${file}`];
      expect(other, `en/${file}`).toBeDefined();
      expect(keysOf(zh[path]!.default).sort()).toEqual(keysOf(other!.default).sort());
    });
    it(`${file} has no empty text`, () => {
      expect(emptyKeys(zh[path]!.default)).toEqual([]);
      expect(emptyKeys(en[`./en/${file}`]!.default)).toEqual([]);
    });
  }
});
