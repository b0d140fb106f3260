import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import ProTable, { type ProColumn } from '../ProTable/index.tsx';
import type { SearchOption } from '../ProTable/types.ts';
import { useAuth } from '../Auth/index.tsx';
import { pickWarehouses } from '../Pickers/api/pick-warehouses.ts';
import { pickLocations } from '../Pickers/api/pick-locations.ts';

/** The three stock reports under /api/admin/stock: current stock, the ledger, the in / out summary. */
export type ReportName = 'current' | 'ledger' | 'summary';

/** Warehouses (and, once one is chosen, its locations) as search options: at most 100, within the picker's range. */
export function useWarehouseOptions(): SearchOption[] {
  const found = useQuery({ queryKey: ['stock-report-warehouses'], queryFn: () => pickWarehouses({ current: 1, pageSize: 100 }), staleTime: 60_000 });
  return useMemo(() => (found.data?.data ?? []).map((w) => ({ value: w.id, label: w.name })), [found.data]);
}

export function useLocationOptions(): SearchOption[] {
  const found = useQuery({ queryKey: ['stock-report-locations'], queryFn: () => pickLocations({ current: 1, pageSize: 100 }), staleTime: 60_000 });
  return useMemo(() => (found.data?.data ?? []).map((l) => ({ value: l.id, label: l.warehouseName ? `${l.warehouseName} / ${l.name}` : l.name })), [found.data]);
}

/** The bill types that move stock, as search options in the current language. */
export function useBillTypeOptions(): SearchOption[] {
  const { i18n } = useTranslation();
  const en = i18n.language === 'en';
  return useMemo(() => BILL_TYPES.filter((d) => d.stock !== 'none').map((d) => ({ value: d.type, label: en ? d.label.en : d.label.zh })), [en]);
}

/** One report on the list kit: paging, sort, search and export (for holders of `stock_<name>_export`). */
export function StockReport<T extends object>({ name, columns, rowKey }: { name: ReportName; columns: ProColumn<T>[]; rowKey: string | ((row: T) => string) }) {
  const can = useAuth();
  const path = `/admin/stock/${name}`;
  return (
    <ProTable<T>
      path={path}
      listType={`stock_${name}`}
      rowKey={rowKey}
      columns={columns}
      exportPath={can(`stock_${name}_export`) ? `${path}/export` : undefined}
      data-testid={`stock-${name}`}
    />
  );
}
