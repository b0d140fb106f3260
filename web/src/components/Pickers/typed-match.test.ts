import { describe, expect, it } from 'vitest';
import { typedMatch } from './typed-match.ts';

describe('a code typed into a material field', () => {
  const a = { id: 1, code: 'M-100' };
  const b = { id: 2, code: 'M-1001' };
  it('takes the material whose code is exactly what was typed, in any case, among several matches', () => {
    expect(typedMatch(' m-100 ', [b, a])).toBe(a);
  });
  it('takes the only match (a name or barcode typed)', () => {
    expect(typedMatch('resistor', [b])).toBe(b);
  });
  it('takes none when several match and none exactly, or nothing matches', () => {
    expect(typedMatch('M-10', [a, b])).toBeUndefined();
    expect(typedMatch('x', [])).toBeUndefined();
  });
});
