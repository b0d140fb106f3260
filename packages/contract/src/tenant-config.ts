import { z } from 'zod';
import { GENERATED_CODE_RECORD_KINDS, type GeneratedCodeRecordKind } from './records/catalogue.ts';
import { storableText } from './text.ts';
import { uploadExtensionSchema } from './upload.ts';

/**
 * Tenant configuration with its defaults.
 * Stored as jsonb on the tenant row; every read goes through `tenantConfigSchema.parse` so a missing key
 * takes its default and a stored tenant never lacks a field.
 */
/**
 * What picture search matches a photo against (docs/picture-search.md): nothing, the materials
 * (`Similarity`), or the materials and the mall products (`Product`). The engines an earlier version offered
 * (`Local`, `Cloud`) read as `Similarity`.
 */
export const PictureSearchType = ['NotSelected', 'Similarity', 'Product'] as const;

export const moduleEntrySchema = z.object({
  /** Module type, e.g. mall, service, production. */
  type: storableText().min(1),
  needCheck: z.boolean().default(false),
  /** ISO date after which the module is expired; null = no expiry. */
  expiresAt: storableText().nullable().default(null),
});
export type ModuleEntry = z.infer<typeof moduleEntrySchema>;

const flag = () => z.boolean().default(false);
const digits = (fallback: number) => z.number().int().min(0).max(6).default(fallback);

export const tenantConfigSchema = z.object({
  logo: storableText().default(''),
  title: storableText().max(100).default(''),
  slogan: storableText().max(200).default(''),
  phone: storableText().max(30).default(''),
  openShelves: flag(),
  openVerify: flag(),
  /** Bill types that need joint review (kept as a list; the API also sends the comma string). */
  openVerifyBill: z.array(storableText()).default([]),
  openNegativeInventory: flag(),
  openDiscount: flag(),
  openTaxRate: flag(),
  openSerialNumber: flag(),
  openBatchNumber: flag(),
  openDirectOutstock: flag(),
  openConsumablesOutstock: flag(),
  allowPurchaseInstockBeyond: flag(),
  allowSaleOutstockBeyond: flag(),
  numberRetainsSmallDigit: digits(3),
  amountRetainsSmallDigit: digits(2),
  defaultPageSize: z.number().int().refine((n) => [10, 25, 50, 100, 200].includes(n)).default(10),
  allowProductionInstockBeyond: flag(),
  allowProductionClaimBeyond: flag(),
  allowOutsourcingPickBeyond: flag(),
  allowOutsourcingInstockBeyond: flag(),
  hasPictureSearchModule: flag(),
  pictureSearchType: z.preprocess((v) => (v === 'Local' || v === 'Cloud' ? 'Similarity' : v), z.enum(PictureSearchType)).default('NotSelected'),
  pictureSearchSimilarity: z.number().min(0).max(1).default(0.7),
  openEntrustMachining: flag(),
  openSaleOrderBomSelect: flag(),
  /** Days of the default date range of list searches. */
  defaultDateSearch: z.number().int().min(0).max(3660).default(7),
  /**
   * Days a bill's date may lie after today (0: not after today). A bill dated far ahead would still be
   * valued when it is audited (stock follows the order of audits, not of bill dates), so its date would
   * misstate when the goods moved.
   */
  billDateMaxDaysAhead: z.number().int().min(0).max(366).default(30),
  dispatchAutoAudit: flag(),
  applyRangeSupplier: flag(),
  applyRangeCustomer: flag(),
  applyRangeMaterial: flag(),
  applyRangeStock: flag(),
  completionNeedAllPickOutstock: flag(),
  packageResultLimitSubmit: flag(),
  autoOpenFlow: z.boolean().default(true),
  allowPurchaseInstockAdditionalNumber: flag(),
  allowSaleOutstockAdditionalNumber: flag(),
  searchCache: flag(),
  openBomStatistics: flag(),
});
export type TenantConfig = z.infer<typeof tenantConfigSchema>;

/** What GET /admin/admin/tenant returns. */
export interface TenantConfigView extends Omit<TenantConfig, 'openVerifyBill'> {
  id: number;
  name: string;
  isLogoff: boolean;
  /** Comma string, as the spec's clients expect. */
  openVerifyBill: string;
  openVerifyBillList: string[];
  moduleList: Array<{ type: string; needCheck: boolean; isExpired: boolean; expiresAt: string | null }>;
  /** Enabled (unexpired) module types joined by commas. */
  moduleListStr: string;
}

/** Public system configuration (GET /base/system/config). */
export interface SystemConfig {
  system_title: string;
  system_icon: string;
  system_upload_type: string;
  icon: string;
  icp: string;
  logo: string;
  name: string;
  shortName: string;
  title: string;
  passwordRegex: string;
  passwordRegexTip: { zh: string; en: string };
  phoneRegex: string;
  uploadDomain: string;
  openRegister: boolean;
  openAppointment: boolean;
  customerServiceQrCode: string;
  translateUrl: string;
  /** Download links of the Excel import templates, keyed by record type. */
  templates: Record<TemplateKey, string>;
}

export const TEMPLATE_KEYS = ['brand', 'category', 'supplier', 'customer', 'stock', 'location', 'attribute', 'material', 'fee', 'paytype', 'item', 'bom'] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

/** Upload type meaning "direct upload to the cloud storage provider"; anything else uploads to our server. */
export const CLOUD_UPLOAD_TYPE = 'qiniuyun';
export const LOCAL_UPLOAD_TYPE = 'location';

// ---------------------------------------------------------------- updating the tenant config

/** Decimal places: at most 6; that they only increase is checked against the stored value. */
const decimalPlaces = z.number().int().min(0).max(6, { message: 'DecimalPlacesMaxSix' });

/**
 * PUT /admin/admin/tenant: any subset of the config keys (the screen sends the whole form, extra view keys
 * such as id, name or moduleList are ignored). `openVerifyBill` is not accepted here: it follows the enabled
 * joint review rules (PUT /admin/system/verify keeps it in step).
 */
const updatableShape = Object.fromEntries(
  Object.entries(tenantConfigSchema.shape)
    .filter(([key]) => key !== 'openVerifyBill')
    .map(([key, schema]) => [key, (schema as unknown as z.ZodDefault<z.ZodType>).unwrap().optional()]),
);
export type TenantConfigUpdate = Partial<Omit<TenantConfig, 'openVerifyBill'>>;
export const tenantConfigUpdateSchema = z.object({
  ...updatableShape,
  numberRetainsSmallDigit: decimalPlaces.optional(),
  amountRetainsSmallDigit: decimalPlaces.optional(),
}) as unknown as z.ZodType<TenantConfigUpdate>;

/** Config keys whose value may only grow. */
export const INCREASE_ONLY_KEYS = ['numberRetainsSmallDigit', 'amountRetainsSmallDigit'] as const;

// ---------------------------------------------------------------- list column settings

/** One column of a list's settings. */
export const columnSettingSchema = z.object({
  prop: storableText().trim().min(1).max(100),
  isShow: z.boolean(),
  /** Display order: lower first. */
  priority: z.number().int().min(0).max(100000),
  /** The column cannot be hidden or moved by the user. */
  disabled: z.boolean().default(false),
});
export type ColumnSetting = z.infer<typeof columnSettingSchema>;

/** The list a setting belongs to, e.g. `system_staff` or `purchase_order`. */
export const columnTypeSchema = storableText().trim().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/);

export const columnSettingsQuerySchema = z.object({ type: columnTypeSchema });
export const columnSettingsSaveSchema = z.object({
  type: columnTypeSchema,
  columns: z
    .array(columnSettingSchema)
    .max(300)
    .refine((list) => new Set(list.map((c) => c.prop)).size === list.length, { message: 'BadRequest' }),
});
export type ColumnSettingsSave = z.infer<typeof columnSettingsSaveSchema>;

// ---------------------------------------------------------------- system settings

/**
 * Tenant-level settings of GET/PUT /admin/system/setting, one stored row per top-level key. What an ERP
 * tenant administrator sets once and rarely touches; each key has a default so a new tenant has them all.
 */
const phoneNumber = storableText().regex(/^1[3-9]\d{9}$/, { message: 'PhoneFormatError' });

/**
 * Records whose code is generated when left empty (prefix + sequence, core/code-generator on the server):
 * the records with screens of their own, then every declared record kind that says it takes generated
 * codes (`generatedCode`, records/catalogue.ts). Bill codes are prefix + date + sequence (billCodePrefixes).
 */
const OWN_SCREEN_CODE_KINDS = ['material', 'supplier', 'customer', 'warehouse', 'location'] as const;
export type RecordCodeKind = (typeof OWN_SCREEN_CODE_KINDS)[number] | GeneratedCodeRecordKind;
export const RECORD_CODE_KINDS: readonly RecordCodeKind[] = [...OWN_SCREEN_CODE_KINDS, ...GENERATED_CODE_RECORD_KINDS.map((decl) => decl.kind)];
/**
 * Default prefixes: the pinyin initials a Chinese team expects (物料 WL, 供应商 GYS, 客户 KH, 仓库 CK, 库位 KW),
 * and each declared kind's own.
 */
export const DEFAULT_CODE_PREFIXES = {
  material: 'WL',
  supplier: 'GYS',
  customer: 'KH',
  warehouse: 'CK',
  location: 'KW',
  ...Object.fromEntries(GENERATED_CODE_RECORD_KINDS.map((decl) => [decl.kind, decl.generatedCode.prefix])),
} as Record<RecordCodeKind, string>;
/** Digits of the sequence part of a generated record code (WL000001); more when the counter outgrows them. */
export const RECORD_CODE_DIGITS = 6;
/** A code prefix: letters, digits, - and _, at most 10 (codes appear in file names, barcodes and URLs). */
export const CODE_PREFIX_PATTERN = /^[A-Za-z0-9_-]{0,10}$/;
const codePrefix = storableText().trim().regex(CODE_PREFIX_PATTERN, { message: 'CodePrefixFormatError' });
/** A bill type's code prefix: as a record's, but never empty (a bill code names its type). */
export const BILL_CODE_PREFIX_PATTERN = /^[A-Za-z0-9_-]{1,10}$/;
const billCodePrefix = storableText().trim().regex(BILL_CODE_PREFIX_PATTERN, { message: 'CodePrefixFormatError' });

/** The longest an unpaid mall order may wait: 30 days. */
export const MAX_UNPAID_ORDER_CANCEL_MINUTES = 43_200;

const settingParts = {
  /** Prefix of each generated record code; empty = digits only. */
  codePrefixes: z.object(Object.fromEntries(RECORD_CODE_KINDS.map((kind) => [kind, codePrefix.default(DEFAULT_CODE_PREFIXES[kind])])) as { [K in RecordCodeKind]: z.ZodDefault<typeof codePrefix> }),
  /**
   * Bill types whose code prefix the tenant changed (bill type → prefix; the others keep their
   * declaration's `codePrefix`). Bill codes are prefix + date + daily sequence (contract bills/code-prefixes.ts).
   */
  billCodePrefixes: z
    .record(z.string().regex(/^[A-Za-z]{1,40}$/, { message: 'BadRequest' }), billCodePrefix)
    .refine((prefixes) => Object.keys(prefixes).length <= 200, { message: 'BadRequest' }),
  /** Mobile numbers told by SMS when a new mall or service order arrives. */
  orderNotifyPhones: z
    .array(phoneNumber)
    .max(10)
    .refine((list) => new Set(list).size === list.length, { message: 'BadRequest' }),
  /** Signature of the tenant's SMS texts, shown as 【signature】 (2–20 characters once set). */
  smsSignature: z.union([z.literal(''), storableText().trim().min(2).max(20)]),
  /** Watermark over the back-office screens, so that a photographed screen names its viewer. */
  watermark: z.object({
    enabled: z.boolean().default(false),
    /** account: the signed-in staff member's name and phone tail; custom: `text`. */
    content: z.enum(['account', 'custom']).default('account'),
    text: storableText().max(50).default(''),
  }),
  /**
   * Extensions the generic file and attachment uploads accept beyond the standard ones (images, xls, xlsx,
   * pdf, doc, docx, mp4), e.g. zip or txt. Pages, scripts and programs can never be added.
   */
  uploadExtensions: z
    .array(uploadExtensionSchema)
    .max(30)
    .refine((list) => new Set(list).size === list.length, { message: 'BadRequest' }),
  /**
   * Minutes a mall order may stay unpaid before it is cancelled automatically and its stock given back
   * (0: never). Checked by a periodic job, so a cancellation may come up to a minute or two late.
   */
  unpaidOrderCancelMinutes: z.number().int().min(0).max(MAX_UNPAID_ORDER_CANCEL_MINUTES),
  /** Defaults of printed bills and receipts. */
  printTemplate: z.object({
    paperSize: z.enum(['A4', 'A5', '241mm', '80mm', '58mm']).default('A4'),
    copies: z.number().int().min(1).max(9).default(1),
    /** Heading printed above the bill; empty = the tenant's title. */
    header: storableText().max(100).default(''),
    footer: storableText().max(200).default(''),
    showPrice: z.boolean().default(true),
    showSignature: z.boolean().default(true),
  }),
};

export const systemSettingsSchema = z.object({
  codePrefixes: settingParts.codePrefixes.prefault({}),
  billCodePrefixes: settingParts.billCodePrefixes.default({}),
  orderNotifyPhones: settingParts.orderNotifyPhones.default([]),
  smsSignature: settingParts.smsSignature.default(''),
  watermark: settingParts.watermark.prefault({}),
  printTemplate: settingParts.printTemplate.prefault({}),
  uploadExtensions: settingParts.uploadExtensions.default([]),
  unpaidOrderCancelMinutes: settingParts.unpaidOrderCancelMinutes.default(0),
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;
export const SYSTEM_SETTING_KEYS = Object.keys(settingParts) as Array<keyof SystemSettings>;

/** PUT /admin/system/setting: any subset of the keys; a key that is sent is replaced whole. */
export const systemSettingsUpdateSchema = z.object({
  codePrefixes: settingParts.codePrefixes.optional(),
  billCodePrefixes: settingParts.billCodePrefixes.optional(),
  orderNotifyPhones: settingParts.orderNotifyPhones.optional(),
  smsSignature: settingParts.smsSignature.optional(),
  watermark: settingParts.watermark.optional(),
  printTemplate: settingParts.printTemplate.optional(),
  uploadExtensions: settingParts.uploadExtensions.optional(),
  unpaidOrderCancelMinutes: settingParts.unpaidOrderCancelMinutes.optional(),
});
export type SystemSettingsUpdate = z.infer<typeof systemSettingsUpdateSchema>;
