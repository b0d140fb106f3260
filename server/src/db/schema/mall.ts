import { sql } from 'drizzle-orm';
import { bigint, boolean, check, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/*
 * The mall (issue 11): product categories, products (SPU) with their SKUs, orders with their items and
 * timeline, lottery activities with prizes and draw records, customer feedback. Statuses and their
 * transitions are described in docs/mall.md. Money is numeric(14,2) (yuan, two decimals); stock and
 * quantities are whole numbers, and the columns that are taken from concurrently (SKU stock, prize stock)
 * carry a CHECK so that no write can ever leave them negative.
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });
const ref = (name: string) => bigint(name, { mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Product categories: two levels, each with an icon. */
export const mallCategory = pgTable(
  'mall_category',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: ref('parent_id'),
    level: integer('level').notNull().default(1),
    name: text('name').notNull(),
    icon: text('icon').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mall_category_name_uq').on(t.tenantId, sql`coalesce(${t.parentId}, 0)`, t.name),
    index('mall_category_parent_idx').on(t.tenantId, t.parentId, t.sort),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id], name: 'mall_category_parent_fk' }),
    tenantPolicy('mall_category'),
  ],
).enableRLS();

/** A product (SPU). Its price range, stock and sales are its SKUs'. */
export const mallProduct = pgTable(
  'mall_product',
  {
    tenantId: tenantId(),
    id: id(),
    categoryId: ref('category_id').notNull(),
    name: text('name').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    unitName: text('unit_name').notNull().default(''),
    /** Image addresses, the first is the main image. */
    images: jsonb('images').$type<string[]>().notNull(),
    /** Sanitised rich text. */
    detail: text('detail').notNull().default(''),
    /** Spec dimensions and their values: [{ name: '颜色', values: ['红', '蓝'] }]. */
    specs: jsonb('specs').$type<Array<{ name: string; values: string[] }>>().notNull(),
    onShelf: boolean('on_shelf').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    /** The ERP material this product is, when there is one. */
    materialId: ref('material_id'),
    createdBy: ref('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_product_time_idx').on(t.tenantId, t.createdAt, t.id),
    index('mall_product_category_idx').on(t.tenantId, t.categoryId),
    index('mall_product_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [mallCategory.tenantId, mallCategory.id], name: 'mall_product_category_fk' }),
    tenantPolicy('mall_product'),
  ],
).enableRLS();

/** A SKU: one combination of the product's spec values, with its own price and stock. */
export const mallSku = pgTable(
  'mall_sku',
  {
    tenantId: tenantId(),
    id: id(),
    productId: ref('product_id').notNull(),
    /** One value per spec of the product, in the specs' order. */
    specValues: jsonb('spec_values').$type<string[]>().notNull(),
    /** The values joined by U+0001 — the SKU's identity within its product. */
    specKey: text('spec_key').notNull(),
    price: money('price').notNull(),
    marketPrice: money('market_price').notNull().default(0),
    costPrice: money('cost_price').notNull().default(0),
    stock: integer('stock').notNull().default(0),
    sales: integer('sales').notNull().default(0),
    code: text('code').notNull().default(''),
    image: text('image').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mall_sku_spec_uq').on(t.tenantId, t.productId, t.specKey),
    foreignKey({ columns: [t.tenantId, t.productId], foreignColumns: [mallProduct.tenantId, mallProduct.id], name: 'mall_sku_product_fk' }).onDelete('cascade'),
    check('mall_sku_stock_not_negative', sql`${t.stock} >= 0`),
    tenantPolicy('mall_sku'),
  ],
).enableRLS();

/** An order: its own status and, beside it, the status of a refund. */
export const mallOrder = pgTable(
  'mall_order',
  {
    tenantId: tenantId(),
    id: id(),
    orderNo: text('order_no').notNull(),
    /** mall | proxy (placed by staff for the customer) */
    source: text('source').notNull(),
    customerId: ref('customer_id'),
    customerName: text('customer_name').notNull().default(''),
    consignee: text('consignee').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    /** PendingPayment | Paid | Shipped | Completed | Cancelled | Refunded */
    status: text('status').notNull(),
    /** None | Requested | Approved | Refused | Refunded */
    refundStatus: text('refund_status').notNull().default('None'),
    goodsAmount: money('goods_amount').notNull(),
    freightAmount: money('freight_amount').notNull().default(0),
    discountAmount: money('discount_amount').notNull().default(0),
    payAmount: money('pay_amount').notNull(),
    itemCount: integer('item_count').notNull(),
    firstItemName: text('first_item_name').notNull().default(''),
    firstItemImage: text('first_item_image').notNull().default(''),
    payType: text('pay_type'),
    buyerRemark: text('buyer_remark').notNull().default(''),
    adminRemark: text('admin_remark').notNull().default(''),
    logisticsCompany: text('logistics_company').notNull().default(''),
    logisticsNo: text('logistics_no').notNull().default(''),
    refundAmount: money('refund_amount').notNull().default(0),
    refundReason: text('refund_reason').notNull().default(''),
    refuseReason: text('refuse_reason').notNull().default(''),
    cancelReason: text('cancel_reason').notNull().default(''),
    createdBy: ref('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    /** The placing staff member's department (a proxy order); none for an order the customer placed (data scope, docs/decisions.md). */
    ownerDeptId: ref('owner_dept_id'),
    createdAt: createdAt(),
    paidAt: at('paid_at'),
    shippedAt: at('shipped_at'),
    completedAt: at('completed_at'),
    cancelledAt: at('cancelled_at'),
    refundedAt: at('refunded_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mall_order_no_uq').on(t.tenantId, t.orderNo),
    index('mall_order_time_idx').on(t.tenantId, t.createdAt, t.id),
    index('mall_order_status_idx').on(t.tenantId, t.status, t.createdAt, t.id),
    index('mall_order_refund_idx').on(t.tenantId, t.refundStatus, t.createdAt, t.id),
    index('mall_order_source_idx').on(t.tenantId, t.source, t.createdAt, t.id),
    index('mall_order_customer_idx').on(t.tenantId, t.customerId),
    tenantPolicy('mall_order'),
  ],
).enableRLS();

/** An order's lines: what was bought, as it was at the time of the order. */
export const mallOrderItem = pgTable(
  'mall_order_item',
  {
    tenantId: tenantId(),
    id: id(),
    orderId: ref('order_id').notNull(),
    productId: ref('product_id').notNull(),
    skuId: ref('sku_id').notNull(),
    productName: text('product_name').notNull(),
    specValues: jsonb('spec_values').$type<string[]>().notNull(),
    image: text('image').notNull().default(''),
    price: money('price').notNull(),
    quantity: integer('quantity').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_order_item_order_idx').on(t.tenantId, t.orderId),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [mallOrder.tenantId, mallOrder.id], name: 'mall_order_item_order_fk' }).onDelete('cascade'),
    tenantPolicy('mall_order_item'),
  ],
).enableRLS();

/** An order's timeline: every transition, who made it and why. */
export const mallOrderLog = pgTable(
  'mall_order_log',
  {
    tenantId: tenantId(),
    id: id(),
    orderId: ref('order_id').notNull(),
    /** create | pay | ship | complete | cancel | refund_apply | refund_approve | refund_refuse | refund_confirm | remark */
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    remark: text('remark').notNull().default(''),
    operatorId: ref('operator_id'),
    operatorName: text('operator_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_order_log_order_idx').on(t.tenantId, t.orderId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.orderId], foreignColumns: [mallOrder.tenantId, mallOrder.id], name: 'mall_order_log_order_fk' }).onDelete('cascade'),
    tenantPolicy('mall_order_log'),
  ],
).enableRLS();

/** A lottery activity. Its status follows from `enabled` and its time window. */
export const mallLottery = pgTable(
  'mall_lottery',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    startAt: at('start_at').notNull(),
    endAt: at('end_at').notNull(),
    drawLimit: integer('draw_limit').notNull().default(0),
    rule: text('rule').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('mall_lottery_time_idx').on(t.tenantId, t.createdAt, t.id), tenantPolicy('mall_lottery')],
).enableRLS();

/** A prize of an activity; probabilities in hundredths of a percent (10000 = 100 %). */
export const mallLotteryPrize = pgTable(
  'mall_lottery_prize',
  {
    tenantId: tenantId(),
    id: id(),
    lotteryId: ref('lottery_id').notNull(),
    name: text('name').notNull(),
    /** none (the no-prize slot) | goods | points | coupon */
    kind: text('kind').notNull(),
    image: text('image').notNull().default(''),
    probability: integer('probability').notNull(),
    stock: integer('stock').notNull().default(0),
    drawn: integer('drawn').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_lottery_prize_lottery_idx').on(t.tenantId, t.lotteryId, t.sort),
    foreignKey({ columns: [t.tenantId, t.lotteryId], foreignColumns: [mallLottery.tenantId, mallLottery.id], name: 'mall_lottery_prize_lottery_fk' }).onDelete('cascade'),
    check('mall_lottery_prize_stock_not_negative', sql`${t.stock} >= 0`),
    tenantPolicy('mall_lottery_prize'),
  ],
).enableRLS();

/** One draw: who drew, what came out (the no-prize slot too). */
export const mallLotteryRecord = pgTable(
  'mall_lottery_record',
  {
    tenantId: tenantId(),
    id: id(),
    lotteryId: ref('lottery_id').notNull(),
    prizeId: ref('prize_id').notNull(),
    prizeName: text('prize_name').notNull(),
    prizeKind: text('prize_kind').notNull(),
    won: boolean('won').notNull(),
    customerId: ref('customer_id').notNull(),
    customerName: text('customer_name').notNull().default(''),
    operatorName: text('operator_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_lottery_record_lottery_idx').on(t.tenantId, t.lotteryId, t.createdAt, t.id),
    index('mall_lottery_record_customer_idx').on(t.tenantId, t.lotteryId, t.customerId),
    tenantPolicy('mall_lottery_record'),
  ],
).enableRLS();

/** What customers tell the shop, and the shop's reply. */
export const mallFeedback = pgTable(
  'mall_feedback',
  {
    tenantId: tenantId(),
    id: id(),
    customerId: ref('customer_id'),
    contactName: text('contact_name').notNull().default(''),
    contactPhone: text('contact_phone').notNull().default(''),
    /** suggestion | complaint | product | logistics | other */
    type: text('type').notNull(),
    content: text('content').notNull(),
    images: jsonb('images').$type<string[]>().notNull(),
    /** Pending | Replied | Closed */
    status: text('status').notNull().default('Pending'),
    reply: text('reply').notNull().default(''),
    repliedBy: ref('replied_by'),
    replierName: text('replier_name').notNull().default(''),
    repliedAt: at('replied_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mall_feedback_time_idx').on(t.tenantId, t.createdAt, t.id),
    index('mall_feedback_status_idx').on(t.tenantId, t.status, t.createdAt, t.id),
    tenantPolicy('mall_feedback'),
  ],
).enableRLS();
