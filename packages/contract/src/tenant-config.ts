import { z } from 'zod';

/**
 * Tenant configuration (SPEC §3 "Tenant config") with the defaults of SPEC §9.
 * Stored as jsonb on the tenant row; every read goes through `tenantConfigSchema.parse` so a missing key
 * takes its default and a stored tenant never lacks a field.
 */
export const PictureSearchType = ['NotSelected', 'Local', 'Cloud'] as const;

export const moduleEntrySchema = z.object({
  /** Module type, e.g. mall, service, production. */
  type: z.string().min(1),
  needCheck: z.boolean().default(false),
  /** ISO date after which the module is expired; null = no expiry. */
  expiresAt: z.string().nullable().default(null),
});
export type ModuleEntry = z.infer<typeof moduleEntrySchema>;

const flag = () => z.boolean().default(false);
const digits = (fallback: number) => z.number().int().min(0).max(6).default(fallback);

export const tenantConfigSchema = z.object({
  logo: z.string().default(''),
  title: z.string().max(100).default(''),
  slogan: z.string().max(200).default(''),
  phone: z.string().max(30).default(''),
  openShelves: flag(),
  openVerify: flag(),
  /** Bill types that need joint review (kept as a list; the API also sends the comma string). */
  openVerifyBill: z.array(z.string()).default([]),
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
  hasPictureSearchModule: flag(),
  pictureSearchType: z.enum(PictureSearchType).default('NotSelected'),
  pictureSearchSimilarity: z.number().min(0).max(1).default(0.7),
  openEntrustMachining: flag(),
  openSaleOrderBomSelect: flag(),
  /** Days of the default date range of list searches. */
  defaultDateSearch: z.number().int().min(0).max(3660).default(7),
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

/** Public system configuration (GET /base/system/config, SPEC §3). */
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
