import { describe, expect, it } from 'vitest';
import type { DistrictNode, PartnerDetail } from '@p8/contract/basic';
import { districtIdPath, formOf, payloadOf, type PartnerForm } from './partner-form.ts';

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
  it('finds the id path of a district at any level, and none for an unknown one', () => {
    expect(districtIdPath(tree, 3)).toEqual([1, 2, 3]);
    expect(districtIdPath(tree, 5)).toEqual([5]);
    expect(districtIdPath(tree, 99)).toBeUndefined();
    expect(districtIdPath(tree, null)).toBeUndefined();
  });

  it('sends trimmed texts, zero balances and the district of each address by its last id', () => {
    const body = payloadOf(form({ addresses: [{ districtPath: [1, 2, 3], address: ' 科技园 ', isDefault: true }, { address: '无地区', isDefault: false }] }));
    expect(body).toMatchObject({ code: 'S1', name: '华强', openingReceivable: 0, openingPayable: 0, sort: 0, managerId: null });
    expect(body.addresses).toEqual([
      { districtId: 3, address: '科技园', contactName: '', phone: '', isDefault: true },
      { districtId: null, address: '无地区', contactName: '', phone: '', isDefault: false },
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

  it('starts an edit from the stored record, districts as cascader paths', () => {
    const detail = {
      code: 'S1',
      name: '华强',
      openingReceivable: '12.50' as unknown as number,
      openingPayable: 0,
      contacts: [{ id: 7, name: '陈', phone: '1', email: '', position: '', isDefault: true }],
      addresses: [{ id: 8, districtId: 3, address: 'x', contactName: '', phone: '', isDefault: true, districtPath: ['广东省', '深圳市', '南山区'] }],
    } as unknown as PartnerDetail;
    const values = formOf(detail, tree);
    expect(values.openingReceivable).toBe(12.5);
    expect(values.contacts).toEqual([{ name: '陈', phone: '1', email: '', position: '', isDefault: true }]);
    expect(values.addresses[0]!.districtPath).toEqual([1, 2, 3]);
    expect(formOf(undefined, tree)).toMatchObject({ code: '', contacts: [], addresses: [] });
  });
});
