import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import { StockReport, useBillTypeOptions, useWarehouseOptions } from '../../../components/StockReport/index.tsx';

interface LedgerRow {
  id: number;
  billType: string;
  billCode: string;
  quantity: string;
  reversal: boolean;
}

/**
 * The stock ledger: every movement, newest first — bill, material, place, quantity in and out, cost. The
 * figures (quantity, unit cost, amount, reversal) stay at the right edge: at 1440 px the place columns
 * scroll beneath them instead of pushing them out of view.
 */
export default function StockLedger() {
  const { t } = useTranslation(undefined, { keyPrefix: 'stock' });
  const warehouses = useWarehouseOptions();
  const types = useBillTypeOptions();
  const columns = useMemo<ProColumn<LedgerRow>[]>(() => {
    const typeName = new Map(types.map((o) => [o.value, o.label]));
    return [
      { prop: 'billDate', title: t('billDate'), width: 110, valueType: 'date', sortable: true, lockSetting: true, search: { type: 'dateRange', order: 0 } },
      { prop: 'billType', title: t('billType'), width: 120, search: { type: 'select', options: types, order: 1 }, render: (v) => typeName.get(v as string) ?? (v === 'CostAdjustment' ? t('costAdjustment') : String(v)) },
      { prop: 'billCode', title: t('billCode'), width: 170, sortable: true, search: { order: 2 } },
      { prop: 'keyword', title: t('keyword'), hideInTable: true, search: { placeholder: t('keywordHint'), order: 3 } },
      { prop: 'warehouseId', title: t('warehouse'), hideInTable: true, search: { type: 'select', options: warehouses, order: 4 } },
      { prop: 'materialCode', title: t('materialCode'), width: 120 },
      { prop: 'materialName', title: t('materialName'), width: 150 },
      { prop: 'warehouseName', title: t('warehouse'), width: 100 },
      { prop: 'locationName', title: t('location'), width: 120 },
      { prop: 'batchNumber', title: t('batchNumber'), width: 120 },
      { prop: 'serialNumber', title: t('serialNumber'), width: 120 },
      {
        prop: 'quantity',
        title: t('quantity'),
        width: 110,
        valueType: 'number',
        sortable: true,
        align: 'right',
        fixed: 'right',
        // Signed: what came in shows +, what went out −.
        render: (v) => <Typography.Text type={Number(v) < 0 ? 'danger' : 'success'}>{`${Number(v) > 0 ? '+' : ''}${Number(v)}`}</Typography.Text>,
      },
      { prop: 'unitCost', title: t('unitCost'), width: 110, valueType: 'amount', align: 'right', fixed: 'right' },
      { prop: 'amount', title: t('amount'), width: 120, valueType: 'amount', align: 'right', fixed: 'right' },
      { prop: 'reversal', title: t('reversal'), width: 90, fixed: 'right', render: (v) => (v ? <Tag color="orange">{t('reversalTag')}</Tag> : '') },
    ];
  }, [t, warehouses, types]);
  return <StockReport<LedgerRow> name="ledger" columns={columns} rowKey="id" />;
}
