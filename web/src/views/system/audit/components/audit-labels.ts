/*
 * Where an audit entry's field names find the label their screen shows: the log stores field names as the
 * API knows them (`salePrice`, `printTemplate.copies`), the screen reads them as its form does (销售价,
 * 打印份数). For each entity, the locale keys to try, in order; the shared `system.audit.fields` come last,
 * and a field none of them knows shows as stored.
 */

/** A field of a nested settings key (`watermark.enabled`) → its key in the settings screen's texts. */
const SETTING_FIELDS: Record<string, string> = {
  'watermark.enabled': 'watermarkEnabled',
  'watermark.content': 'watermarkContent',
  'watermark.text': 'watermarkText',
  'printTemplate.paperSize': 'paperSize',
  'printTemplate.copies': 'copies',
  'printTemplate.header': 'printHeader',
  'printTemplate.footer': 'printFooter',
  'printTemplate.showPrice': 'showPrice',
  'printTemplate.showSignature': 'showSignature',
};

/** The field names the record screens and the audit log name differently. */
const RECORD_FIELDS: Record<string, string> = { managerId: 'manager', warehouseId: 'warehouse', categoryId: 'category', brandId: 'brand', materialQuality: 'quality' };

/** The fields of a partner's address and their column in the address table: a region or own district is its "district". */
const ADDRESS_FIELDS: Record<string, string> = { regionCode: 'district', districtId: 'district', address: 'detail' };

/** Locale keys that may name `field` of `entity`, most specific first. */
export function labelKeys(entity: string, field: string): string[] {
  const record = RECORD_FIELDS[field] ?? field;
  // Declared record kinds (units, brands, fee types…) name their fields by their declaration (use-audit-format.ts).
  const screen: Record<string, string[]> = {
    material: [`basic.material.${record}`, `basic.material.dims.${field}`],
    bom: [`basic.bom.${record}`],
    category: [`basic.category.${record}`],
    district: [`basic.district.${record}`],
    // A partner's contacts and addresses by their tab's title; an address's fields by its columns.
    supplier: [`basic-partner.partner.supplier.${record}`, `basic-partner.partner.${record}`, `basic-partner.partner.tabs.${record}`, `basic-partner.partner.addresses.${ADDRESS_FIELDS[field] ?? field}`],
    customer: [`basic-partner.partner.customer.${record}`, `basic-partner.partner.${record}`, `basic-partner.partner.tabs.${record}`, `basic-partner.partner.addresses.${ADDRESS_FIELDS[field] ?? field}`],
    warehouse: [`basic-partner.stock.${record}`],
    location: [`basic-partner.location.${record}`],
    // A department's name is "Department", not the shared "Name / account".
    dept: [`system.dept.${field === 'parentId' ? 'parent' : field}`],
    'system-setting': [`system-office.setting.${SETTING_FIELDS[field] ?? field}`],
    'tenant-config': [`system-office.tenant.fields.${field}`, `system-office.tenant.switches.${field}`],
    printer: [`system-office.printer.${field}`],
    // The record kit audits a rule's reviewers as the ids a save sends, a service staff member's account as adminId.
    'verify-rule': [`system-office.verify.${field === 'reviewerIds' ? 'reviewers' : field}`],
    serviceStaff: [`service.staff.${field === 'adminId' ? 'name' : field}`],
    swiper: [`base.swiper.${field}`],
    'time-slot': [`base.time.${field}`],
    'mall-category': [`mall.category.${field}`, `mall.common.${field}`],
    'mall-product': [`mall.product.${field}`, `mall.common.${field}`],
    'mall-order': [`mall.order.${field}`, `mall.common.${field}`],
    'mall-lottery': [`mall.lottery.${field}`, `mall.common.${field}`],
    'mall-feedback': [`mall.feedback.${field}`, `mall.common.${field}`],
    'service-order': [`service.order.${field}`],
  };
  return [...(screen[entity] ?? []), `system.audit.fields.${field}`];
}

/** The label of a field: the first key that names it with a text (not a group of texts), else the field. */
export function fieldLabel(entity: string, field: string, text: (key: string) => string | undefined): string {
  for (const key of labelKeys(entity, field)) {
    const found = text(key);
    if (found) return found;
  }
  return field;
}
