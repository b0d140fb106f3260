import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import { pickPartners } from '../../../components/Pickers/api/pick-partners.ts';

interface StatementRow {
  customerId: number;
  customerName: string;
  materialId: number;
  materialCode: string;
  materialName: string;
  opening: string;
  received: string;
  consumed: string;
  returned: string;
  other: string;
  closing: string;
  orders: string | null;
}

const PATH = '/admin/production/entrustStatement';

/**
 * The statement of customers' own materials (受托加工材料对账): per customer and material, for a period, what its
 * consignment warehouses held at the start, received, consumed into production orders (named), returned to the
 * customer, moved otherwise and hold at the end (GET /admin/production/entrustStatement).
 */
export default function EntrustedMaterialsStatement() {
  const { t } = useTranslation(undefined, { keyPrefix: 'production.entrustStatement' });
  const can = useAuth();
  const customers = useQuery({ queryKey: ['entrust-customers'], queryFn: () => pickPartners('customer', { current: 1, pageSize: 100 }), staleTime: 60_000 });
  const customerOptions = useMemo(() => (customers.data?.data ?? []).map((c) => ({ value: c.id, label: c.name })), [customers.data]);
  const columns = useMemo<ProColumn<StatementRow>[]>(
    () => [
      { prop: 'period', title: t('period'), hideInTable: true, search: { type: 'dateRange', rangeKeys: ['startDate', 'endDate'], order: 0 } },
      { prop: 'customerId', title: t('customer'), hideInTable: true, search: { type: 'select', options: customerOptions, order: 1 } },
      { prop: 'keyword', title: t('keyword'), hideInTable: true, search: { placeholder: t('keywordHint'), order: 2 } },
      { prop: 'customerName', title: t('customer'), width: 160, sortable: true, lockSetting: true },
      { prop: 'materialCode', title: t('materialCode'), width: 130, sortable: true },
      { prop: 'materialName', title: t('materialName'), width: 160 },
      { prop: 'specification', title: t('specification'), width: 120 },
      { prop: 'unitName', title: t('unit'), width: 70 },
      { prop: 'opening', title: t('opening'), width: 110, valueType: 'number', align: 'right' },
      { prop: 'received', title: t('received'), width: 110, valueType: 'number', align: 'right' },
      { prop: 'consumed', title: t('consumed'), width: 110, valueType: 'number', sortable: true, align: 'right' },
      { prop: 'returned', title: t('returned'), width: 110, valueType: 'number', align: 'right' },
      { prop: 'other', title: t('other'), width: 100, valueType: 'number', align: 'right' },
      { prop: 'orders', title: t('orders'), width: 200 },
      // What the customer's warehouses hold stays at the right edge.
      { prop: 'closing', title: t('closing'), width: 120, valueType: 'number', sortable: true, align: 'right', fixed: 'right' },
    ],
    [t, customerOptions],
  );
  return (
    <ProTable<StatementRow>
      path={PATH}
      listType="production_entrustStatement"
      rowKey={(r) => `${r.customerId}:${r.materialId}`}
      columns={columns}
      exportPath={can('production_entrustStatement_export') ? `${PATH}/export` : undefined}
      data-testid="production-entrust-statement"
    />
  );
}
