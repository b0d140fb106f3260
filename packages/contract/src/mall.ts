import { z } from 'zod';
import { idsSchema } from './common.ts';
import { richText } from './rich-text.ts';
import { nameText, storableText } from './text.ts';

/**
 * The mall (/api/admin/mall/…): product categories, products with their specs and SKUs, orders and the
 * orders staff place for a customer, lottery activities and customer feedback. The shapes follow what
 * Chinese mall back-offices keep (a two-level category tree, SPU + SKU with a spec matrix, an order with
 * its own status and a separate refund status, a timeline of what happened to it). The state diagrams are
 * in docs/mall.md.
 */
const id = z.number().int().positive();
const name = nameText;
const text = (max: number) => storableText().trim().max(max);
/** An image: an address the upload route gave back (our own /api/base/file/… or the cloud domain's). */
const imageUrl = storableText().trim().max(500);
/** Money with at most two decimals, 0 – 99,999,999.99. */
const money = z
  .number()
  .min(0)
  .max(99_999_999.99)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { message: 'AmountPrecisionError' });
const quantity = z.number().int().min(1, { message: 'MallQuantityError' }).max(9999, { message: 'MallQuantityError' });

// ---------------------------------------------------------------- categories

/** A two-level tree: a top category and its sub-categories (products may sit on either). */
export const MALL_CATEGORY_MAX_LEVEL = 2;

export const mallCategoryCreateSchema = z.object({
  parentId: id.nullable().default(null),
  name: name(30),
  icon: imageUrl.default(''),
  sort: z.number().int().min(0).max(999_999).default(0),
  enabled: z.boolean().default(true),
});
export type MallCategoryCreate = z.infer<typeof mallCategoryCreateSchema>;
export const mallCategoryUpdateSchema = mallCategoryCreateSchema.extend({ id });
export type MallCategoryUpdate = z.infer<typeof mallCategoryUpdateSchema>;

export interface MallCategory {
  id: number;
  parentId: number | null;
  level: number;
  name: string;
  icon: string;
  sort: number;
  enabled: boolean;
  /** Products filed directly under this category. */
  productCount: number;
  createdAt: string;
}
export interface MallCategoryNode extends MallCategory {
  children?: MallCategoryNode[];
}

// ---------------------------------------------------------------- products

/** At most three spec dimensions (colour × size × …) of at most 20 values each. */
export const MALL_MAX_SPECS = 3;
export const MALL_MAX_SPEC_VALUES = 20;
export const MALL_MAX_IMAGES = 10;

const specValue = storableText().trim().min(1, { message: 'MallSpecValueEmpty' }).max(30);
export const mallSpecSchema = z.object({
  name: storableText().trim().min(1, { message: 'MallSpecNameEmpty' }).max(20),
  values: z.array(specValue).min(1, { message: 'MallSpecValueEmpty' }).max(MALL_MAX_SPEC_VALUES),
});
export type MallSpec = z.infer<typeof mallSpecSchema>;

export const mallSkuInputSchema = z.object({
  /** One value per spec, in the specs' order ([] for a product without specs). */
  specValues: z.array(specValue).max(MALL_MAX_SPECS),
  price: money,
  marketPrice: money.default(0),
  costPrice: money.default(0),
  stock: z.number().int().min(0).max(99_999_999),
  /**
   * The stock the editor read for this SKU (an existing one). The server then applies the change typed
   * (stock − stockSeen) to the stock there is now, so that what orders took meanwhile stays taken; without
   * it the stock is set as sent. See docs/mall.md.
   */
  stockSeen: z.number().int().min(0).max(99_999_999).optional(),
  code: text(50).default(''),
  image: imageUrl.default(''),
});
export type MallSkuInput = z.infer<typeof mallSkuInputSchema>;

export const mallProductCreateSchema = z.object({
  categoryId: id,
  name: name(100),
  subtitle: text(200).default(''),
  unitName: text(10).default('件'),
  images: z.array(imageUrl.min(1)).min(1, { message: 'MallProductImageRequired' }).max(MALL_MAX_IMAGES),
  /** Rich text, stored sanitised (the server's allow-list: no script, handler or javascript: address). */
  detail: richText(200_000).default(''),
  specs: z.array(mallSpecSchema).max(MALL_MAX_SPECS).default([]),
  skus: z.array(mallSkuInputSchema).min(1, { message: 'MallSkuRequired' }).max(1000),
  onShelf: z.boolean().default(false),
  sort: z.number().int().min(0).max(999_999).default(0),
  /** The ERP material the product is, when there is one. */
  materialId: id.nullable().default(null),
});
export type MallProductCreate = z.infer<typeof mallProductCreateSchema>;
export const mallProductUpdateSchema = mallProductCreateSchema.extend({ id });
export type MallProductUpdate = z.infer<typeof mallProductUpdateSchema>;

export const mallShelvesSchema = idsSchema.extend({ onShelf: z.boolean() });

export interface MallSku {
  id: number;
  specValues: string[];
  price: number;
  marketPrice: number;
  costPrice: number;
  stock: number;
  sales: number;
  code: string;
  image: string;
}

export interface MallProductRow {
  id: number;
  categoryId: number;
  categoryName: string | null;
  name: string;
  subtitle: string;
  unitName: string;
  image: string;
  minPrice: number;
  maxPrice: number;
  stock: number;
  sales: number;
  skuCount: number;
  onShelf: boolean;
  sort: number;
  materialId: number | null;
  materialName: string | null;
  createdAt: string;
}

export interface MallProduct extends MallProductRow {
  images: string[];
  detail: string;
  specs: MallSpec[];
  skus: MallSku[];
}

/** A SKU to put in an order (the proxy order's picker). */
export interface MallSkuOption {
  skuId: number;
  productId: number;
  productName: string;
  specValues: string[];
  price: number;
  stock: number;
  code: string;
  image: string;
  unitName: string;
}

// ---------------------------------------------------------------- orders

/** The order's own flow; a refund runs beside it (MallRefundStatus). See docs/mall.md. */
export const MallOrderStatus = ['PendingPayment', 'Paid', 'Shipped', 'Completed', 'Cancelled', 'Refunded'] as const;
export type MallOrderStatus = (typeof MallOrderStatus)[number];
export const MallRefundStatus = ['None', 'Requested', 'Approved', 'Refused', 'Refunded'] as const;
export type MallRefundStatus = (typeof MallRefundStatus)[number];
/** Where the order came from: the shop itself, or staff placing it for a customer. */
export const MallOrderSource = ['mall', 'proxy'] as const;
export type MallOrderSource = (typeof MallOrderSource)[number];
export const MallPayType = ['wechat', 'alipay', 'balance', 'offline'] as const;
export type MallPayType = (typeof MallPayType)[number];
/** The list's tabs: every status, and the orders with an open refund. */
export const MallOrderTab = ['all', ...MallOrderStatus, 'Refunding'] as const;
export type MallOrderTab = (typeof MallOrderTab)[number];

export const mallOrderLineSchema = z.object({ skuId: id, quantity });

export const mallOrderCreateSchema = z.object({
  customerId: id,
  consignee: storableText().trim().min(1, { message: 'MallConsigneeRequired' }).max(30),
  phone: storableText().trim().min(1, { message: 'MallConsigneePhoneRequired' }).max(30),
  address: storableText().trim().min(1, { message: 'MallAddressRequired' }).max(200),
  items: z
    .array(mallOrderLineSchema)
    .min(1, { message: 'MallOrderItemsRequired' })
    .max(100)
    .refine((lines) => new Set(lines.map((l) => l.skuId)).size === lines.length, { message: 'MallOrderSkuRepeat' }),
  freightAmount: money.default(0),
  discountAmount: money.default(0),
  buyerRemark: text(200).default(''),
});
export type MallOrderCreate = z.infer<typeof mallOrderCreateSchema>;

export const mallOrderPaySchema = z.object({ id, payType: z.enum(MallPayType).default('offline') });
export const mallOrderShipSchema = z.object({
  id,
  logisticsCompany: storableText().trim().min(1, { message: 'MallLogisticsRequired' }).max(30),
  logisticsNo: storableText().trim().min(1, { message: 'MallLogisticsRequired' }).max(50),
});
export const mallOrderReasonSchema = z.object({ id, reason: text(200).default('') });
export const mallOrderRefundApplySchema = z.object({
  id,
  reason: storableText().trim().min(1, { message: 'MallRefundReasonRequired' }).max(200),
  /** Defaults to the whole amount paid. */
  amount: money.optional(),
});
export const mallOrderRemarkSchema = z.object({ id, remark: text(500) });

export interface MallOrderItem {
  id: number;
  productId: number;
  skuId: number;
  productName: string;
  specValues: string[];
  image: string;
  price: number;
  quantity: number;
  amount: number;
}

export interface MallOrderLog {
  id: number;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  remark: string;
  operatorName: string;
  createdAt: string;
}

export interface MallOrderRow {
  id: number;
  orderNo: string;
  source: MallOrderSource;
  customerId: number | null;
  customerName: string;
  consignee: string;
  phone: string;
  status: MallOrderStatus;
  refundStatus: MallRefundStatus;
  goodsAmount: number;
  freightAmount: number;
  discountAmount: number;
  payAmount: number;
  /** The amount of the refund asked for (0 before any): what approving and confirming it give back. */
  refundAmount: number;
  itemCount: number;
  /** The first item's name and image, for the list. */
  firstItemName: string;
  firstItemImage: string;
  payType: MallPayType | null;
  createdAt: string;
  paidAt: string | null;
}

export interface MallOrder extends MallOrderRow {
  address: string;
  buyerRemark: string;
  adminRemark: string;
  logisticsCompany: string;
  logisticsNo: string;
  refundReason: string;
  refuseReason: string;
  cancelReason: string;
  shippedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  refundedAt: string | null;
  createdByName: string;
  items: MallOrderItem[];
  logs: MallOrderLog[];
}

export type MallOrderCounts = Record<MallOrderTab, number>;

// ---------------------------------------------------------------- lottery

export const MallPrizeKind = ['none', 'goods', 'points', 'coupon'] as const;
export type MallPrizeKind = (typeof MallPrizeKind)[number];
export const MallLotteryStatus = ['NotStarted', 'InProgress', 'Ended', 'Disabled'] as const;
export type MallLotteryStatus = (typeof MallLotteryStatus)[number];

/** Probabilities are percentages with at most two decimals; all prizes of an activity sum to exactly 100. */
const probability = z
  .number()
  .min(0)
  .max(100)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { message: 'MallPrizeProbabilityPrecision' });

export const mallPrizeInputSchema = z.object({
  /** The stored prize being edited; absent for a new one. */
  id: id.optional(),
  name: name(30),
  kind: z.enum(MallPrizeKind),
  image: imageUrl.default(''),
  probability,
  /** How many can still be won; ignored (unlimited) for the no-prize slot. */
  stock: z.number().int().min(0).max(9_999_999).default(0),
  /**
   * The stock the editor read for this (stored) prize: the change typed (stock − stockSeen) is applied to
   * the stock there is now, so prizes won meanwhile stay won; without it the stock is set as sent.
   */
  stockSeen: z.number().int().min(0).max(9_999_999).optional(),
});
export type MallPrizeInput = z.infer<typeof mallPrizeInputSchema>;

const lotteryFields = {
  name: name(50),
  startAt: storableText().min(1, { message: 'MallLotteryTimeRequired' }),
  endAt: storableText().min(1, { message: 'MallLotteryTimeRequired' }),
  /** Draws one customer may make per activity (0 = unlimited). */
  drawLimit: z.number().int().min(0).max(1000).default(0),
  rule: text(2000).default(''),
  enabled: z.boolean().default(true),
  prizes: z.array(mallPrizeInputSchema).min(2, { message: 'MallPrizesRequired' }).max(12, { message: 'MallPrizesTooMany' }),
};
export const mallLotteryCreateSchema = z.object(lotteryFields);
export type MallLotteryCreate = z.infer<typeof mallLotteryCreateSchema>;
export const mallLotteryUpdateSchema = z.object({ id, ...lotteryFields });
export type MallLotteryUpdate = z.infer<typeof mallLotteryUpdateSchema>;
export const mallLotteryDrawSchema = z.object({ lotteryId: id, customerId: id });

export interface MallPrize {
  id: number;
  name: string;
  kind: MallPrizeKind;
  image: string;
  probability: number;
  stock: number;
  drawn: number;
  sort: number;
}

export interface MallLotteryRow {
  id: number;
  name: string;
  startAt: string;
  endAt: string;
  drawLimit: number;
  enabled: boolean;
  status: MallLotteryStatus;
  prizeCount: number;
  drawCount: number;
  winCount: number;
  createdAt: string;
}
export interface MallLottery extends MallLotteryRow {
  rule: string;
  prizes: MallPrize[];
}

export interface MallLotteryRecord {
  id: number;
  lotteryId: number;
  lotteryName: string;
  prizeId: number;
  prizeName: string;
  prizeKind: MallPrizeKind;
  won: boolean;
  customerId: number;
  customerName: string;
  operatorName: string;
  createdAt: string;
}

// ---------------------------------------------------------------- feedback

export const MallFeedbackType = ['suggestion', 'complaint', 'product', 'logistics', 'other'] as const;
export type MallFeedbackType = (typeof MallFeedbackType)[number];
export const MallFeedbackStatus = ['Pending', 'Replied', 'Closed'] as const;
export type MallFeedbackStatus = (typeof MallFeedbackStatus)[number];

export const mallFeedbackCreateSchema = z.object({
  customerId: id.nullable().default(null),
  contactName: text(30).default(''),
  contactPhone: text(30).default(''),
  type: z.enum(MallFeedbackType),
  content: storableText().trim().min(1, { message: 'MallFeedbackContentRequired' }).max(2000),
  images: z.array(imageUrl.min(1)).max(9).default([]),
});
export type MallFeedbackCreate = z.infer<typeof mallFeedbackCreateSchema>;
export const mallFeedbackReplySchema = z.object({
  id,
  reply: storableText().trim().min(1, { message: 'MallFeedbackReplyRequired' }).max(2000),
});
export const mallFeedbackStatusSchema = idsSchema.extend({ status: z.enum(MallFeedbackStatus) });

export interface MallFeedback {
  id: number;
  customerId: number | null;
  customerName: string | null;
  contactName: string;
  contactPhone: string;
  type: MallFeedbackType;
  content: string;
  images: string[];
  status: MallFeedbackStatus;
  reply: string;
  replierName: string;
  repliedAt: string | null;
  createdAt: string;
}
