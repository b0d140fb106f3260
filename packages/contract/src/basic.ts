import { z } from 'zod';
import { codeText, nameText, storableText } from './text.ts';
import { enableSchema, idsSchema } from './common.ts';

/**
 * Basic records (issue 4) under /api/admin/basic/<record>: materials, brands, categories,
 * districts, suppliers, customers, warehouses (`stock`), storage locations, attributes, fee types, pay
 * types, bills of materials and units. Create payloads name the required fields; update payloads are the
 * same fields, all optional, plus `id` — a field left out keeps its stored value, a child list that is
 * sent (units, contacts, addresses, BOM lines) replaces the stored one.
 */

/** The record names of the routes, menus (`basic_<record>`) and button codes (`basic_<record>_add`…). */
export const BasicRecord = ['material', 'brand', 'category', 'supplier', 'customer', 'stock', 'location', 'attribute', 'fee', 'paytype', 'bom', 'unit'] as const;
export type BasicRecord = (typeof BasicRecord)[number];

/** Records that can be assigned to departments and staff, with their tenant switch. */
export const AssignableRecord = ['supplier', 'customer', 'material', 'stock'] as const;
export type AssignableRecord = (typeof AssignableRecord)[number];
export const ASSIGN_RANGE_SWITCH = {
  supplier: 'applyRangeSupplier',
  customer: 'applyRangeCustomer',
  material: 'applyRangeMaterial',
  stock: 'applyRangeStock',
} as const satisfies Record<AssignableRecord, string>;

/** Material business attribute tags. */
export const MaterialTag = ['sale', 'purchase', 'production', 'outsource', 'consumables', 'entrust'] as const;
export type MaterialTag = (typeof MaterialTag)[number];
/** Part kinds. */
export const PartKind = ['standard', 'customized', 'virtual'] as const;
export type PartKind = (typeof PartKind)[number];
/** Income or expense. */
export const FeeKind = ['income', 'expense'] as const;
export type FeeKind = (typeof FeeKind)[number];

/** zh/en labels of the enums, used by Excel templates, imports and exports (the web has its own locales). */
export const MATERIAL_TAG_LABELS: Record<MaterialTag, { zh: string; en: string }> = {
  sale: { zh: '销售', en: 'Sale' },
  purchase: { zh: '采购', en: 'Purchase' },
  production: { zh: '生产', en: 'Production' },
  outsource: { zh: '委外', en: 'Outsource' },
  consumables: { zh: '耗材', en: 'Consumables' },
  entrust: { zh: '受托', en: 'Entrust' },
};
export const PART_KIND_LABELS: Record<PartKind, { zh: string; en: string }> = {
  standard: { zh: '标准件', en: 'Standard' },
  customized: { zh: '定制件', en: 'Customized' },
  virtual: { zh: '虚拟件', en: 'Virtual' },
};
export const FEE_KIND_LABELS: Record<FeeKind, { zh: string; en: string }> = {
  income: { zh: '收入', en: 'Income' },
  expense: { zh: '支出', en: 'Expense' },
};
export const PartnerKind = ['supplier', 'customer'] as const;
export type PartnerKind = (typeof PartnerKind)[number];

/** Units of the material dimensions. */
export const DIMENSION_UNITS = {
  length: 'cm',
  width: 'cm',
  height: 'cm',
  diameter: 'cm',
  thickness: 'mm',
  weight: 'kg',
  volume: 'm³',
  area: 'm²',
} as const;
export type Dimension = keyof typeof DIMENSION_UNITS;

export const CATEGORY_MAX_LEVEL = 3;
export const DISTRICT_MAX_LEVEL = 4;
/** Images per material (image lists hold at most 5). */
export const MATERIAL_MAX_IMAGES = 5;

const id = z.number().int().positive();
const sort = z.number().int().min(0).max(999_999);
const remark = storableText().trim().max(500);
const text = (max = 100) => storableText().trim().max(max);
const name = nameText(100);
const code = codeText(50);
/** The code of a new record: empty or left out = generated (the tenant's prefix + a sequence). */
const newCode = storableText().trim().max(50, { message: 'CodeTooLong' }).optional();
/** Fits numeric(20,6). */
const amount = z.number().finite().min(0).max(1e13);
const percent = z.number().finite().min(0).max(100);
const phone = z.union([z.literal(''), storableText().trim().regex(/^[0-9+\-() ]{3,30}$/, { message: 'PhoneFormatError' })]);
const email = z.union([z.literal(''), z.email({ message: 'EmailFormatError' })]);

export { enableSchema, idParamsSchema, idsSchema, type Enable } from './common.ts';

/** PUT /api/admin/basic/<record>/assign: replaces the assignment of each record with these departments and staff. */
export const assignSchema = idsSchema.extend({
  deptIds: z.array(id).max(500).default([]),
  adminIds: z.array(id).max(2000).default([]),
});
export type Assign = z.infer<typeof assignSchema>;
export interface Assignment {
  deptIds: number[];
  adminIds: number[];
}

/** GET /api/admin/basic/<record>/picker: enabled records only, within the caller's assignment range. */
export const pickerQuerySchema = z.object({
  /** Matches code, name or specification. */
  keyword: storableText().trim().max(100).optional(),
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  /** Locations of one warehouse; materials of one category (and its sub-categories). */
  warehouseId: z.coerce.number().int().positive().optional(),
  categoryId: z.coerce.number().int().positive().optional(),
  /** Materials carrying this business tag. */
  tag: z.enum(MaterialTag).optional(),
  /** Fee types of one kind. */
  kind: z.enum(FeeKind).optional(),
  /** The BOMs of one material. */
  materialId: z.coerce.number().int().positive().optional(),
});
export type PickerQuery = z.infer<typeof pickerQuerySchema>;

/**
 * Create schema: `required` keys as declared (their own messages, e.g. PleaseSelectWarehouse, answer a
 * missing value), the rest optional. Update schema: every key optional, plus `id`.
 */
function createAndUpdate<S extends z.ZodRawShape, K extends keyof S & string>(shape: S, required: K[], createOnly: z.ZodRawShape = {}) {
  const createShape = {
    ...Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, required.includes(key as K) ? schema : (schema as z.ZodType).optional()])),
    ...createOnly,
  };
  return {
    create: z.object(createShape) as unknown as z.ZodObject<{ [P in keyof S]: P extends K ? S[P] : z.ZodOptional<S[P]> }>,
    update: z.object(shape).partial().extend({ id }),
  };
}

// ---------------------------------------------------------------- simple records

const simpleShape = { name, sort, remark };
export const unitSchemas = createAndUpdate(simpleShape, ['name']);
export const brandSchemas = createAndUpdate(simpleShape, ['name']);
export const payTypeSchemas = createAndUpdate(simpleShape, ['name']);
export const feeTypeSchemas = createAndUpdate({ ...simpleShape, kind: z.enum(FeeKind, { error: 'PleaseSelectFeeKind' }) }, ['name', 'kind']);
export const attributeSchemas = createAndUpdate(
  {
    ...simpleShape,
    values: z
      .array(text(100).min(1))
      .max(200)
      .refine((list) => new Set(list).size === list.length, { message: 'NameRepeat' }),
  },
  ['name'],
);

export interface SimpleRecord {
  id: number;
  name: string;
  sort: number;
  remark: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}
export type Unit = SimpleRecord;
export type Brand = SimpleRecord;
export type PayType = SimpleRecord;
export interface FeeType extends SimpleRecord {
  kind: FeeKind;
}
export interface Attribute extends SimpleRecord {
  values: string[];
}

// ---------------------------------------------------------------- trees

export interface Category extends SimpleRecord {
  parentId: number | null;
  parentName: string | null;
  level: number;
}
export interface CategoryNode extends Category {
  children?: CategoryNode[];
}

export const districtSchemas = createAndUpdate({ parentId: id.nullable(), name, code: text(20), sort }, ['name']);
export interface District {
  id: number;
  parentId: number | null;
  level: number;
  name: string;
  code: string;
  sort: number;
}
export interface DistrictNode extends District {
  children?: DistrictNode[];
}

// ---------------------------------------------------------------- national regions

/**
 * China's administrative divisions, shared by every tenant and read-only (GB/T 2260 codes: 6 digits down
 * to the county, 12 for a town). `level` is the administrative level (1 province, 2 city, 3 county,
 * 4 town); a municipality's counties are level 3 directly below it, as are the county-level divisions a
 * province administers directly. The package's placeholder levels ("市辖区") are not listed; their codes
 * stay valid. `nameEn` is the English name ("Guangdong", "Nanshan District"), '' when not known: the
 * English screens then show `name` (`regionName` in the web).
 */
export const REGION_MAX_LEVEL = 4;
export const regionCode = z.string().regex(/^\d{6}(\d{6})?$/, { message: 'RegionNotExist' });
/** GET /api/admin/basic/region/children: the regions directly below `parentCode` (none: the provinces). */
export const regionChildrenQuerySchema = z.object({ parentCode: regionCode.optional() });
/** GET /api/admin/basic/region/search: regions whose name contains `keyword`, or whose code starts with it. */
export const regionSearchQuerySchema = z.object({
  keyword: storableText().trim().min(1).max(50),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export interface Region {
  code: string;
  parentCode: string | null;
  level: number;
  name: string;
  nameEn: string;
  /** No regions below it. */
  leaf: boolean;
}
export interface RegionStep {
  code: string;
  name: string;
  nameEn: string;
}
/** A search result: the region and its path from the province down to itself. */
export interface RegionMatch extends Region {
  path: RegionStep[];
}

// ---------------------------------------------------------------- suppliers and customers

export const contactSchema = z.object({
  name: nameText(50),
  phone: phone.default(''),
  email: email.default(''),
  position: text(50).default(''),
  isDefault: z.boolean().default(false),
});
/** An address names a national region (`regionCode`) or one of the tenant's own districts, not both. */
export const addressSchema = z
  .object({
    regionCode: regionCode.nullable().default(null),
    districtId: id.nullable().default(null),
    address: text(200).default(''),
    contactName: text(50).default(''),
    phone: phone.default(''),
    isDefault: z.boolean().default(false),
  })
  .refine((a) => a.regionCode == null || a.districtId == null, { message: 'AddressRegionOrDistrict' });
export type Contact = z.infer<typeof contactSchema>;
export type Address = z.infer<typeof addressSchema>;

export const partnerSchemas = createAndUpdate(
  {
    code,
    name,
    shortName: text(50),
    phone,
    email,
    taxNumber: text(50),
    bankName: text(100),
    bankAccount: text(50),
    invoiceTitle: text(100),
    managerId: id.nullable(),
    /** Cross-border (docs/cross-border.md): the country, and the currency its bills default to (none: CNY). */
    country: text(50),
    currencyId: id.nullable(),
    sort,
    remark,
    contacts: z.array(contactSchema).max(50),
    addresses: z.array(addressSchema).max(50),
  },
  ['name'],
  { code: newCode },
);
export type PartnerCreate = z.infer<typeof partnerSchemas.create>;
export type PartnerUpdate = z.infer<typeof partnerSchemas.update>;

export interface Partner {
  id: number;
  kind: PartnerKind;
  code: string;
  name: string;
  shortName: string;
  phone: string;
  email: string;
  taxNumber: string;
  bankName: string;
  bankAccount: string;
  invoiceTitle: string;
  managerId: number | null;
  managerName: string | null;
  country: string;
  currencyId: number | null;
  /** The currency's code (USD), or null for CNY. */
  currencyCode: string | null;
  /**
   * Read-only: the sum of the partner's audited opening balances (finance's `Beginning` bills) — a
   * customer's opening receivable, a supplier's opening payable. Entered as opening-balance bills.
   */
  openingReceivable: number;
  openingPayable: number;
  sort: number;
  remark: string;
  enabled: boolean;
  deptId: number | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}
export interface PartnerDetail extends Partner {
  contacts: Array<Contact & { id: number }>;
  /** `regionPath`: the national region's path (province first); `districtPath`: the own district's names. */
  addresses: Array<Address & { id: number; regionPath: RegionStep[]; districtPath: string[] }>;
  assignment: Assignment;
}

// ---------------------------------------------------------------- warehouses and locations

export const warehouseSchemas = createAndUpdate(
  { code, name, address: text(200), managerId: id.nullable(), phone, rejects: z.boolean(), customerId: id.nullable(), sort, remark },
  ['name'],
  { code: newCode },
);
export interface Warehouse {
  id: number;
  code: string;
  name: string;
  address: string;
  managerId: number | null;
  managerName: string | null;
  phone: string;
  /** A reject warehouse (不良品仓): it takes inspections' rejects, and planning leaves its stock out. */
  rejects: boolean;
  /**
   * The customer whose materials it keeps (受托加工仓, entrusted machining): goods there are the customer's, held at
   * no value, and move only on that customer's bills. Null: the company's own warehouse.
   */
  customerId: number | null;
  customerName: string | null;
  sort: number;
  remark: string;
  enabled: boolean;
  deptId: number | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}
export interface WarehouseDetail extends Warehouse {
  assignment: Assignment;
}

export const locationSchemas = createAndUpdate(
  { warehouseId: z.number({ error: 'PleaseSelectWarehouse' }).int().positive({ message: 'PleaseSelectWarehouse' }), code: text(50), name, sort, remark },
  ['warehouseId', 'name'],
);
export interface Location {
  id: number;
  warehouseId: number;
  warehouseName: string;
  code: string;
  name: string;
  sort: number;
  remark: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------- materials

export const materialUnitSchema = z.object({
  /** The stored row, when updating. */
  id: id.optional(),
  unitId: z.number({ error: 'PleaseSelectUnit' }).int().positive({ message: 'PleaseSelectUnit' }),
  /** How many main units one of this unit holds; the main unit's ratio is 1. */
  ratio: z.number().finite().positive({ message: 'NumberMustGreaterThanZero' }).max(1e9).default(1),
  barcode: text(50).default(''),
  isMain: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type MaterialUnitInput = z.infer<typeof materialUnitSchema>;

const dimension = amount.nullable();
/** How MRP sizes a material's planned orders: exactly what is short, at least a minimum lot, or whole fixed lots. */
export const LotPolicy = ['lotForLot', 'minimum', 'fixed'] as const;
export type LotPolicy = (typeof LotPolicy)[number];
export const LOT_POLICY_LABELS: Record<LotPolicy, { zh: string; en: string }> = {
  lotForLot: { zh: '按需', en: 'Lot for lot' },
  minimum: { zh: '最小批量', en: 'Minimum lot' },
  fixed: { zh: '固定批量', en: 'Fixed lot' },
};

export const materialSchemas = createAndUpdate(
  {
    code,
    name,
    specification: text(100),
    model: text(100),
    categoryId: id.nullable(),
    brandId: id.nullable(),
    tags: z.array(z.enum(MaterialTag)).max(MaterialTag.length).refine((l) => new Set(l).size === l.length, { message: 'ParamError' }),
    partKind: z.enum(PartKind),
    length: dimension,
    width: dimension,
    height: dimension,
    diameter: dimension,
    thickness: dimension,
    weight: dimension,
    volume: dimension,
    area: dimension,
    materialQuality: text(100),
    /** Cross-border (docs/cross-border.md): customs code, English name, net / gross weight (kg) per main unit, country of origin. */
    hsCode: storableText().trim().regex(/^[0-9.]{0,20}$/, { message: 'HsCodeInvalid' }),
    englishName: text(200),
    netWeight: dimension,
    grossWeight: dimension,
    originCountry: text(50),
    images: z.array(storableText().trim().min(1).max(500)).max(MATERIAL_MAX_IMAGES, { message: 'UploadImageCountExceeded' }),
    batchNumber: z.boolean(),
    serialNumber: z.boolean(),
    safetyStock: amount.nullable(),
    warnDays: z.number().int().min(0).max(3650).nullable(),
    leadTimeDays: z.number().int({ message: 'LeadTimeOutOfRange' }).min(0, { message: 'LeadTimeOutOfRange' }).max(3650, { message: 'LeadTimeOutOfRange' }),
    lotPolicy: z.enum(LotPolicy),
    lotSize: amount.nullable(),
    purchasePrice: amount.nullable(),
    salePrice: amount.nullable(),
    retailPrice: amount.nullable(),
    /** Percent; only kept when the tenant's openTaxRate is on. */
    taxRate: percent.nullable(),
    /** Values keyed by attribute id. */
    customAttributes: z.record(storableText().regex(/^\d+$/), text(100)),
    remark,
    units: z.array(materialUnitSchema).min(1, { message: 'PleaseSelectUnit' }).max(20),
  },
  ['name', 'units'],
  { code: newCode },
);
export type MaterialCreate = z.infer<typeof materialSchemas.create>;
export type MaterialUpdate = z.infer<typeof materialSchemas.update>;

export interface MaterialUnit {
  id: number;
  unitId: number;
  unitName: string;
  ratio: number;
  barcode: string;
  isMain: boolean;
  enabled: boolean;
}

export interface Material {
  id: number;
  code: string;
  name: string;
  specification: string;
  model: string;
  categoryId: number | null;
  categoryName: string | null;
  brandId: number | null;
  brandName: string | null;
  mainUnitId: number | null;
  mainUnitName: string | null;
  tags: MaterialTag[];
  partKind: PartKind;
  length: number | null;
  width: number | null;
  height: number | null;
  diameter: number | null;
  thickness: number | null;
  weight: number | null;
  volume: number | null;
  area: number | null;
  materialQuality: string;
  hsCode: string;
  englishName: string;
  netWeight: number | null;
  grossWeight: number | null;
  originCountry: string;
  images: string[];
  batchNumber: boolean;
  serialNumber: boolean;
  safetyStock: number | null;
  warnDays: number | null;
  /** Planning (MRP): days from ordering to having it in stock. */
  leadTimeDays: number;
  lotPolicy: LotPolicy;
  /** The minimum or fixed lot of `lotPolicy`, in the main unit. */
  lotSize: number | null;
  /** Its low-level code, kept by the BOMs (read-only): the deepest level it appears at under the enabled default BOMs, 0 = top. */
  lowLevelCode: number;
  purchasePrice: number | null;
  salePrice: number | null;
  retailPrice: number | null;
  taxRate: number | null;
  customAttributes: Record<string, string>;
  remark: string;
  enabled: boolean;
  /** Stock on hand in the main unit, over all warehouses (decimal string). */
  stockQuantity: string;
  deptId: number | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}
export interface MaterialDetail extends Material {
  units: MaterialUnit[];
  assignment: Assignment;
}

/** DELETE /material/unit and PUT /material/unit/enable address stored unit rows by id. */
export const materialUnitEnableSchema = enableSchema;

// ---------------------------------------------------------------- bills of materials

/**
 * 子项类型 of a BOM line: a **standard** part, counted to the piece, or a **consumable** (耗材: glue, solder paste,
 * cutting fluid) whose use varies — a production order takes it as a material line of the same type, and with the
 * tenant's `openConsumablesOutstock` its picks may take more of it than the order needs.
 */
export const BomItemType = ['Standard', 'Consumable'] as const;
export type BomItemType = (typeof BomItemType)[number];
export const BOM_ITEM_TYPE_LABELS: Record<BomItemType, { zh: string; en: string }> = {
  Standard: { zh: '标准件', en: 'Standard' },
  Consumable: { zh: '耗材', en: 'Consumable' },
};

export const bomLineSchema = z.object({
  materialId: z.number({ error: 'PleaseSelectMaterial' }).int().positive({ message: 'PleaseSelectMaterial' }),
  /** Per `bom.quantity` of the parent. */
  quantity: z.number({ error: 'PleaseInputNumber' }).finite().positive({ message: 'NumberMustGreaterThanZero' }).max(1e9),
  /** Percent, 0–100. */
  lossRate: percent.default(0),
  itemType: z.enum(BomItemType, { error: 'ParamError' }).default('Standard'),
  unitId: id.nullable().default(null),
  remark: remark.default(''),
});
export type BomLineInput = z.infer<typeof bomLineSchema>;

export const bomSchemas = createAndUpdate(
  {
    materialId: z.number({ error: 'PleaseSelectMaterial' }).int().positive({ message: 'PleaseSelectMaterial' }),
    version: storableText().trim().min(1, { message: 'PleaseInputBomVersion' }).max(50),
    /** How many of the parent material the lines make (default 1). */
    quantity: z.number().finite().positive({ message: 'NumberMustGreaterThanZero' }).max(1e9),
    isDefault: z.boolean(),
    /** The routing the product is made by (none: the production order chooses one). */
    routingId: id.nullable(),
    remark,
    lines: z.array(bomLineSchema).min(1, { message: 'BomItemsEmpty' }).max(500),
  },
  ['materialId', 'version', 'lines'],
);
export type BomCreate = z.infer<typeof bomSchemas.create>;
export type BomUpdate = z.infer<typeof bomSchemas.update>;

export interface Bom {
  id: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  /** Its material's low-level code: the deepest level the material appears at under the enabled default BOMs (0 = top). */
  lowLevelCode: number;
  version: string;
  quantity: number;
  isDefault: boolean;
  routingId: number | null;
  routingName: string | null;
  remark: string;
  enabled: boolean;
  lineCount: number;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}
export interface BomLine {
  id: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  quantity: number;
  lossRate: number;
  itemType: BomItemType;
  unitId: number | null;
  unitName: string | null;
  remark: string;
}
export interface BomDetail extends Bom {
  lines: BomLine[];
}

/** GET /bom/:id/tree: the lines, each expanded by its material's default BOM. */
export interface BomTreeNode {
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  unitName: string | null;
  /** The material's stored low-level code (its deepest level in any structure; this node's `level` is its level in this one). */
  lowLevelCode: number;
  /** Per one parent of the level above (line quantity ÷ that BOM's quantity). */
  quantity: number;
  lossRate: number;
  /** The default BOM the node is expanded by, if any. */
  bomId: number | null;
  bomVersion: string | null;
  level: number;
  children: BomTreeNode[];
}

export const explodeQuerySchema = z.object({
  quantity: z.coerce.number().finite().positive({ message: 'NumberMustGreaterThanZero' }).max(1e9).default(1),
});
/** GET /bom/:id/explode?quantity=N: the leaf materials needed for N parents, with losses, summed. */
export interface BomRequirement {
  materialId: number;
  materialCode: string;
  materialName: string;
  specification: string;
  unitName: string | null;
  quantity: number;
  /**
   * With the tenant's BOM statistics (openBomStatistics): the material's average cost in stock (else its
   * purchase price) and the requirement's cost; null without them, or when the material has neither.
   */
  unitCost: number | null;
  cost: number | null;
}
