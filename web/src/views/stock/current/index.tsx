import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { StockReport, useLocationOptions, useWarehouseOptions } from '../../../components/StockReport/index.tsx';

interface CurrentRow {
  materialId: number;
  materialCode: string;
  materialName: string;
  warehouseId: number;
  locationId: number | null;
  batchNumber: string;
  serialNumber: string;
  quantity: string;
}

const rowKey = (r: CurrentRow) => `${r.materialId}:${r.warehouseId}:${r.locationId ?? ''}:${r.batchNumber}:${r.serialNumber}`;

/** Current stock: the balance per material, warehouse, location, batch and serial number, with its cost. */
export default function CurrentStock() {
  const { t } = useTranslation(undefined, { keyPrefix: 'stock' });
  const warehouses = useWarehouseOptions();
  const locations = useLocationOptions();
  const columns = useMemo<ProColumn<CurrentRow>[]>(
    () => [
      { prop: 'keyword', title: t('keyword'), hideInTable: true, search: { placeholder: t('keywordHint'), order: 0 } },
      { prop: 'warehouseId', title: t('warehouse'), hideInTable: true, search: { type: 'select', options: warehouses, order: 1 } },
      { prop: 'locationId', title: t('location'), hideInTable: true, search: { type: 'select', options: locations, order: 2 } },
      { prop: 'materialCode', title: t('materialCode'), width: 130, sortable: true, lockSetting: true },
      { prop: 'materialName', title: t('materialName'), width: 160 },
      { prop: 'specification', title: t('specification'), width: 140 },
      { prop: 'unitName', title: t('unit'), width: 70 },
      { prop: 'warehouseName', title: t('warehouse'), width: 110, sortable: true },
      { prop: 'locationName', title: t('location'), width: 130 },
      { prop: 'batchNumber', title: t('batchNumber'), width: 130, search: { order: 3 } },
      { prop: 'serialNumber', title: t('serialNumber'), width: 130 },
      // The figures stay at the right edge (at 1440 px the place columns scroll beneath them).
      { prop: 'quantity', title: t('quantity'), width: 110, valueType: 'number', sortable: true, align: 'right', fixed: 'right' },
      { prop: 'unitCost', title: t('unitCost'), width: 110, valueType: 'amount', align: 'right', fixed: 'right' },
      { prop: 'amount', title: t('amount'), width: 120, valueType: 'amount', align: 'right', fixed: 'right' },
    ],
    [t, warehouses, locations],
  );
  return <StockReport<CurrentRow> name="current" columns={columns} rowKey={rowKey} />;
}
