import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MallOrderStatus, MallRefundStatus } from '@p8/contract/mall';

export const STATUS_COLOR: Record<MallOrderStatus, string> = {
  PendingPayment: 'orange',
  Paid: 'blue',
  Shipped: 'cyan',
  Completed: 'green',
  Cancelled: 'default',
  Refunded: 'magenta',
};
const REFUND_COLOR: Record<MallRefundStatus, string> = { None: 'default', Requested: 'red', Approved: 'volcano', Refused: 'default', Refunded: 'magenta' };

export function OrderStatusTag({ status }: { status: MallOrderStatus }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.order' });
  return <Tag color={STATUS_COLOR[status]}>{t(`statuses.${status}`)}</Tag>;
}

/**
 * The refund's status, nothing while there is none — nor beside an order whose own status already says
 * Refunded (`orderStatus`: the tag shown next to the order's, which would read 已退款 twice).
 */
export function RefundStatusTag({ status, orderStatus }: { status: MallRefundStatus; orderStatus?: MallOrderStatus }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.order' });
  if (status === 'None' || (status === 'Refunded' && orderStatus === 'Refunded')) return null;
  return <Tag color={REFUND_COLOR[status]}>{t(`refundStatuses.${status}`)}</Tag>;
}
