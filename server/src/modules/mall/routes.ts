import { z } from 'zod';
import { enableSchema, idParamsSchema, idSchema, idsSchema } from '@p8/contract/common';
import {
  mallCategoryCreateSchema,
  mallCategoryUpdateSchema,
  mallFeedbackCreateSchema,
  mallFeedbackReplySchema,
  mallFeedbackStatusSchema,
  mallLotteryCreateSchema,
  mallLotteryDrawSchema,
  mallLotteryUpdateSchema,
  mallOrderCreateSchema,
  mallOrderPaySchema,
  mallOrderReasonSchema,
  mallOrderRefundApplySchema,
  mallOrderRemarkSchema,
  mallOrderShipSchema,
  mallProductCreateSchema,
  mallProductUpdateSchema,
  mallShelvesSchema,
} from '@p8/contract/mall';
import { recordRoutes } from '../../core/record-routes.ts';
import { listExportRoute, wholeList } from '../../core/list-export.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { heldBy, type RecordUsage } from '../../core/record-usage.ts';
import { route, type ServerModule } from '../../core/route.ts';
import { mallFeedback, mallLotteryRecord, mallOrder, mallProduct } from '../../db/schema/index.ts';
import { mallDashboard } from './dashboard.ts';
import { categoryExportColumns, feedbackExportColumns, lotteryExportColumns, lotteryRecordExportColumns, orderExportColumns, productExportColumns } from './exports.ts';
import { categoryExportRows, categoryTree, createCategory, deleteCategories, enableCategories, getCategory, listCategories, updateCategory } from './category.ts';
import { createFeedback, deleteFeedback, getFeedback, listFeedback, replyFeedback, setFeedbackStatus } from './feedback.ts';
import { createLottery, deleteLotteries, draw, enableLotteries, endLottery, getLottery, listLotteries, listRecords, startLottery, updateLottery } from './lottery.ts';
import {
  applyRefund,
  approveRefund,
  cancelOrder,
  completeOrder,
  confirmRefund,
  createOrder,
  getOrder,
  listOrders,
  orderCounts,
  payOrder,
  refuseRefund,
  remarkOrder,
  shipOrder,
} from './order.ts';
import { createProduct, deleteProducts, getProduct, listProducts, listSkuOptions, setShelves, updateProduct } from './product.ts';

/** The mall's routes, under /api/admin/mall/…, each write behind its button code `mall_<screen>_<action>`. */

const BASE = '/api/admin/mall';
const idBody = z.object({ id: idSchema });
const tags = ['mall'];

const CATEGORY = `${BASE}/category`;
const categoryRoutes = [
  ...recordRoutes({
    area: 'mall',
    record: 'category',
    entity: 'mall-category',
    readers: { tree: ['mall_product'] },
    createSchema: mallCategoryCreateSchema,
    updateSchema: mallCategoryUpdateSchema,
    list: listCategories,
    detail: getCategory,
    create: createCategory,
    update: updateCategory,
    remove: deleteCategories,
    enable: enableCategories,
    tree: categoryTree,
  }),
  // The tree in its order, filtered as the screen filters it (name, enabled).
  listExportRoute({
    url: CATEGORY, tags, noun: 'product category', permission: 'mall_category_export', list: async (ctx, query) => wholeList(await categoryExportRows(ctx, query)),
    columns: categoryExportColumns, filename: { zh: '商品分类', en: 'product-categories' },
  }),
];

const PRODUCT = `${BASE}/product`;
const productRoutes = [
  route({
    method: 'GET', url: PRODUCT, permission: 'mall_product', tags, summary: 'Products, paged: name, categoryId (with its sub-categories), onShelf, start/end',
    query: listQuerySchema, page: true, handler: (ctx, { query }) => listProducts(ctx, query),
  }),
  route({
    method: 'GET', url: `${PRODUCT}/sku`, picker: ['mall_proxyOrder'], tags, summary: 'SKUs of the products on the shelf (for an order): name, code, productId',
    query: listQuerySchema, page: true, handler: (ctx, { query }) => listSkuOptions(ctx, query),
  }),
  route({ method: 'GET', url: `${PRODUCT}/:id`, permission: 'mall_product', tags, summary: 'A product with its specs and SKUs', params: idParamsSchema, handler: (ctx, { params }) => getProduct(ctx, params.id) }),
  route({
    method: 'POST', url: PRODUCT, tags, summary: 'Create a product with its SKUs', permission: 'mall_product_add', body: mallProductCreateSchema,
    handler: (ctx, { body }) => createProduct(ctx, body),
  }),
  route({
    method: 'PUT', url: PRODUCT, tags, summary: 'Update a product; SKUs matched by their spec values', permission: 'mall_product_update', body: mallProductUpdateSchema,
    handler: (ctx, { body }) => updateProduct(ctx, body),
  }),
  route({
    method: 'DELETE', url: PRODUCT, tags, summary: 'Delete products (off the shelf only)', permission: 'mall_product_delete', body: idsSchema,
    handler: (ctx, { body }) => deleteProducts(ctx, body.ids),
  }),
  route({
    method: 'PUT', url: `${PRODUCT}/shelves`, tags, summary: 'Put products on the shelf or take them off', permission: 'mall_product_shelves', body: mallShelvesSchema,
    handler: (ctx, { body }) => setShelves(ctx, body.ids, body.onShelf),
  }),
  listExportRoute({ url: PRODUCT, tags, noun: 'product', permission: 'mall_product_export', list: listProducts, columns: productExportColumns, filename: { zh: '商品', en: 'products' } }),
];

const ORDER = `${BASE}/order`;
const orderListQuery = listQuerySchema;
const orderRoutes = [
  route({
    method: 'GET', url: ORDER, permission: 'mall_order', tags, summary: 'Orders, paged: tab (a status, Refunding or all), orderNo, consignee, phone, customerName, source, start/end',
    query: orderListQuery, page: true, handler: (ctx, { query }) => listOrders(ctx, query),
  }),
  listExportRoute({ url: ORDER, tags, noun: 'mall order', permission: 'mall_order_export', list: (ctx, query) => listOrders(ctx, query), columns: orderExportColumns, filename: { zh: '商城订单', en: 'mall-orders' } }),
  route({
    method: 'GET', url: `${ORDER}/counts`, permission: 'mall_order', tags, summary: 'Orders per tab (start/end as the list)',
    query: orderListQuery, handler: (ctx, { query }) => orderCounts(ctx, query),
  }),
  route({ method: 'GET', url: `${ORDER}/:id`, permission: 'mall_order|mall_proxyOrder', tags, summary: 'An order with its items and timeline', params: idParamsSchema, handler: (ctx, { params }) => getOrder(ctx, params.id) }),
  route({
    method: 'PUT', url: `${ORDER}/pay`, tags, summary: 'Payment received: PendingPayment → Paid', permission: 'mall_order_pay', body: mallOrderPaySchema,
    handler: (ctx, { body }) => payOrder(ctx, body.id, body.payType).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/ship`, tags, summary: 'Shipped with carrier and tracking number: Paid → Shipped', permission: 'mall_order_ship', body: mallOrderShipSchema,
    handler: (ctx, { body }) => shipOrder(ctx, body.id, body).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/complete`, tags, summary: 'Received: Shipped → Completed', permission: 'mall_order_complete', body: idBody,
    handler: (ctx, { body }) => completeOrder(ctx, body.id).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/cancel`, tags, summary: 'Cancel an unpaid order; its stock goes back', permission: 'mall_order_cancel', body: mallOrderReasonSchema,
    handler: (ctx, { body }) => cancelOrder(ctx, body.id, body.reason).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/refund/apply`, tags, summary: "Record the customer's refund request", permission: 'mall_order_refund', body: mallOrderRefundApplySchema,
    handler: (ctx, { body }) => applyRefund(ctx, body.id, body).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/refund/approve`, tags, summary: 'Agree to a refund: Requested → Approved', permission: 'mall_order_refund_audit', body: mallOrderReasonSchema,
    handler: (ctx, { body }) => approveRefund(ctx, body.id).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/refund/refuse`, tags, summary: 'Refuse a refund: Requested → Refused', permission: 'mall_order_refund_audit', body: mallOrderReasonSchema,
    handler: (ctx, { body }) => refuseRefund(ctx, body.id, body.reason).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/refund/confirm`, tags, summary: 'The money went back: Approved → Refunded; stock goes back', permission: 'mall_order_refund_confirm', body: mallOrderReasonSchema,
    handler: (ctx, { body }) => confirmRefund(ctx, body.id).then(() => getOrder(ctx, body.id)),
  }),
  route({
    method: 'PUT', url: `${ORDER}/remark`, tags, summary: "The shop's remark on an order", permission: 'mall_order_remark', body: mallOrderRemarkSchema,
    handler: (ctx, { body }) => remarkOrder(ctx, body.id, body.remark).then(() => getOrder(ctx, body.id)),
  }),
];

const PROXY = `${BASE}/proxyOrder`;
const proxyRoutes = [
  route({
    method: 'GET', url: PROXY, permission: 'mall_proxyOrder', tags, summary: 'Orders staff placed for customers, paged (the order list filters)',
    query: orderListQuery, page: true, handler: (ctx, { query }) => listOrders(ctx, query, 'proxy'),
  }),
  route({
    method: 'POST', url: PROXY, tags, summary: 'Place an order for a customer: SKUs and quantities, consignee and address', permission: 'mall_proxyOrder_add', body: mallOrderCreateSchema,
    handler: async (ctx, { body }) => getOrder(ctx, (await createOrder(ctx, body, 'proxy')).id),
  }),
  listExportRoute({
    url: PROXY, tags, noun: 'proxy order', permission: 'mall_proxyOrder_export', list: (ctx, query) => listOrders(ctx, query, 'proxy'), columns: orderExportColumns,
    filename: { zh: '代客订单', en: 'proxy-orders' },
  }),
];

const LOTTERY = `${BASE}/lottery`;
const lotteryRoutes = [
  route({
    method: 'GET', url: LOTTERY, permission: 'mall_lottery', tags, summary: 'Lottery activities, paged: name, status (NotStarted | InProgress | Ended | Disabled)',
    query: listQuerySchema, page: true, handler: (ctx, { query }) => listLotteries(ctx, query),
  }),
  route({
    method: 'GET', url: `${LOTTERY}/record`, permission: 'mall_lottery', tags, summary: 'Draw records, paged: lotteryId, customerName, prizeName, won, start/end',
    query: listQuerySchema, page: true, handler: (ctx, { query }) => listRecords(ctx, query),
  }),
  listExportRoute({ url: LOTTERY, tags, noun: 'lottery', permission: 'mall_lottery_export', list: listLotteries, columns: lotteryExportColumns, filename: { zh: '抽奖活动', en: 'lotteries' } }),
  listExportRoute({
    url: `${LOTTERY}/record`, tags, noun: 'draw record', permission: 'mall_lottery_record_export', list: listRecords, columns: lotteryRecordExportColumns,
    filename: { zh: '抽奖记录', en: 'lottery-draws' },
  }),
  route({ method: 'GET', url: `${LOTTERY}/:id`, permission: 'mall_lottery', tags, summary: 'An activity with its prizes', params: idParamsSchema, handler: (ctx, { params }) => getLottery(ctx, params.id) }),
  route({
    method: 'POST', url: LOTTERY, tags, summary: 'Create an activity with its prizes (probabilities add up to 100 %)', permission: 'mall_lottery_add', body: mallLotteryCreateSchema,
    handler: (ctx, { body }) => createLottery(ctx, body),
  }),
  route({
    method: 'PUT', url: LOTTERY, tags, summary: 'Update an activity and its prizes', permission: 'mall_lottery_update', body: mallLotteryUpdateSchema,
    handler: (ctx, { body }) => updateLottery(ctx, body),
  }),
  route({
    method: 'DELETE', url: LOTTERY, tags, summary: 'Delete activities nobody has drawn in', permission: 'mall_lottery_delete', body: idsSchema,
    handler: (ctx, { body }) => deleteLotteries(ctx, body.ids),
  }),
  route({
    method: 'PUT', url: `${LOTTERY}/enable`, tags, summary: 'Enable or disable activities', permission: 'mall_lottery_enable', body: enableSchema,
    handler: (ctx, { body }) => enableLotteries(ctx, body.ids, body.enabled),
  }),
  route({
    method: 'PUT', url: `${LOTTERY}/start`, tags, summary: 'Start an activity now', permission: 'mall_lottery_update', body: idBody,
    handler: (ctx, { body }) => startLottery(ctx, body.id),
  }),
  route({
    method: 'PUT', url: `${LOTTERY}/end`, tags, summary: 'End an activity now', permission: 'mall_lottery_update', body: idBody,
    handler: (ctx, { body }) => endLottery(ctx, body.id),
  }),
  route({
    method: 'POST', url: `${LOTTERY}/draw`, tags, summary: 'Draw for a customer (an in-store event); never more than a prize’s stock', permission: 'mall_lottery_draw', body: mallLotteryDrawSchema,
    handler: (ctx, { body }) => draw(ctx, body.lotteryId, body.customerId),
  }),
];

const FEEDBACK = `${BASE}/feedback`;
const feedbackRoutes = [
  route({
    method: 'GET', url: FEEDBACK, permission: 'mall_feedback', tags, summary: 'Feedback, paged: content, contactName, type, status, start/end',
    query: listQuerySchema, page: true, handler: (ctx, { query }) => listFeedback(ctx, query),
  }),
  listExportRoute({ url: FEEDBACK, tags, noun: 'feedback', permission: 'mall_feedback_export', list: listFeedback, columns: feedbackExportColumns, filename: { zh: '用户反馈', en: 'feedback' } }),
  route({ method: 'GET', url: `${FEEDBACK}/:id`, permission: 'mall_feedback', tags, summary: 'One feedback', params: idParamsSchema, handler: (ctx, { params }) => getFeedback(ctx, params.id) }),
  route({
    method: 'POST', url: FEEDBACK, tags, summary: 'Record feedback received by phone or in person', permission: 'mall_feedback_add', body: mallFeedbackCreateSchema,
    handler: (ctx, { body }) => createFeedback(ctx, body),
  }),
  route({
    method: 'PUT', url: `${FEEDBACK}/reply`, tags, summary: 'Reply to feedback', permission: 'mall_feedback_reply', body: mallFeedbackReplySchema,
    handler: (ctx, { body }) => replyFeedback(ctx, body.id, body.reply),
  }),
  route({
    method: 'PUT', url: `${FEEDBACK}/status`, tags, summary: 'Set the status of feedback (Pending, Replied, Closed)', permission: 'mall_feedback_status', body: mallFeedbackStatusSchema,
    handler: (ctx, { body }) => setFeedbackStatus(ctx, body.ids, body.status),
  }),
  route({
    method: 'DELETE', url: FEEDBACK, tags, summary: 'Delete feedback', permission: 'mall_feedback_delete', body: idsSchema,
    handler: (ctx, { body }) => deleteFeedback(ctx, body.ids),
  }),
];

export const mallRoutes = [...categoryRoutes, ...productRoutes, ...orderRoutes, ...proxyRoutes, ...lotteryRoutes, ...feedbackRoutes];

/** Mall records that name basic records: a material linked to a product, a customer with orders, draws or feedback. */
export function registerMallUsage(usage: RecordUsage) {
  usage.register('material', 'mall: products', heldBy(mallProduct, mallProduct.materialId));
  usage.register('customer', 'mall: orders', heldBy(mallOrder, mallOrder.customerId));
  usage.register('customer', 'mall: lottery draws', heldBy(mallLotteryRecord, mallLotteryRecord.customerId));
  usage.register('customer', 'mall: feedback', heldBy(mallFeedback, mallFeedback.customerId));
}

export const mallModule: ServerModule = {
  name: 'mall',
  routes: mallRoutes,
  register(registries) {
    registerMallUsage(registries.recordUsage);
    registries.dashboard.register(mallDashboard);
  },
};
