import { useCallback, useMemo, useRef, useState } from 'react';
import { Badge, Button, Image, Space, Tabs, Typography } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryParams } from '../../../app/http.ts';
import { useTranslation } from 'react-i18next';
import { MallOrderSource, MallOrderTab, type MallOrderRow } from '@p8/contract/mall';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import { listOrders, orderCounts } from '../../../components/Mall/api/orders.ts';
import OrderActions from '../../../components/Mall/OrderActions.tsx';
import OrderDetail from '../../../components/Mall/OrderDetail.tsx';
import { OrderStatusTag, RefundStatusTag } from '../../../components/Mall/order-tags.tsx';

/**
 * Mall → orders: tabs by status (and the open refunds) with their counts, the list with what was bought,
 * who for, how much and where it stands, the next steps on each row, and the order detail.
 */
export default function OrderPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.order' });
  const { t: tc } = useTranslation(undefined, { keyPrefix: 'mall.common' });
  const queryClient = useQueryClient();
  const table = useRef<ProTableAction<MallOrderRow>>(undefined);
  const [tab, setTab] = useState<(typeof MallOrderTab)[number]>('all');
  const [detail, setDetail] = useState<number | null>(null);
  // The tabs count the orders of the list's search (every tab but its own condition).
  const [searched, setSearched] = useState<QueryParams | null>(null);
  const counts = useQuery({ queryKey: ['mall', 'order', 'counts', searched], queryFn: () => orderCounts(searched ?? {}), enabled: searched !== null, placeholderData: keepPreviousData });
  const changed = useCallback(() => {
    table.current?.reload();
    void queryClient.invalidateQueries({ queryKey: ['mall', 'order', 'counts'] });
  }, [queryClient]);
  const params = useMemo(() => ({ tab }), [tab]);

  const columns = useMemo<ProColumn<MallOrderRow>[]>(
    () => [
      {
        prop: 'orderNo',
        title: t('orderNo'),
        search: true,
        lockSetting: true,
        width: 240,
        render: (_, row) => (
          <Typography.Link onClick={() => setDetail(row.id)} data-testid={`order-open-${row.id}`} style={{ whiteSpace: 'nowrap' }}>
            {row.orderNo}
          </Typography.Link>
        ),
      },
      {
        prop: 'firstItemName',
        title: t('goods'),
        width: 280,
        render: (_, row) => (
          <Space>
            {row.firstItemImage && <Image src={row.firstItemImage} width={36} height={36} preview={false} style={{ objectFit: 'cover', borderRadius: 4 }} />}
            <div>
              <Typography.Text ellipsis={{ tooltip: row.firstItemName }} style={{ maxWidth: 200 }}>
                {row.firstItemName}
              </Typography.Text>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('itemsN', { count: row.itemCount })}
                </Typography.Text>
              </div>
            </div>
          </Space>
        ),
      },
      { prop: 'customerName', title: t('customer'), search: true, width: 150 },
      { prop: 'consignee', title: t('consignee'), search: true, width: 100 },
      { prop: 'phone', title: t('phone'), search: true, width: 130 },
      { prop: 'payAmount', title: t('payAmount'), valueType: 'amount', sortable: true, width: 110 },
      {
        prop: 'status',
        title: t('status'),
        width: 150,
        render: (_, row) => (
          <Space size={2} wrap>
            <OrderStatusTag status={row.status} />
            <RefundStatusTag status={row.refundStatus} orderStatus={row.status} />
          </Space>
        ),
      },
      {
        prop: 'source',
        title: t('source'),
        width: 100,
        search: true,
        valueEnum: Object.fromEntries(MallOrderSource.map((s) => [s, { text: t(`sources.${s}`), color: s === 'proxy' ? 'purple' : 'blue' }])),
      },
      { prop: 'createdAt', title: t('createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      {
        prop: 'operation',
        title: tc('operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 300,
        render: (_, row) => (
          <Space size={4} wrap>
            <Button type="link" size="small" onClick={() => setDetail(row.id)}>
              {t('detail')}
            </Button>
            <OrderActions order={row} onDone={changed} />
          </Space>
        ),
      },
    ],
    [t, tc, changed],
  );

  return (
    <div data-testid="mall-order-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as typeof tab)}
        items={MallOrderTab.map((key) => ({
          key,
          label: (
            <span data-testid={`order-tab-${key}`}>
              {key === 'all' || key === 'Refunding' ? t(`tabs.${key}`) : t(`statuses.${key}`)}
              <Badge count={counts.data?.[key] ?? 0} overflowCount={9999} showZero={false} color={key === 'Refunding' ? 'red' : '#8c8c8c'} style={{ marginLeft: 6 }} />
            </span>
          ),
        }))}
        style={{ marginBottom: 4 }}
      />
      <ProTable<MallOrderRow>
        data-testid="order-table"
        listType="mall_order"
        rowKey="id"
        columns={columns}
        request={listOrders}
        onFiltersChange={setSearched}
        params={params}
        actionRef={table}
        toolbarRight={<ExportRecordsButton record="mall_order" exportPath="/admin/mall/order/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <OrderDetail id={detail} onClose={() => setDetail(null)} onChanged={changed} />
    </div>
  );
}
