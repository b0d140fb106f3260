import { Descriptions, Drawer, Spin, Tag, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { getOrder, type OrderScope } from './api/orders.ts';
import OrderChat from './OrderChat.tsx';
import { STATUS_COLORS } from './status.ts';

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/** An order's detail: its fields, its timeline and the chat on it. */
export default function OrderDrawer({ scope, orderId, onClose }: { scope: OrderScope; orderId: number | null; onClose: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service' });
  const { data: order, isLoading } = useQuery({
    queryKey: ['service-order', scope, orderId],
    queryFn: () => getOrder(scope, orderId!),
    enabled: orderId !== null,
  });
  return (
    <Drawer open={orderId !== null} onClose={onClose} width={720} title={order ? `${t('order.detail')} ${order.orderNo}` : t('order.detail')} destroyOnHidden data-testid="order-drawer">
      {isLoading || !order ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label={t('order.status')}>
              <Tag color={STATUS_COLORS[order.status]} data-testid="order-status">
                {t(`status.${order.status}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('order.source')}>{t(`source.${order.source}`)}</Descriptions.Item>
            <Descriptions.Item label={t('order.serviceName')}>{order.serviceName}</Descriptions.Item>
            <Descriptions.Item label={t('order.amount')}>{order.amount.toFixed(2)}</Descriptions.Item>
            <Descriptions.Item label={t('order.customerName')}>{order.customerName}</Descriptions.Item>
            <Descriptions.Item label={t('order.customerPhone')}>{order.customerPhone}</Descriptions.Item>
            <Descriptions.Item label={t('order.address')} span={2}>
              {order.address}
            </Descriptions.Item>
            <Descriptions.Item label={t('order.appointment')}>{order.appointmentDate ? `${order.appointmentDate} ${order.slotTime ?? ''}` : t('order.noAppointment')}</Descriptions.Item>
            <Descriptions.Item label={t('order.staff')}>{order.staffName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('order.createdBy')}>{order.createdByName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('order.createdAt')}>{time(order.createdAt)}</Descriptions.Item>
            {order.cancelReason && (
              <Descriptions.Item label={t('order.cancelReason')} span={2}>
                {order.cancelReason}
              </Descriptions.Item>
            )}
            {order.remark && (
              <Descriptions.Item label={t('order.remark')} span={2}>
                {order.remark}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            {t('order.timeline')}
          </Typography.Title>
          <Timeline
            items={order.logs.map((log) => ({
              color: log.action === 'cancel' || log.action === 'audit_refuse' ? 'red' : log.action === 'complete' ? 'green' : 'blue',
              children: (
                <div data-testid="order-log">
                  <Typography.Text strong>{t(`action.${log.action}`)}</Typography.Text> → {t(`status.${log.toStatus}`)}
                  <div>
                    <Typography.Text type="secondary">
                      {log.adminName} · {time(log.createdAt)}
                      {log.remark ? ` · ${log.remark}` : ''}
                    </Typography.Text>
                  </div>
                </div>
              ),
            }))}
          />
          <OrderChat orderId={order.id} />
        </>
      )}
    </Drawer>
  );
}
