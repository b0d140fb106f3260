import { useCallback, useMemo, useRef, useState } from 'react';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MallOrderRow } from '@p8/contract/mall';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import OrderActions from '../../../components/Mall/OrderActions.tsx';
import OrderDetail from '../../../components/Mall/OrderDetail.tsx';
import { OrderStatusTag, RefundStatusTag } from '../../../components/Mall/order-tags.tsx';
import { listProxyOrders } from './api/proxy-orders.ts';
import ProxyOrderDialog from './components/proxy-order-dialog.tsx';

/** Mall → proxy orders: the orders staff placed for customers, and placing a new one. */
export default function ProxyOrderPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall' });
  const table = useRef<ProTableAction<MallOrderRow>>(undefined);
  const [placing, setPlacing] = useState(false);
  const [detail, setDetail] = useState<number | null>(null);
  const reload = useCallback(() => table.current?.reload(), []);

  const columns = useMemo<ProColumn<MallOrderRow>[]>(
    () => [
      {
        prop: 'orderNo',
        title: t('order.orderNo'),
        search: true,
        lockSetting: true,
        width: 240,
        // 20 digits, never wrapped (they need more than 215 px in the English font).
        render: (_, row) => (
          <Typography.Link onClick={() => setDetail(row.id)} style={{ whiteSpace: 'nowrap' }}>
            {row.orderNo}
          </Typography.Link>
        ),
      },
      { prop: 'customerName', title: t('order.customer'), search: true, width: 160 },
      { prop: 'firstItemName', title: t('order.goods'), width: 220, ellipsis: true, render: (_, row) => `${row.firstItemName} · ${t('order.itemsN', { count: row.itemCount })}` },
      { prop: 'consignee', title: t('order.consignee'), width: 100 },
      { prop: 'payAmount', title: t('order.payAmount'), valueType: 'amount', width: 110 },
      {
        prop: 'status',
        title: t('order.status'),
        width: 150,
        render: (_, row) => (
          <Space size={2} wrap>
            <OrderStatusTag status={row.status} />
            <RefundStatusTag status={row.refundStatus} orderStatus={row.status} />
          </Space>
        ),
      },
      { prop: 'createdAt', title: t('order.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 260,
        render: (_, row) => <OrderActions order={row} onDone={reload} />,
      },
    ],
    [t, reload],
  );

  return (
    <div data-testid="mall-proxy-order-page">
      <ProTable<MallOrderRow>
        data-testid="proxy-order-table"
        listType="mall_proxyOrder"
        rowKey="id"
        columns={columns}
        request={listProxyOrders}
        actionRef={table}
        toolbar={
          <AddButton record="mall_proxyOrder" onClick={() => setPlacing(true)}>
            {t('proxyOrder.add')}
          </AddButton>
        }
        toolbarRight={<ExportRecordsButton record="mall_proxyOrder" exportPath="/admin/mall/proxyOrder/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <ProxyOrderDialog
        open={placing}
        onClose={() => setPlacing(false)}
        onPlaced={(order) => {
          setPlacing(false);
          reload();
          setDetail(order.id);
        }}
      />
      <OrderDetail id={detail} onClose={() => setDetail(null)} onChanged={reload} />
    </div>
  );
}
