import { useMemo, useRef, useState } from 'react';
import { Button, Input, Space } from 'antd';
import { EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Location } from '@p8/contract/basic';
import { Auth, useAuth } from '../../../../components/Auth/index.tsx';
import { ImportButton } from '../../../../components/ImportExcel/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../../components/ProTable/index.tsx';
import { BatchButtons, DeleteLink, StatusCell, useRecordWrites, useStatusEnum } from '../../partner/components/record-kit.tsx';
import { deleteLocations } from '../api/delete-locations.ts';
import { enableLocations } from '../api/enable-locations.ts';
import { LOCATION_PATH, listLocations } from '../api/list-locations.ts';
import { warehouseOptionsQuery } from '../api/list-warehouse-options.ts';
import LocationDialog, { type LocationDialogState } from './location-dialog.tsx';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * The storage-location list: all of them with a warehouse filter (the location screen), or those of one
 * warehouse (its drawer on the warehouse screen). Add / edit / view, enable / disable and delete —
 * the server refuses closing or deleting a location that holds stock, and the refusal names it.
 */
export default function LocationTable({ warehouse }: { warehouse?: { id: number; name: string } }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const table = useRef<ProTableAction<Location>>(undefined);
  const reload = () => table.current?.reload();
  const statusEnum = useStatusEnum();
  const warehouses = useQuery({ ...warehouseOptionsQuery, enabled: !warehouse });
  const [dialog, setDialog] = useState<LocationDialogState>({ open: false, mode: 'add' });
  // In a warehouse's drawer the search form would be cramped: one keyword box searches the names.
  const [keyword, setKeyword] = useState('');
  const writes = useRecordWrites<Location>({ enable: enableLocations, remove: deleteLocations, reload, clearSelection: () => table.current?.clearSelection() });

  const warehouseOptions = useMemo(
    () => (warehouses.data ?? []).map((w) => ({ value: w.id, label: `${w.code} ${w.name}${w.enabled ? '' : t('location.disabledWarehouse')}` })),
    [warehouses.data, t],
  );

  const columns = useMemo<ProColumn<Location>[]>(
    () => [
      ...(warehouse
        ? []
        : [
            {
              prop: 'warehouseId',
              title: t('location.warehouse'),
              sortable: true,
              lockSetting: true,
              width: 180,
              search: { type: 'select' as const, options: warehouseOptions, placeholder: t('location.warehousePlaceholder'), props: { loading: warehouses.isFetching } },
              render: (_: unknown, row: Location) => row.warehouseName,
            },
          ]),
      { prop: 'code', title: t('location.code'), search: !warehouse, sortable: true, width: 140, render: dash },
      { prop: 'name', title: t('location.name'), search: !warehouse, sortable: true, lockSetting: true, width: 180 },
      { prop: 'sort', title: t('common.sort'), sortable: true, width: 80, align: 'right' },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 90,
        search: !warehouse,
        valueEnum: statusEnum,
        render: (_, row) => <StatusCell id={row.id} enabled={row.enabled} code="basic_location_enable" loading={writes.switching === row.id} onChange={(on) => void writes.setEnabled([row], on)} />,
      },
      { prop: 'remark', title: t('common.remark'), width: 200, ellipsis: true, render: dash },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 200,
        render: (_, row) => (
          <Space size={0} wrap={false}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setDialog({ open: true, mode: 'view', record: row })} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
            <Auth code="basic_location_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            <DeleteLink record="location" row={row} onDelete={() => writes.remove([row])} />
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, warehouse, warehouseOptions, warehouses.isFetching, statusEnum, writes.switching],
  );

  return (
    <>
      <ProTable<Location>
        data-testid="location-table"
        listType={warehouse ? undefined : 'basic_location'}
        rowKey="id"
        columns={columns}
        request={listLocations}
        params={warehouse ? { warehouseId: warehouse.id, name: keyword || undefined } : undefined}
        toolbarRight={
          warehouse && (
            <Input.Search
              allowClear
              placeholder={t('location.name')}
              onSearch={(value) => setKeyword(value.trim())}
              style={{ width: 200 }}
              data-testid="location-keyword"
            />
          )
        }
        exportPath={can('basic_location_export') ? `${LOCATION_PATH}/export` : undefined}
        actionRef={table}
        rowSelection={can('basic_location_delete') || can('basic_location_enable')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <Auth code="basic_location_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="location-add">
                {t('location.add')}
              </Button>
            </Auth>
            <BatchButtons record="location" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {!warehouse && (
              <Auth code="basic_location_import">
                <ImportButton importPath={`${LOCATION_PATH}/import`} template="location" title={t('location.importTitle')} onSuccess={reload} buttonProps={{ 'data-testid': 'location-import' } as never}>
                  {t('common.import')}
                </ImportButton>
              </Auth>
            )}
          </>
        )}
      />
      <LocationDialog state={dialog} warehouse={warehouse} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
    </>
  );
}
