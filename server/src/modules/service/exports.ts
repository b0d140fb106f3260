import type { ServiceOrderRow, ServiceOrderStatus } from '@p8/contract/service';
import { exportTime as time, type ListExportColumn } from '../../core/list-export.ts';

/** The columns of the service order lists' export (all, mine, proxy), titled as their screens are. */

const STATUS: Record<ServiceOrderStatus, { zh: string; en: string }> = {
  PendingDispatch: { zh: '待派单', en: 'To dispatch' },
  PendingAudit: { zh: '派单待审核', en: 'Dispatch in review' },
  PendingService: { zh: '待服务', en: 'To serve' },
  InService: { zh: '服务中', en: 'In service' },
  Completed: { zh: '已完成', en: 'Completed' },
  Cancelled: { zh: '已取消', en: 'Cancelled' },
};
const SOURCE: Record<ServiceOrderRow['source'], { zh: string; en: string }> = { online: { zh: '客户下单', en: 'Customer' }, proxy: { zh: '代客下单', en: 'Proxy' } };

export const serviceOrderExportColumns: Array<ListExportColumn<ServiceOrderRow>> = [
  { prop: 'orderNo', title: { zh: '订单号', en: 'Order no.' }, width: 20 },
  { prop: 'status', title: { zh: '状态', en: 'Status' }, value: (row, lang) => STATUS[row.status][lang] },
  { prop: 'source', title: { zh: '来源', en: 'Source' }, value: (row, lang) => SOURCE[row.source][lang] },
  { prop: 'serviceName', title: { zh: '服务项目', en: 'Service' }, width: 24 },
  { prop: 'customerName', title: { zh: '客户姓名', en: 'Customer' }, width: 14 },
  { prop: 'customerPhone', title: { zh: '客户电话', en: 'Phone' }, width: 14 },
  { prop: 'address', title: { zh: '服务地址', en: 'Address' }, width: 36 },
  { prop: 'amount', title: { zh: '金额', en: 'Amount' } },
  { prop: 'appointmentDate', title: { zh: '预约日期', en: 'Appointment' }, width: 12 },
  { prop: 'slotTime', title: { zh: '预约时段', en: 'Slot' }, width: 12 },
  { prop: 'staffName', title: { zh: '服务人员', en: 'Staff' }, width: 14 },
  { prop: 'createdByName', title: { zh: '下单人', en: 'Placed by' }, width: 14 },
  { prop: 'createdAt', title: { zh: '下单时间', en: 'Placed at' }, width: 20, value: (row) => time(row.createdAt) },
  { prop: 'completedAt', title: { zh: '完成时间', en: 'Completed at' }, width: 20, value: (row) => time(row.completedAt) },
  { prop: 'cancelReason', title: { zh: '取消原因', en: 'Cancel reason' }, width: 24 },
];
