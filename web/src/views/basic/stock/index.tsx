import { useMemo, useRef, useState } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { EditOutlined, EnvironmentOutlined, EyeOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Assignment, Warehouse } from '@p8/contract/basic';
import { feedback } from '../../../app/feedback.ts';
import { Auth, useAuth } from '../../../components/Auth/index.tsx';
import { ImportButton } from '../../../components/ImportExcel/index.tsx';
import AssignDialog from '../../../components/Pickers/AssignDialog.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { BatchButtons, DeleteLink, StatusCell, testId, useRecordWrites, useStatusEnum } from '../partner/components/record-kit.tsx';
import { assignWarehouses } from './api/assign-warehouses.ts';
import { deleteWarehouses } from './api/delete-warehouses.ts';
import { enableWarehouses } from './api/enable-warehouses.ts';
import { getWarehouse } from './api/get-warehouse.ts';
import { listWarehouses, WAREHOUSE_PATH } from './api/list-warehouses.ts';
import LocationsDrawer from './components/locations-drawer.tsx';
import WarehouseDialog, { type WarehouseDialogState } from './components/warehouse-dialog.tsx';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

interface AssignState {
  open: boolean;
  rows: Array<{ id: number; name: string }>;
  initial?: Assignment;
}

/**
 * Basic records → warehouses (menu basic_stock, the spec's `stock`): list, add / edit / view, enable /
 * disable (the server refuses closing a warehouse that holds stock, and the refusal names it), delete,
 * Excel import and export, the storage locations of each warehouse in a drawer, and — while the
 * tenant's applyRangeStock is on — assigning warehouses to departments and staff.
 */
export default function WarehousePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const tenant = useTenantConfig();
  const rangeOn = !!tenant.config?.applyRangeStock;
  const table = useRef<ProTableAction<Warehouse>>(undefined);
  const reload = () => table.current?.reload();
  const statusEnum = useStatusEnum();
  const [dialog, setDialog] = useState<WarehouseDialogState>({ open: false, mode: 'add' });
  const [drawer, setDrawer] = useState<Warehouse | null>(null);
  const [assign, setAssign] = useState<AssignState>({ open: false, rows: [] });
  const [opening, setOpening] = useState<number | null>(null);
  const writes = useRecordWrites<Warehouse>({ enable: enableWarehouses, remove: deleteWarehouses, reload, clearSelection: () => table.current?.clearSelection() });

  /** Closing a warehouse takes it out of new bills: confirm first. */
  const setEnabled = async (rows: Warehouse[], enabled: boolean) => {
    if (enabled || rows.length !== 1) return writes.setEnabled(rows, enabled);
    feedback.modal.confirm({
      title: t('common.disable'),
      content: t('stock.disableConfirm', { name: rows[0]!.name }),
      okButtonProps: { danger: true, ...testId('stock-disable-confirm') },
      onOk: () => writes.setEnabled(rows, false),
    });
  };

  const openAssign = async (row: Warehouse) => {
    setOpening(row.id);
    try {
      const detail = await getWarehouse(row.id);
      setAssign({ open: true, rows: [row], initial: detail.assignment });
    } catch {
      /* shown by the HTTP client */
    } finally {
      setOpening(null);
    }
  };

  const columns = useMemo<ProColumn<Warehouse>[]>(
    () => [
      { prop: 'code', title: t('stock.code'), search: true, sortable: true, lockSetting: true, width: 130 },
      { prop: 'name', title: t('stock.name'), search: true, sortable: true, lockSetting: true, width: 180 },
      { prop: 'address', title: t('stock.address'), search: true, width: 240, ellipsis: true, render: dash },
      { prop: 'managerName', title: t('stock.manager'), width: 110, render: dash },
      { prop: 'phone', title: t('stock.phone'), width: 140, render: dash },
      { prop: 'sort', title: t('common.sort'), sortable: true, width: 80, align: 'right' },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 90,
        search: true,
        valueEnum: statusEnum,
        render: (_, row) => <StatusCell id={row.id} enabled={row.enabled} code="basic_stock_enable" loading={writes.switching === row.id} onChange={(on) => void setEnabled([row], on)} />,
      },
      { prop: 'remark', title: t('common.remark'), width: 180, ellipsis: true, render: dash },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: rangeOn ? 330 : 270,
        render: (_, row) => (
          <Space size={0} wrap={false}>
            <Button type="link" size="small" icon={<EnvironmentOutlined />} onClick={() => setDrawer(row)} data-testid={`row-locations-${row.id}`}>
              {t('stock.locations')}
            </Button>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setDialog({ open: true, mode: 'view', record: row })} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
            <Auth code="basic_stock_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            {rangeOn && (
              <Auth code="basic_stock_assign">
                <Button type="link" size="small" icon={<TeamOutlined />} loading={opening === row.id} onClick={() => void openAssign(row)} data-testid={`assign-${row.id}`}>
                  {t('common.assign')}
                </Button>
              </Auth>
            )}
            <DeleteLink record="stock" row={row} onDelete={() => writes.remove([row])} />
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, statusEnum, rangeOn, writes.switching, opening],
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
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <Auth code="basic_stock_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="stock-add">
                {t('stock.add')}
              </Button>
            </Auth>
            <BatchButtons record="stock" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {rangeOn && (
              <Auth code="basic_stock_assign">
                <Tooltip title={t('assign.replaceTip')}>
                  <Button
                    icon={<TeamOutlined />}
                    disabled={!selectedRowKeys.length}
                    onClick={() => setAssign({ open: true, rows: selectedRowKeys.map((id) => ({ id: Number(id), name: selectedRows.find((r) => r?.id === Number(id))?.name ?? String(id) })) })}
                    data-testid="stock-assign-selected"
                  >
                    {t('common.assignSelected')}
                  </Button>
                </Tooltip>
              </Auth>
            )}
            <Auth code="basic_stock_import">
              <ImportButton importPath={`${WAREHOUSE_PATH}/import`} template="stock" title={t('stock.importTitle')} onSuccess={reload} buttonProps={{ 'data-testid': 'stock-import' } as never}>
                {t('common.import')}
              </ImportButton>
            </Auth>
          </>
        )}
      />
      <WarehouseDialog state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
      <LocationsDrawer warehouse={drawer} onClose={() => setDrawer(null)} />
      <AssignDialog
        open={assign.open}
        title={assign.rows.length === 1 ? t('assign.title', { name: assign.rows[0]!.name }) : t('assign.titleMany', { count: assign.rows.length })}
        initial={assign.initial}
        onClose={() => setAssign((a) => ({ ...a, open: false }))}
        onSubmit={async (assignment) => {
          await assignWarehouses(
            assign.rows.map((r) => r.id),
            assignment,
          );
          feedback.message.success(t('assign.saved'));
          reload();
        }}
      />
    </div>
  );
}
