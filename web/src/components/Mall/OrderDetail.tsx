import { useState } from 'react';
import { Button, Card, Descriptions, Drawer, Image, Input, Space, Table, Timeline, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { MallOrder, MallOrderItem } from '@p8/contract/mall';
import Auth from '../Auth/index.tsx';
import { getOrder, orderAction } from './api/orders.ts';
import { discountText, yuan } from './money.ts';
import OrderActions from './OrderActions.tsx';
import { OrderStatusTag, RefundStatusTag } from './order-tags.tsx';

const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '—');

/**
 * The order detail (a drawer over the order lists): status and what can be done next, items, amounts,
 * consignee and address, delivery, remarks (the shop's editable), the refund, and the timeline.
 */
export default function OrderDetail({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.order' });
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['mall', 'order', id], queryFn: () => getOrder(id!), enabled: id !== null });
  const order = query.data;
  const [remark, setRemark] = useState<string | null>(null);

  const changed = (next: MallOrder) => {
    queryClient.setQueryData(['mall', 'order', next.id], next);
    onChanged();
  };
  const saveRemark = async () => {
    if (!order || remark === null) return;
    changed(await orderAction('remark', { id: order.id, remark }));
    setRemark(null);
  };

  return (
    <Drawer open={id !== null} onClose={onClose} width={960} title={order ? `${t('detail')} · ${order.orderNo}` : t('detail')} loading={query.isLoading} data-testid="order-detail">
      {order && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Card size="small">
            <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
              <Space>
                <OrderStatusTag status={order.status} />
                <RefundStatusTag status={order.refundStatus} orderStatus={order.status} />
                <Typography.Text type="secondary">{t(`sources.${order.source}`)}</Typography.Text>
              </Space>
              <OrderActions order={order} onDone={changed} size="middle" />
            </Space>
          </Card>
          <Descriptions size="small" bordered column={3} title={t('detail')}>
            <Descriptions.Item label={t('orderNo')}>
              <Typography.Text copyable>{order.orderNo}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('customer')}>{order.customerName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('payType')}>{order.payType ? t(`payTypes.${order.payType}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('consignee')}>{order.consignee}</Descriptions.Item>
            <Descriptions.Item label={t('phone')}>{order.phone}</Descriptions.Item>
            <Descriptions.Item label={t('createdBy')}>{order.createdByName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('address')} span={3}>
              {order.address}
            </Descriptions.Item>
          </Descriptions>
          <Table<MallOrderItem>
            size="small"
            rowKey="id"
            title={() => <Typography.Text strong>{t('items')}</Typography.Text>}
            pagination={false}
            dataSource={order.items}
            columns={[
              {
                key: 'goods',
                title: t('goods'),
                render: (_, item) => (
                  <Space>
                    {item.image && <Image src={item.image} width={40} height={40} style={{ objectFit: 'cover', borderRadius: 4 }} />}
                    <span>
                      {item.productName}
                      {item.specValues.length > 0 && <Typography.Text type="secondary"> · {item.specValues.join(' / ')}</Typography.Text>}
                    </span>
                  </Space>
                ),
              },
              { key: 'price', title: t('price'), dataIndex: 'price', align: 'right', width: 110, render: yuan },
              { key: 'quantity', title: t('quantity'), dataIndex: 'quantity', align: 'right', width: 80 },
              { key: 'amount', title: t('amount'), dataIndex: 'amount', align: 'right', width: 120, render: yuan },
            ]}
          />
          <Descriptions size="small" bordered column={4} title={t('amounts')}>
            <Descriptions.Item label={t('goodsAmount')}>{yuan(order.goodsAmount)}</Descriptions.Item>
            <Descriptions.Item label={t('freightAmount')}>{yuan(order.freightAmount)}</Descriptions.Item>
            <Descriptions.Item label={t('discountAmount')}>
              <span data-testid="order-discount-amount">{discountText(order.discountAmount)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('payAmount')}>
              <Typography.Text strong type="danger" data-testid="order-pay-amount">
                {yuan(order.payAmount)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Descriptions size="small" bordered column={2} title={t('logistics')}>
            <Descriptions.Item label={t('logisticsCompany')}>{order.logisticsCompany || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('logisticsNo')}>{order.logisticsNo || '—'}</Descriptions.Item>
          </Descriptions>
          <Descriptions size="small" bordered column={1} title={t('remarks')}>
            <Descriptions.Item label={t('buyerRemark')}>{order.buyerRemark || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('adminRemark')}>
              {remark === null ? (
                <Space>
                  <span>{order.adminRemark || '—'}</span>
                  <Auth code="mall_order_remark">
                    <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setRemark(order.adminRemark)} aria-label={t('adminRemark')} />
                  </Auth>
                </Space>
              ) : (
                <Space.Compact style={{ width: '100%' }}>
                  <Input value={remark} maxLength={500} onChange={(e) => setRemark(e.target.value)} onPressEnter={() => void saveRemark()} />
                  <Button type="primary" onClick={() => void saveRemark()}>
                    {t('saveRemark')}
                  </Button>
                </Space.Compact>
              )}
            </Descriptions.Item>
            {/* Not `cancelReason && …`: an empty reason would be an empty row. */}
            {order.cancelReason ? <Descriptions.Item label={t('cancelReason')}>{order.cancelReason}</Descriptions.Item> : null}
          </Descriptions>
          {order.refundStatus !== 'None' && (
            <Descriptions size="small" bordered column={2} title={t('refund')}>
              <Descriptions.Item label={t('refundStatus')}>
                <RefundStatusTag status={order.refundStatus} />
              </Descriptions.Item>
              <Descriptions.Item label={t('refundAmount')}>{yuan(order.refundAmount)}</Descriptions.Item>
              <Descriptions.Item label={t('refundReason')}>{order.refundReason || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('refuseReason')}>{order.refuseReason || '—'}</Descriptions.Item>
            </Descriptions>
          )}
          <Card size="small" title={t('timeline')}>
            <Timeline
              data-testid="order-timeline"
              items={order.logs.map((log) => ({
                key: log.id,
                color: log.action.startsWith('refund') ? 'red' : log.action === 'cancel' ? 'gray' : 'blue',
                children: (
                  <div>
                    <Typography.Text strong>{t(`actions.${log.action}`)}</Typography.Text>
                    <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                      {time(log.createdAt)} · {log.operatorName || '—'}
                    </Typography.Text>
                    {log.remark && <div>{log.remark}</div>}
                  </div>
                ),
              }))}
            />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}
