import type { MallOrderRow, MallOrderStatus, MallProductRow, MallRefundStatus } from '@p8/contract/mall';
import type { ListExportColumn } from '../../core/list-export.ts';

/** The columns of the mall's list exports (product and order lists), titled as their screens are. */

type Texts<K extends string> = Record<K, { zh: string; en: string }>;

const ORDER_STATUS: Texts<MallOrderStatus> = {
  PendingPayment: { zh: '待付款', en: 'Awaiting payment' },
  Paid: { zh: '待发货', en: 'To ship' },
  Shipped: { zh: '待收货', en: 'Shipped' },
  Completed: { zh: '已完成', en: 'Completed' },
  Cancelled: { zh: '已取消', en: 'Cancelled' },
  Refunded: { zh: '已退款', en: 'Refunded' },
};
const REFUND_STATUS: Texts<MallRefundStatus> = {
  None: { zh: '无', en: 'None' },
  Requested: { zh: '退款申请中', en: 'Refund requested' },
  Approved: { zh: '已同意退款', en: 'Refund approved' },
  Refused: { zh: '已拒绝退款', en: 'Refund refused' },
  Refunded: { zh: '已退款', en: 'Refunded' },
};
const SOURCE: Texts<MallOrderRow['source']> = { mall: { zh: '商城', en: 'Shop' }, proxy: { zh: '代客下单', en: 'Proxy' } };

const time = (value: string | null) => (value ? new Date(value) : null);

export const productExportColumns: Array<ListExportColumn<MallProductRow>> = [
  { prop: 'name', title: { zh: '商品名称', en: 'Name' }, width: 30 },
  { prop: 'subtitle', title: { zh: '副标题', en: 'Subtitle' }, width: 30 },
  { prop: 'categoryName', title: { zh: '分类', en: 'Category' }, width: 16 },
  { prop: 'unitName', title: { zh: '单位', en: 'Unit' } },
  { prop: 'minPrice', title: { zh: '最低价', en: 'Lowest price' } },
  { prop: 'maxPrice', title: { zh: '最高价', en: 'Highest price' } },
  { prop: 'stock', title: { zh: '库存', en: 'Stock' } },
  { prop: 'sales', title: { zh: '销量', en: 'Sold' } },
  { prop: 'skuCount', title: { zh: 'SKU 数', en: 'SKUs' } },
  { prop: 'onShelf', title: { zh: '上架状态', en: 'Shelf status' }, value: (row, lang) => (row.onShelf ? { zh: '已上架', en: 'On shelf' } : { zh: '已下架', en: 'Off shelf' })[lang] },
  { prop: 'materialName', title: { zh: 'ERP 物料', en: 'ERP material' }, width: 20 },
  { prop: 'sort', title: { zh: '排序', en: 'Order' } },
  { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => time(row.createdAt) },
];

export const orderExportColumns: Array<ListExportColumn<MallOrderRow>> = [
  { prop: 'orderNo', title: { zh: '订单号', en: 'Order no.' }, width: 24 },
  { prop: 'source', title: { zh: '来源', en: 'Source' }, value: (row, lang) => SOURCE[row.source][lang] },
  { prop: 'status', title: { zh: '订单状态', en: 'Status' }, value: (row, lang) => ORDER_STATUS[row.status][lang] },
  { prop: 'refundStatus', title: { zh: '退款状态', en: 'Refund' }, value: (row, lang) => REFUND_STATUS[row.refundStatus][lang] },
  { prop: 'customerName', title: { zh: '客户', en: 'Customer' }, width: 16 },
  { prop: 'consignee', title: { zh: '收货人', en: 'Consignee' }, width: 12 },
  { prop: 'phone', title: { zh: '电话', en: 'Phone' }, width: 14 },
  { prop: 'firstItemName', title: { zh: '商品', en: 'Goods' }, width: 30 },
  { prop: 'itemCount', title: { zh: '件数', en: 'Items' } },
  { prop: 'goodsAmount', title: { zh: '商品金额', en: 'Goods amount' } },
  { prop: 'freightAmount', title: { zh: '运费', en: 'Shipping' } },
  { prop: 'discountAmount', title: { zh: '优惠', en: 'Discount' } },
  { prop: 'payAmount', title: { zh: '实付金额', en: 'Paid' } },
  { prop: 'createdAt', title: { zh: '下单时间', en: 'Placed at' }, width: 20, value: (row) => time(row.createdAt) },
  { prop: 'paidAt', title: { zh: '付款时间', en: 'Paid at' }, width: 20, value: (row) => time(row.paidAt) },
];
