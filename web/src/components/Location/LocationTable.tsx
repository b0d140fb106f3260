import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Input } from 'antd';
import { TagsOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Location } from '@p8/contract/basic';
import { useAuth } from '../Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../ProTable/index.tsx';
import { AddButton, BatchButtons, ImportRecordsButton } from '../RecordKit/RecordToolbar.tsx';
import RowActions from '../RecordKit/RowActions.tsx';
import { useRecordColumns } from '../RecordKit/record-columns.tsx';
import { useRecordDialog } from '../RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../RecordKit/use-record-writes.ts';
import { deleteLocations } from './api/delete-locations.ts';
import { enableLocations } from './api/enable-locations.ts';
import { LOCATION_PATH, listLocations } from './api/list-locations.ts';
import { warehouseOptionsQuery } from './api/list-warehouse-options.ts';
import LocationDialog from './LocationDialog.tsx';
import LabelPrint from '../LabelPrint/index.tsx';
import { labelPrintCode } from '@p8/contract/print/label';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * The storage-location list: all of them with a warehouse filter (the location screen), or those of one
 * warehouse (its drawer on the warehouse screen). Add / edit / view, enable / disable and delete —
 * the server refuses closing or deleting a location that holds stock, and the refusal names it.
 */
export default function LocationTable({ warehouse }: { warehouse?: { id: number; name: string } }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const { t: root } = useTranslation();
  const can = useAuth();
  // The selection whose labels are being printed.
  const [labelled, setLabelled] = useState<Location[] | null>(null);
  const table = useRef<ProTableAction<Location>>(undefined);
  const reload = useCallback(() => table.current?.reload(), []);
  const recordColumns = useRecordColumns();
  const warehouses = useQuery({ ...warehouseOptionsQuery, enabled: !warehouse });
  const dialog = useRecordDialog<Location>();
  const openDialog = dialog.open;
  // In a warehouse's drawer the search form would be cramped: one keyword box searches the names.
  const [keyword, setKeyword] = useState('');
  const writes = useRecordWrites<Location>({ table, enable: enableLocations, remove: deleteLocations });

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
      recordColumns.status<Location>({ record: 'basic_location', writes, column: { width: 90, search: !warehouse } }),
      { prop: 'remark', title: t('common.remark'), width: 200, ellipsis: true, render: dash },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<Location>(200, (row) => (
        <RowActions
          record="basic_location"
          id={row.id}
          name={row.name}
          onView={() => openDialog('view', row)}
          onEdit={() => openDialog('edit', row)}
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    [t, warehouse, warehouseOptions, warehouses.isFetching, recordColumns, writes, openDialog],
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
          warehouse ? (
            <Input.Search
              allowClear
              placeholder={t('location.name')}
              onSearch={(value) => setKeyword(value.trim())}
              style={{ width: 200 }}
              data-testid="location-keyword"
            />
          ) : (
            <ImportRecordsButton record="basic_location" importPath={`${LOCATION_PATH}/import`} template="location" title={t('location.importTitle')} onImported={reload} />
          )
        }
        exportPath={can('basic_location_export') ? `${LOCATION_PATH}/export` : undefined}
        actionRef={table}
        rowSelection
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="basic_location" onClick={() => openDialog('add')}>
              {t('location.add')}
            </AddButton>
            <BatchButtons record="basic_location" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {can(labelPrintCode('location')) && (
              <Button icon={<TagsOutlined />} disabled={!selectedRows.length} onClick={() => setLabelled(selectedRows)} data-testid="location-labels">
                {root('label.print')}
              </Button>
            )}
          </>
        )}
      />
      {labelled && <LabelPrint kinds={['location']} records={labelled} onClose={() => setLabelled(null)} />}
      <LocationDialog state={dialog.state} warehouse={warehouse} onClose={dialog.close} onSaved={reload} />
    </>
  );
}
