import type {
  MallFeedback,
  MallFeedbackStatus,
  MallFeedbackType,
  MallLotteryRecord,
  MallLotteryRow,
  MallLotteryStatus,
  MallOrderRow,
  MallOrderStatus,
  MallPrizeKind,
  MallProductRow,
  MallRefundStatus,
} from '@p8/contract/mall';
import { enabledColumn, exportTime as time, type ListExportColumn } from '../../core/list-export.ts';
import type { MallCategoryExportRow } from './category.ts';

/** The columns of the mall's list exports, titled as their screens are. */

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

export const categoryExportColumns: Array<ListExportColumn<MallCategoryExportRow>> = [
  { prop: 'name', title: { zh: '分类名称', en: 'Name' }, width: 20 },
  { prop: 'path', title: { zh: '分类路径', en: 'Path' }, width: 30 },
  { prop: 'level', title: { zh: '层级', en: 'Level' }, value: (row, lang) => (row.level === 1 ? { zh: '一级', en: 'Top' } : { zh: '二级', en: 'Sub' })[lang] },
  { prop: 'productCount', title: { zh: '商品数', en: 'Products' } },
  { prop: 'sort', title: { zh: '排序', en: 'Order' } },
  enabledColumn(),
  { prop: 'icon', title: { zh: '图标', en: 'Icon' }, width: 40 },
  { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => time(row.createdAt) },
];

const LOTTERY_STATUS: Texts<MallLotteryStatus> = {
  NotStarted: { zh: '未开始', en: 'Not started' },
  InProgress: { zh: '进行中', en: 'In progress' },
  Ended: { zh: '已结束', en: 'Ended' },
  Disabled: { zh: '已禁用', en: 'Disabled' },
};
const PRIZE_KIND: Texts<MallPrizeKind> = { none: { zh: '未中奖', en: 'No prize' }, goods: { zh: '实物', en: 'Goods' }, points: { zh: '积分', en: 'Points' }, coupon: { zh: '优惠券', en: 'Coupon' } };

export const lotteryExportColumns: Array<ListExportColumn<MallLotteryRow>> = [
  { prop: 'name', title: { zh: '活动名称', en: 'Name' }, width: 24 },
  { prop: 'status', title: { zh: '状态', en: 'Status' }, value: (row, lang) => LOTTERY_STATUS[row.status][lang] },
  { prop: 'startAt', title: { zh: '开始时间', en: 'Starts' }, width: 20, value: (row) => time(row.startAt) },
  { prop: 'endAt', title: { zh: '结束时间', en: 'Ends' }, width: 20, value: (row) => time(row.endAt) },
  { prop: 'drawLimit', title: { zh: '每人次数', en: 'Draws each' }, value: (row, lang) => row.drawLimit || { zh: '不限', en: 'No limit' }[lang] },
  { prop: 'prizeCount', title: { zh: '奖项数', en: 'Prizes' } },
  { prop: 'drawCount', title: { zh: '抽奖次数', en: 'Draws' } },
  { prop: 'winCount', title: { zh: '中奖次数', en: 'Wins' } },
  { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => time(row.createdAt) },
];

export const lotteryRecordExportColumns: Array<ListExportColumn<MallLotteryRecord>> = [
  { prop: 'lotteryName', title: { zh: '活动名称', en: 'Lottery' }, width: 24 },
  { prop: 'customerName', title: { zh: '客户', en: 'Customer' }, width: 16 },
  { prop: 'prizeName', title: { zh: '奖品', en: 'Prize' }, width: 20 },
  { prop: 'prizeKind', title: { zh: '类型', en: 'Kind' }, value: (row, lang) => PRIZE_KIND[row.prizeKind][lang] },
  { prop: 'won', title: { zh: '是否中奖', en: 'Won' }, value: (row, lang) => (row.won ? { zh: '中奖', en: 'Won' } : { zh: '未中奖', en: 'No prize' })[lang] },
  { prop: 'operatorName', title: { zh: '操作员', en: 'Operator' }, width: 12 },
  { prop: 'createdAt', title: { zh: '抽奖时间', en: 'Drawn at' }, width: 20, value: (row) => time(row.createdAt) },
];

const FEEDBACK_TYPE: Texts<MallFeedbackType> = {
  suggestion: { zh: '建议', en: 'Suggestion' },
  complaint: { zh: '投诉', en: 'Complaint' },
  product: { zh: '商品问题', en: 'Product' },
  logistics: { zh: '物流问题', en: 'Delivery' },
  other: { zh: '其他', en: 'Other' },
};
const FEEDBACK_STATUS: Texts<MallFeedbackStatus> = { Pending: { zh: '待处理', en: 'Pending' }, Replied: { zh: '已回复', en: 'Replied' }, Closed: { zh: '已关闭', en: 'Closed' } };

export const feedbackExportColumns: Array<ListExportColumn<MallFeedback>> = [
  { prop: 'type', title: { zh: '类型', en: 'Type' }, value: (row, lang) => FEEDBACK_TYPE[row.type][lang] },
  { prop: 'content', title: { zh: '反馈内容', en: 'Feedback' }, width: 40 },
  { prop: 'customerName', title: { zh: '客户', en: 'Customer' }, width: 16 },
  { prop: 'contactName', title: { zh: '联系人', en: 'Contact' }, width: 12 },
  { prop: 'contactPhone', title: { zh: '联系电话', en: 'Phone' }, width: 14 },
  { prop: 'status', title: { zh: '状态', en: 'Status' }, value: (row, lang) => FEEDBACK_STATUS[row.status][lang] },
  { prop: 'reply', title: { zh: '回复内容', en: 'Reply' }, width: 40 },
  { prop: 'replierName', title: { zh: '回复人', en: 'Replied by' }, width: 12 },
  { prop: 'repliedAt', title: { zh: '回复时间', en: 'Replied at' }, width: 20, value: (row) => time(row.repliedAt) },
  { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => time(row.createdAt) },
];
