import { describe, expect, it } from 'vitest';
import zhBasic from '../../../../locales/zh/basic.ts';
import zhPartner from '../../../../locales/zh/basic-partner.ts';
import zhOffice from '../../../../locales/zh/system-office.ts';
import enOffice from '../../../../locales/en/system-office.ts';
import enPartner from '../../../../locales/en/basic-partner.ts';
import enService from '../../../../locales/en/service.ts';
import zhSystem from '../../../../locales/zh/system.ts';
import zhBase from '../../../../locales/zh/base.ts';
import zhMall from '../../../../locales/zh/mall.ts';
import { fieldLabel } from './audit-labels.ts';

type Texts = { [key: string]: string | Texts };
const lookup = (texts: Record<string, Texts>) => (key: string) => {
  let node: string | Texts | undefined = texts;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
};
const zh = lookup({ basic: zhBasic, 'basic-partner': zhPartner, 'system-office': zhOffice, system: zhSystem, base: zhBase, mall: zhMall } as unknown as Record<string, Texts>);
const en = lookup({ 'system-office': enOffice, 'basic-partner': enPartner, service: enService } as unknown as Record<string, Texts>);

describe('audit field labels', () => {
  it('names a record field as its screen does', () => {
    expect(fieldLabel('material', 'specification', zh)).toBe('规格');
    expect(fieldLabel('material', 'categoryId', zh)).toBe('物料分类');
    expect(fieldLabel('customer', 'code', zh)).toBe('客户编码');
    expect(fieldLabel('customer', 'openingReceivable', zh)).toBe('期初应收');
    expect(fieldLabel('warehouse', 'managerId', zh)).toBe('负责人');
    expect(fieldLabel('dept', 'name', zh)).toBe(zhSystem.dept.name);
    expect(fieldLabel('dept', 'parentId', zh)).toBe(zhSystem.dept.parent);
  });

  it("names a partner's addresses and their region as the partner dialog does, in both languages", () => {
    expect(fieldLabel('customer', 'addresses', zh)).toBe(zhPartner.partner.tabs.addresses);
    expect(fieldLabel('supplier', 'addresses', en)).toBe('Addresses');
    expect(fieldLabel('supplier', 'regionCode', zh)).toBe(zhPartner.partner.addresses.district);
    expect(fieldLabel('customer', 'regionCode', en)).toBe('District');
    expect(fieldLabel('customer', 'contacts', en)).toBe('Contacts');
  });

  it('names the fields of the mall and base content records as their screens do', () => {
    expect(fieldLabel('swiper', 'link', zh)).toBe(zhBase.swiper.link);
    expect(fieldLabel('mall-lottery', 'drawLimit', zh)).toBe(zhMall.lottery.drawLimit);
    expect(fieldLabel('mall-category', 'sort', zh)).toBe(zhMall.common.sort);
    expect(fieldLabel('service-order', 'amount', en)).toBe('Amount');
  });

  it("names what the record kit audits of a review rule and a service staff member as their dialogs do", () => {
    expect(fieldLabel('verify-rule', 'reviewerIds', zh)).toBe(zhOffice.verify.reviewers);
    expect(fieldLabel('verify-rule', 'reviewerIds', en)).toBe(enOffice.verify.reviewers);
    expect(fieldLabel('serviceStaff', 'adminId', en)).toBe(enService.staff.name);
    expect(fieldLabel('serviceStaff', 'skills', en)).toBe(enService.staff.skills);
  });

  it('names a nested settings field by its label in the settings screen, in both languages', () => {
    expect(fieldLabel('system-setting', 'printTemplate.copies', zh)).toBe(zhOffice.setting.copies);
    expect(fieldLabel('system-setting', 'codePrefixes.customer', en)).toBe(enOffice.setting.codePrefixes.customer);
    expect(fieldLabel('tenant-config', 'openNegativeInventory', zh)).toBe('允许负库存');
  });

  it('falls back to the shared audit labels, then to the stored name, never to a group of texts', () => {
    expect(fieldLabel('dept', 'leaderId', zh)).toBe('负责人 ID');
    expect(fieldLabel('material', 'units', zh)).not.toBe('[object Object]');
    expect(fieldLabel('unknown', 'somethingNew', zh)).toBe('somethingNew');
  });
});
