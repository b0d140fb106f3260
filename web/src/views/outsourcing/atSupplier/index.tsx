import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import { pickPartners } from '../../../components/Pickers/api/pick-partners.ts';

interface HeldRow {
  orderId: number;
  billCode: string;
  supplierName: string | null;
  materialId: number;
  materialCode: string;
  materialName: string;
  sent: string;
  returned: string;
  consumed: string;
  quantity: string;
  amount: string;
}

const PATH = '/admin/outsourcing/atSupplier';

/**
 * Materials at suppliers (委外物料结存): per outsourcing order and material, what picks sent, returns brought back
 * and receipts consumed, and what the supplier still holds with its value (GET /admin/outsourcing/atSupplier).
 */
export default function MaterialsAtSuppliers() {
  const { t } = useTranslation(undefined, { keyPrefix: 'outsourcing.atSupplier' });
  const can = useAuth();
  const suppliers = useQuery({ queryKey: ['outsourcing-suppliers'], queryFn: () => pickPartners('supplier', { current: 1, pageSize: 100 }), staleTime: 60_000 });
  const supplierOptions = useMemo(() => (suppliers.data?.data ?? []).map((s) => ({ value: s.id, label: s.name })), [suppliers.data]);
  const columns = useMemo<ProColumn<HeldRow>[]>(
    () => [
      { prop: 'supplierId', title: t('supplier'), hideInTable: true, search: { type: 'select', options: supplierOptions, order: 0 } },
      { prop: 'keyword', title: t('keyword'), hideInTable: true, search: { placeholder: t('keywordHint'), order: 2 } },
      {
        prop: 'held',
        title: t('held'),
        hideInTable: true,
        search: {
          type: 'select',
          options: [
            { value: 'true', label: t('heldOnly') },
            { value: 'false', label: t('heldAll') },
          ],
          order: 3,
        },
      },
      { prop: 'supplierName', title: t('supplier'), width: 160, sortable: true, lockSetting: true },
      { prop: 'billCode', title: t('order'), width: 170, sortable: true, search: { order: 1 } },
      { prop: 'materialCode', title: t('materialCode'), width: 130, sortable: true },
      { prop: 'materialName', title: t('materialName'), width: 160 },
      { prop: 'specification', title: t('specification'), width: 130 },
      { prop: 'unitName', title: t('unit'), width: 70 },
      { prop: 'sent', title: t('sent'), width: 110, valueType: 'number', align: 'right' },
      { prop: 'returned', title: t('returned'), width: 110, valueType: 'number', align: 'right' },
      { prop: 'consumed', title: t('consumed'), width: 110, valueType: 'number', align: 'right' },
      // What the supplier holds stays at the right edge.
      { prop: 'quantity', title: t('quantity'), width: 120, valueType: 'number', sortable: true, align: 'right', fixed: 'right' },
      { prop: 'amount', title: t('amount'), width: 120, valueType: 'amount', sortable: true, align: 'right', fixed: 'right' },
    ],
    [t, supplierOptions],
  );
  return (
    <ProTable<HeldRow>
      path={PATH}
      listType="outsourcing_atSupplier"
      rowKey={(r) => `${r.orderId}:${r.materialId}`}
      columns={columns}
      exportPath={can('outsourcing_atSupplier_export') ? `${PATH}/export` : undefined}
      data-testid="outsourcing-at-supplier"
    />
  );
}
