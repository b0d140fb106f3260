import { useCallback, useMemo, useRef } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServiceStaffRow } from '@p8/contract/service';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteServiceStaff } from './api/delete-service-staff.ts';
import { enableServiceStaff } from './api/enable-service-staff.ts';
import { listServiceStaff } from './api/list-service-staff.ts';
import ServiceStaffDialog from './components/service-staff-dialog.tsx';

const tags = (values: unknown, color?: string) => {
  const list = Array.isArray(values) ? (values as string[]) : [];
  if (!list.length) return '—';
  return (
    <Space size={[0, 4]} wrap>
      {list.map((v) => (
        <Tag key={v} color={color} style={{ marginInlineEnd: 4 }}>
          {v}
        </Tag>
      ))}
    </Space>
  );
};

/**
 * Service → service staff: the staff members orders are dispatched to, with their skills, the areas they
 * serve and their current load (orders on their hands); once any exist, dispatch offers only the enabled ones.
 */
export default function ServiceStaffPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'service.staff' });
  const can = useAuth();
  const table = useRef<ProTableAction<ServiceStaffRow>>(undefined);
  const dialog = useRecordDialog<ServiceStaffRow>();
  const openDialog = dialog.open;
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<ServiceStaffRow>({ table, enable: enableServiceStaff, remove: deleteServiceStaff });
  const recordColumns = useRecordColumns();

  const columns = useMemo<ProColumn<ServiceStaffRow>[]>(
    () => [
      { prop: 'name', title: t('name'), search: true, lockSetting: true, width: 130 },
      { prop: 'account', title: t('account'), width: 120 },
      { prop: 'phone', title: t('phone'), search: true, width: 130, render: (v) => (v ? String(v) : '—') },
      { prop: 'deptName', title: t('dept'), width: 120, render: (v) => (v ? String(v) : '—') },
      { prop: 'skill', title: t('skills'), search: true, hideInTable: true },
      { prop: 'skills', title: t('skills'), width: 220, render: (v) => tags(v, 'blue') },
      { prop: 'area', title: t('areas'), search: true, hideInTable: true },
      { prop: 'areas', title: t('areas'), width: 200, render: (v) => tags(v, 'green') },
      {
        prop: 'load',
        title: t('load'),
        sortable: true,
        align: 'right',
        width: 110,
        render: (v) => <Typography.Text type={Number(v) > 0 ? 'warning' : 'secondary'} strong={Number(v) > 0} data-testid="service-staff-load">{String(v)}</Typography.Text>,
      },
      { prop: 'completed', title: t('completed'), align: 'right', width: 100 },
      recordColumns.status<ServiceStaffRow>({ record: 'service_staff', writes, labelled: true }),
      { prop: 'remark', title: t('remark'), ellipsis: true, width: 160, render: (v) => (v ? String(v) : '—') },
      recordColumns.actions<ServiceStaffRow>(180, (row) => (
        <RowActions record="service_staff" id={row.id} name={row.name} onView={() => openDialog('view', row)} onEdit={() => openDialog('edit', row)} onDelete={() => writes.remove([row])} />
      )),
    ],
    [t, recordColumns, writes, openDialog],
  );

  return (
    <div className="p8-service-staff">
      <ProTable<ServiceStaffRow>
        data-testid="service-staff-table"
        listType="service_staff"
        rowKey="id"
        columns={columns}
        request={listServiceStaff}
        actionRef={table}
        rowSelection={can('service_staff_delete')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="service_staff" onClick={() => openDialog('add')}>
              {t('add')}
            </AddButton>
            <BatchButtons record="service_staff" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} />
          </>
        )}
      />
      <ServiceStaffDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
    </div>
  );
}
