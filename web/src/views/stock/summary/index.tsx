import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { StockReport, useWarehouseOptions } from '../../../components/StockReport/index.tsx';

interface SummaryRow {
  materialId: number;
  warehouseId: number;
}

/** In / out summary of a period per material and warehouse: opening, in, out, closing. */
export default function StockSummary() {
  const { t } = useTranslation(undefined, { keyPrefix: 'stock' });
  const warehouses = useWarehouseOptions();
  const columns = useMemo<ProColumn<SummaryRow>[]>(
    () => [
      { prop: 'period', title: t('period'), hideInTable: true, search: { type: 'dateRange', defaultDate: true, order: 0 } },
      { prop: 'keyword', title: t('keyword'), hideInTable: true, search: { placeholder: t('keywordHint'), order: 1 } },
      { prop: 'warehouseId', title: t('warehouse'), hideInTable: true, search: { type: 'select', options: warehouses, order: 2 } },
      { prop: 'materialCode', title: t('materialCode'), width: 130, sortable: true, lockSetting: true },
      { prop: 'materialName', title: t('materialName'), width: 180 },
      { prop: 'warehouseName', title: t('warehouse'), width: 120, sortable: true },
      { prop: 'opening', title: t('opening'), width: 120, valueType: 'number', align: 'right' },
      { prop: 'inQuantity', title: t('inQuantity'), width: 120, valueType: 'number', sortable: true, align: 'right' },
      { prop: 'outQuantity', title: t('outQuantity'), width: 120, valueType: 'number', sortable: true, align: 'right' },
      { prop: 'closing', title: t('closing'), width: 120, valueType: 'number', sortable: true, align: 'right' },
    ],
    [t, warehouses],
  );
  return <StockReport<SummaryRow> name="summary" columns={columns} rowKey={(r) => `${r.materialId}:${r.warehouseId}`} />;
}
