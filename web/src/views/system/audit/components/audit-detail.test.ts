import { describe, expect, it } from 'vitest';
import { addressesText, changesOf, plainText, summaryOf } from './audit-detail.ts';

describe('audit detail', () => {
  it("shows a partner's addresses by their region's names, labelled, the default marked", () => {
    const label = (part: string) => ({ district: 'District', detail: 'Address', contactName: 'Recipient', phone: 'Phone', isDefault: 'Default' })[part] ?? part;
    const region = { regionCode: '440305', districtId: null, regionPath: [{ code: '440000', name: '广东省' }, { code: '440300', name: '深圳市' }, { code: '440305', name: '南山区' }], districtPath: [] };
    expect(addressesText([{ ...region, address: 'A 1', contactName: '', phone: '', isDefault: true }, { regionCode: null, districtId: 7, regionPath: [], districtPath: ['华东', '上海'], address: '', phone: '13800000000' }], label)).toBe(
      'District: 广东省 / 深圳市 / 南山区, Address: A 1 (Default) | District: 华东 / 上海, Phone: 13800000000',
    );
    // A stored entry from before the paths were kept still names its region.
    expect(addressesText([{ regionCode: '440305', address: 'B' }], label)).toBe('District: 440305, Address: B');
    expect(addressesText([], label)).toBe('—');
  });

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

  it('leaves out of a from / to pair what did not move', () => {
    expect(changesOf({ from: { dataScope: 'All', deptIds: [] }, to: { dataScope: 'Dept', deptIds: [] } })).toEqual([{ field: 'dataScope', before: 'All', after: 'Dept' }]);
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
