import { describe, expect, it } from 'vitest';
import type { DistrictNode, PartnerDetail } from '@p8/contract/basic';
import { formOf, payloadOf, type PartnerForm } from './partner-form.ts';
import { OWN_DISTRICTS, ownDistrictPath, placeOf } from '../Pickers/region-place.ts';

const node = (id: number, parentId: number | null, name: string, children?: DistrictNode[]): DistrictNode => ({
  id,
  parentId,
  level: 1,
  name,
  code: '',
  sort: 0,
  ...(children ? { children } : {}),
});

const tree: DistrictNode[] = [node(1, null, '广东省', [node(2, 1, '深圳市', [node(3, 2, '南山区')])]), node(5, null, '浙江省')];

const form = (over: Partial<PartnerForm> = {}): PartnerForm => ({ code: ' S1 ', name: ' 华强 ', contacts: [], addresses: [], ...over });

describe('partner form', () => {
  it('finds the cascader path of an own district at any level, and none for an unknown one', () => {
    expect(ownDistrictPath(tree, 3)).toEqual([OWN_DISTRICTS, 'd1', 'd2', 'd3']);
    expect(ownDistrictPath(tree, 5)).toEqual([OWN_DISTRICTS, 'd5']);
    expect(ownDistrictPath(tree, 99)).toBeUndefined();
  });

  it('reads a region code or an own district from the last key of the path', () => {
    expect(placeOf(['440000', '440300', '440305'])).toEqual({ regionCode: '440305', districtId: null });
    expect(placeOf([OWN_DISTRICTS, 'd1', 'd2'])).toEqual({ regionCode: null, districtId: 2 });
    expect(placeOf([OWN_DISTRICTS])).toEqual({ regionCode: null, districtId: null });
    expect(placeOf(undefined)).toEqual({ regionCode: null, districtId: null });
  });

  it('sends trimmed texts, zero balances and the place of each address', () => {
    const body = payloadOf(
      form({
        addresses: [
          { place: ['440000', '440300', '440305'], address: ' 科技园 ', isDefault: true },
          { place: [OWN_DISTRICTS, 'd1', 'd2', 'd3'], address: '园区', isDefault: false },
          { address: '无地区', isDefault: false },
        ],
      }),
    );
    expect(body).toMatchObject({ code: 'S1', name: '华强', sort: 0, managerId: null });
    // The opening figures are finance's (opening-balance bills): never sent.
    expect(body).not.toHaveProperty('openingReceivable');
    expect(body.addresses).toEqual([
      { regionCode: '440305', districtId: null, address: '科技园', contactName: '', phone: '', isDefault: true },
      { regionCode: null, districtId: 3, address: '园区', contactName: '', phone: '', isDefault: false },
      { regionCode: null, districtId: null, address: '无地区', contactName: '', phone: '', isDefault: false },
    ]);
  });

  it("takes the default contact's phone when the partner has none, and keeps its own otherwise", () => {
    const contacts = [
      { name: '陈', phone: '111', isDefault: false },
      { name: '刘', phone: '222', isDefault: true },
    ];
    expect(payloadOf(form({ contacts })).phone).toBe('222');
    expect(payloadOf(form({ contacts, phone: '333' })).phone).toBe('333');
    expect(payloadOf(form({ contacts: [{ name: '陈', phone: '111', isDefault: false }] })).phone).toBe('111');
    expect(payloadOf(form()).phone).toBe('');
  });

  it('starts an edit from the stored record, regions and own districts as cascader paths', () => {
    const detail = {
      code: 'S1',
      name: '华强',
      openingReceivable: '12.50' as unknown as number,
      openingPayable: 0,
      contacts: [{ id: 7, name: '陈', phone: '1', email: '', position: '', isDefault: true }],
      addresses: [
        { id: 8, regionCode: null, districtId: 3, address: 'x', contactName: '', phone: '', isDefault: true, regionPath: [], districtPath: ['广东省', '深圳市', '南山区'] },
        { id: 9, regionCode: '440305', districtId: null, address: 'y', contactName: '', phone: '', isDefault: false, regionPath: [{ code: '440000', name: '广东省', nameEn: 'Guangdong' }, { code: '440300', name: '深圳市', nameEn: 'Shenzhen' }, { code: '440305', name: '南山区', nameEn: 'Nanshan District' }], districtPath: [] },
      ],
    } as unknown as PartnerDetail;
    const values = formOf(detail, tree);
    expect(values.openingReceivable).toBe(12.5);
    expect(values.contacts).toEqual([{ name: '陈', phone: '1', email: '', position: '', isDefault: true }]);
    expect(values.addresses.map((a) => a.place)).toEqual([
      [OWN_DISTRICTS, 'd1', 'd2', 'd3'],
      ['440000', '440300', '440305'],
    ]);
    expect(formOf(undefined, tree)).toMatchObject({ code: '', contacts: [], addresses: [] });
  });
});
