import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { App, Badge, Button, Space, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServiceOrderStatus, type ServiceOrderCounts, type ServiceOrderRow } from '@p8/contract/service';
import type { QueryParams } from '../../app/http.ts';
import { useAuth } from '../Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../ProTable/index.tsx';
import { ExportRecordsButton } from '../RecordKit/RecordToolbar.tsx';
import { completeOrder, countOrders, listOrders, startOrder, type OrderScope } from './api/orders.ts';
import OrderActionDialog, { type OrderAction } from './OrderActionDialog.tsx';
import OrderDrawer from './OrderDrawer.tsx';
import { STATUS_COLORS } from './status.ts';

type Tab = 'all' | ServiceOrderStatus;

/**
 * A service-order list with status tabs and their counts, the steps the caller may take on each row, and
 * the detail drawer with the chat. `scope` picks the list: all orders, mine, or proxy orders.
 */
export default function ServiceOrderList({ scope, toolbar, reloadKey = 0 }: { scope: OrderScope; toolbar?: ReactNode; reloadKey?: number }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service' });
  const { message } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<ServiceOrderRow>>(undefined);
  const [tab, setTab] = useState<Tab>('all');
  const [counts, setCounts] = useState<ServiceOrderCounts | null>(null);
  const [opened, setOpened] = useState<number | null>(null);
  const [acting, setActing] = useState<{ action: OrderAction; order: ServiceOrderRow } | null>(null);

  // The tabs count the orders of the list's search (every status but its own filter).
  const [searched, setSearched] = useState<QueryParams | null>(null);
  const refreshCounts = useCallback(() => {
    if (searched) void countOrders(scope, searched).then(setCounts).catch(() => {});
  }, [scope, searched]);
  const reload = useCallback(() => {
    table.current?.reload();
    refreshCounts();
  }, [refreshCounts]);
  useEffect(() => {
    if (reloadKey) reload();
  }, [reloadKey, reload]);
  useEffect(refreshCounts, [refreshCounts]);

  const request = useCallback((params: QueryParams) => listOrders(scope, tab === 'all' ? params : { ...params, status: tab }), [scope, tab]);

  const step = async (run: () => Promise<unknown>, done: string) => {
    await run();
    message.success(done);
    reload();
  };

  const statusEnum = useMemo(() => Object.fromEntries(ServiceOrderStatus.map((s) => [s, { text: t(`status.${s}`), color: STATUS_COLORS[s] }])), [t]);

  const actions = (row: ServiceOrderRow) => {
    const buttons: ReactNode[] = [];
    const link = (key: string, label: string, onClick: () => void, danger = false) => (
      <Button key={key} type="link" size="small" danger={danger} onClick={onClick} data-testid={`order-${key}-${row.id}`}>
        {label}
      </Button>
    );
    buttons.push(link('view', t('order.view'), () => setOpened(row.id)));
    if (scope !== 'myOrder') {
      if ((row.status === 'PendingDispatch' || row.status === 'PendingService') && can('service_order_dispatch'))
        buttons.push(link('dispatch', row.status === 'PendingService' ? t('action.redispatch') : t('action.dispatch'), () => setActing({ action: 'dispatch', order: row })));
      if (row.status === 'PendingAudit' && can('service_order_audit')) buttons.push(link('audit', t('action.audit'), () => setActing({ action: 'audit', order: row })));
      if (['PendingDispatch', 'PendingAudit', 'PendingService'].includes(row.status) && can('service_order_cancel'))
        buttons.push(link('cancel', t('action.cancel'), () => setActing({ action: 'cancel', order: row }), true));
    } else {
      if (row.status === 'PendingService' && can('service_myOrder_start')) buttons.push(link('start', t('action.start'), () => void step(() => startOrder({ id: row.id }), t('done.start'))));
      if (row.status === 'InService' && can('service_myOrder_complete')) buttons.push(link('complete', t('action.complete'), () => void step(() => completeOrder({ id: row.id }), t('done.complete'))));
    }
    return <Space size={0}>{buttons}</Space>;
  };

  const columns: ProColumn<ServiceOrderRow>[] = [
    { prop: 'orderNo', title: t('order.orderNo'), search: true, sortable: true, width: 170, lockSetting: true },
    { prop: 'status', title: t('order.status'), width: 110, render: (v) => <Tag color={STATUS_COLORS[v as ServiceOrderStatus]}>{t(`status.${String(v)}`)}</Tag>, valueEnum: statusEnum },
    { prop: 'serviceName', title: t('order.serviceName'), search: true, width: 150, ellipsis: true },
    { prop: 'customerName', title: t('order.customerName'), search: true, width: 110 },
    { prop: 'customerPhone', title: t('order.customerPhone'), search: true, width: 130 },
    { prop: 'address', title: t('order.address'), width: 220, ellipsis: true },
    { prop: 'appointmentDate', title: t('order.appointment'), width: 170, render: (_v, row) => (row.appointmentDate ? `${row.appointmentDate} ${row.slotTime ?? ''}` : '—') },
    { prop: 'staffName', title: t('order.staff'), width: 110, render: (v) => (v ? String(v) : '—') },
    { prop: 'amount', title: t('order.amount'), valueType: 'amount', width: 110, sortable: true },
    { prop: 'source', title: t('order.source'), width: 100, render: (v) => t(`source.${String(v)}`) },
    { prop: 'createdAt', title: t('order.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
    { prop: 'actions', title: t('order.actions'), width: 220, fixed: 'right', render: (_v, row) => actions(row) },
  ];

  const tabLabel = (key: Tab) => (
    <span data-testid={`order-tab-${key}`}>
      {key === 'all' ? t('status.all') : t(`status.${key}`)} <Badge count={counts?.[key] ?? 0} showZero color={key === 'all' ? 'blue' : 'gray'} overflowCount={99999} />
    </span>
  );

  return (
    <div className={`p8-service-${scope}`}>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as Tab)} items={(['all', ...ServiceOrderStatus] as Tab[]).map((key) => ({ key, label: tabLabel(key) }))} />
      <ProTable<ServiceOrderRow>
        key={tab}
        data-testid="service-order-table"
        listType={`service_${scope}`}
        rowKey="id"
        columns={columns}
        request={request}
        onFiltersChange={setSearched}
        actionRef={table}
        toolbar={toolbar}
        toolbarRight={
          <ExportRecordsButton
            record={`service_${scope}`}
            exportPath={`/admin/service/${scope}/export`}
            exportParams={() => ({ ...(table.current?.getFilterParams() ?? {}), ...(tab === 'all' ? {} : { status: tab }) })}
          />
        }
      />
      <OrderDrawer scope={scope} orderId={opened} onClose={() => setOpened(null)} />
      <OrderActionDialog action={acting?.action ?? null} order={acting?.order ?? null} onClose={() => setActing(null)} onDone={reload} />
    </div>
  );
}
