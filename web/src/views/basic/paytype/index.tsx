import { useMemo, useRef, useState } from 'react';
import { Button, Space } from 'antd';
import { EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PayType } from '@p8/contract/basic';
import { Auth, useAuth } from '../../../components/Auth/index.tsx';
import { ImportButton } from '../../../components/ImportExcel/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { BatchButtons, DeleteLink, StatusCell, useRecordWrites, useStatusEnum } from '../partner/components/record-kit.tsx';
import { deletePayTypes } from './api/delete-pay-types.ts';
import { enablePayTypes } from './api/enable-pay-types.ts';
import { listPayTypes, PAYTYPE_PATH } from './api/list-pay-types.ts';
import PayTypeDialog, { type PayTypeDialogState } from './components/pay-type-dialog.tsx';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** Basic records → pay types (menu basic_paytype): the settlement methods of payments and receipts. */
export default function PayTypePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const table = useRef<ProTableAction<PayType>>(undefined);
  const reload = () => table.current?.reload();
  const statusEnum = useStatusEnum();
  const [dialog, setDialog] = useState<PayTypeDialogState>({ open: false, mode: 'add' });
  const writes = useRecordWrites<PayType>({ enable: enablePayTypes, remove: deletePayTypes, reload, clearSelection: () => table.current?.clearSelection() });

  const columns = useMemo<ProColumn<PayType>[]>(
    () => [
      { prop: 'name', title: t('paytype.name'), search: true, sortable: true, lockSetting: true, width: 220 },
      { prop: 'sort', title: t('common.sort'), sortable: true, width: 80, align: 'right' },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 90,
        search: true,
        valueEnum: statusEnum,
        render: (_, row) => <StatusCell id={row.id} enabled={row.enabled} code="basic_paytype_enable" loading={writes.switching === row.id} onChange={(on) => void writes.setEnabled([row], on)} />,
      },
      { prop: 'remark', title: t('common.remark'), search: true, width: 260, ellipsis: true, render: dash },
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
            <Auth code="basic_paytype_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            <DeleteLink record="paytype" row={row} onDelete={() => writes.remove([row])} />
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, statusEnum, writes.switching],
  );

  return (
    <div className="p8-basic-paytype">
      <ProTable<PayType>
        data-testid="paytype-table"
        listType="basic_paytype"
        rowKey="id"
        columns={columns}
        request={listPayTypes}
        exportPath={can('basic_paytype_export') ? `${PAYTYPE_PATH}/export` : undefined}
        actionRef={table}
        rowSelection={can('basic_paytype_delete') || can('basic_paytype_enable')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <Auth code="basic_paytype_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="paytype-add">
                {t('paytype.add')}
              </Button>
            </Auth>
            <BatchButtons record="paytype" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            <Auth code="basic_paytype_import">
              <ImportButton importPath={`${PAYTYPE_PATH}/import`} template="paytype" title={t('paytype.importTitle')} onSuccess={reload} buttonProps={{ 'data-testid': 'paytype-import' } as never}>
                {t('common.import')}
              </ImportButton>
            </Auth>
          </>
        )}
      />
      <PayTypeDialog state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
    </div>
  );
}
