import { describe, expect, it } from 'vitest';
import { RECORD_KINDS, recordKindByScreen } from '@p8/contract/records/catalogue';
import { recordMenuName } from '@p8/contract/records/registry';
import { errorCatalogue } from '@p8/contract/errors';
import { fieldRefusal } from './kit.ts';

const isKey = (key: string) => key in errorCatalogue;

describe('the record screen kit', () => {
  it('finds every declared kind by its menu path', () => {
    for (const decl of RECORD_KINDS) {
      expect(recordKindByScreen(`${decl.area}/${decl.kind}`)).toBe(decl);
      expect(recordKindByScreen(`${decl.area}/${decl.kind}/index`)).toBe(decl);
      expect(recordKindByScreen(recordMenuName(decl))).toBe(decl);
    }
    expect(recordKindByScreen('basic/material')).toBeUndefined();
  });

  it('refuses a typed value by the declared schema, with a catalogued key', () => {
    const process = RECORD_KINDS.find((d) => d.kind === 'process')!;
    const rate = process.fields.find((f) => f.key === 'pieceRate')!;
    expect(fieldRefusal(rate, -1, isKey)).toBe('NumberMustNotBeNegative');
    expect(fieldRefusal(rate, 1e12, isKey)).toBe('AmountOutOfRange');
    expect(fieldRefusal(rate, 0.5, isKey)).toBeUndefined();
    expect(fieldRefusal(rate, undefined, isKey)).toBeUndefined();
    // What a declared text schema answers is catalogued, so the field shows it in the user's language.
    const name = process.fields.find((f) => f.key === 'name')!;
    expect(isKey(fieldRefusal(name, 'x'.repeat(101), isKey)!)).toBe(true);
    expect(fieldRefusal(name, 'ok', isKey)).toBeUndefined();
  });
});
