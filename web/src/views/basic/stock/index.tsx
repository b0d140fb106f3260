import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Tag } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Warehouse } from '@p8/contract/basic';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ImportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { useRecordAssign } from '../../../components/RecordKit/use-record-assign.tsx';
import { assignWarehouses } from './api/assign-warehouses.ts';
import { deleteWarehouses } from './api/delete-warehouses.ts';
import { enableWarehouses } from './api/enable-warehouses.ts';
import { getWarehouse } from './api/get-warehouse.ts';
import { listWarehouses, WAREHOUSE_PATH } from './api/list-warehouses.ts';
import LocationsDrawer from './components/locations-drawer.tsx';
import WarehouseDialog from './components/warehouse-dialog.tsx';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
const loadAssignment = async (id: number) => (await getWarehouse(id)).assignment;

/**
 * Basic records → warehouses (menu basic_stock, the spec's `stock`): list, add / edit / view, enable /
 * disable (closing one is confirmed; the server refuses closing a warehouse that holds stock, and the
 * refusal names it), delete, Excel import and export, the storage locations of each warehouse in a
 * drawer, and — while the tenant's applyRangeStock is on — assigning warehouses to departments and staff.
 */
export default function WarehousePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const tenant = useTenantConfig();
  const rangeOn = !!tenant.config?.applyRangeStock;
  const table = useRef<ProTableAction<Warehouse>>(undefined);
  const reload = useCallback(() => table.current?.reload(), []);
  const recordColumns = useRecordColumns();
  const dialog = useRecordDialog<Warehouse>();
  const openDialog = dialog.open;
  const [drawer, setDrawer] = useState<Warehouse | null>(null);
  const writes = useRecordWrites<Warehouse>({ table, enable: enableWarehouses, remove: deleteWarehouses });
  const assign = useRecordAssign({ record: 'basic_stock', loadAssignment, save: assignWarehouses, onSaved: reload });

  const columns = useMemo<ProColumn<Warehouse>[]>(
    () => [
      { prop: 'code', title: t('stock.code'), search: true, sortable: true, lockSetting: true, width: 130 },
      { prop: 'name', title: t('stock.name'), search: true, sortable: true, lockSetting: true, width: 180 },
      { prop: 'address', title: t('stock.address'), search: true, width: 240, ellipsis: true, render: dash },
      { prop: 'managerName', title: t('stock.manager'), width: 110, render: dash },
      { prop: 'phone', title: t('stock.phone'), width: 140, render: dash },
      { prop: 'rejects', title: t('stock.rejects'), width: 100, render: (_: unknown, row: Warehouse) => (row.rejects ? <Tag color="orange">{t('stock.rejects')}</Tag> : dash(null)) },
      { prop: 'customerName', title: t('stock.customer'), width: 160, render: (_: unknown, row: Warehouse) => (row.customerName ? <Tag color="purple">{row.customerName}</Tag> : dash(null)) },
      { prop: 'sort', title: t('common.sort'), sortable: true, width: 80, align: 'right' },
      // Closing a warehouse takes it out of new bills: confirmed first.
      recordColumns.status<Warehouse>({
        record: 'basic_stock',
        writes,
        confirmOff: (row) => t('stock.disableConfirm', { name: row.name }),
        column: { width: 90 },
      }),
      { prop: 'remark', title: t('common.remark'), width: 180, ellipsis: true, render: dash },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      recordColumns.actions<Warehouse>(rangeOn ? 330 : 270, (row) => (
        <RowActions
          record="basic_stock"
          id={row.id}
          name={row.name}
          before={
            <Button type="link" size="small" icon={<EnvironmentOutlined />} onClick={() => setDrawer(row)} data-testid={`row-locations-${row.id}`}>
              {t('stock.locations')}
            </Button>
          }
          onView={() => openDialog('view', row)}
          onEdit={() => openDialog('edit', row)}
          extra={rangeOn && assign.rowLink(row)}
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    [t, recordColumns, writes, rangeOn, assign, openDialog],
  );

  return (
    <div className="p8-basic-stock">
      <ProTable<Warehouse>
        data-testid="stock-table"
        listType="basic_stock"
        rowKey="id"
        columns={columns}
        request={listWarehouses}
        exportPath={can('basic_stock_export') ? `${WAREHOUSE_PATH}/export` : undefined}
        actionRef={table}
        rowSelection={can('basic_stock_delete') || can('basic_stock_enable') || (rangeOn && can('basic_stock_assign'))}
        toolbarRight={<ImportRecordsButton record="basic_stock" importPath={`${WAREHOUSE_PATH}/import`} template="stock" title={t('stock.importTitle')} onImported={reload} />}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="basic_stock" onClick={() => openDialog('add')}>
              {t('stock.add')}
            </AddButton>
            <BatchButtons record="basic_stock" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {rangeOn && assign.selectedButton(selectedRowKeys, selectedRows)}
          </>
        )}
      />
      <WarehouseDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
      <LocationsDrawer warehouse={drawer} onClose={() => setDrawer(null)} />
      {assign.dialog}
    </div>
  );
}
