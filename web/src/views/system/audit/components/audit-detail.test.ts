import { describe, expect, it } from 'vitest';
import { changesOf, plainText, summaryOf } from './audit-detail.ts';

describe('audit detail', () => {
  it('reads an update as field changes', () => {
    expect(changesOf({ name: { from: 'A', to: 'B' }, sort: { from: 0, to: 2 } })).toEqual([
      { field: 'name', before: 'A', after: 'B' },
      { field: 'sort', before: 0, after: 2 },
    ]);
  });

  it('reads a from / to and a before / after pair of objects as changes', () => {
    expect(changesOf({ from: { dataScope: 'All', deptIds: [] }, to: { dataScope: 'Custom', deptIds: [2] } })).toEqual([
      { field: 'dataScope', before: 'All', after: 'Custom' },
      { field: 'deptIds', before: [], after: [2] },
    ]);
    expect(changesOf({ before: { a: 1 }, after: { a: 2, b: true } })).toEqual([
      { field: 'a', before: 1, after: 2 },
      { field: 'b', before: undefined, after: true },
    ]);
  });

  it('leaves other shapes alone', () => {
    expect(changesOf({ names: ['x'] })).toBeNull();
    expect(changesOf({ from: 3, roleKey: 'a', roleName: 'b' })).toBeNull();
    expect(changesOf(null)).toBeNull();
    expect(changesOf({})).toBeNull();
  });

  it('writes values and summaries as short text', () => {
    expect(plainText(null, 'Y', 'N')).toBe('—');
    expect(plainText(true, 'Y', 'N')).toBe('Y');
    expect(plainText([1, 2], 'Y', 'N')).toBe('1, 2');
    expect(plainText({ a: 1 }, 'Y', 'N')).toBe('{"a":1}');
    const format = (_: string, v: unknown) => plainText(v, 'Y', 'N');
    expect(summaryOf({ name: { from: 'A', to: 'B' } }, (f) => f.toUpperCase(), format)).toBe('NAME: A → B');
    expect(summaryOf({ names: ['x', 'y'], remark: '', tags: [] }, (f) => f, format)).toBe('names: x, y');
  });
});
