import { useMemo, useRef, useState } from 'react';
import { Button, Space } from 'antd';
import { EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FeeKind, type FeeType } from '@p8/contract/basic';
import { Auth, useAuth } from '../../../components/Auth/index.tsx';
import { ImportButton } from '../../../components/ImportExcel/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ValueEnum } from '../../../components/ProTable/index.tsx';
import { BatchButtons, DeleteLink, StatusCell, useRecordWrites, useStatusEnum } from '../partner/components/record-kit.tsx';
import { deleteFeeTypes } from './api/delete-fee-types.ts';
import { enableFeeTypes } from './api/enable-fee-types.ts';
import { FEE_PATH, listFeeTypes } from './api/list-fee-types.ts';
import FeeTypeDialog, { type FeeTypeDialogState } from './components/fee-dialog.tsx';

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** Basic records → fee types (menu basic_fee): income or expense items of the finance fee bills. */
export default function FeeTypePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const table = useRef<ProTableAction<FeeType>>(undefined);
  const reload = () => table.current?.reload();
  const statusEnum = useStatusEnum();
  const [dialog, setDialog] = useState<FeeTypeDialogState>({ open: false, mode: 'add' });
  const writes = useRecordWrites<FeeType>({ enable: enableFeeTypes, remove: deleteFeeTypes, reload, clearSelection: () => table.current?.clearSelection() });
  const kindEnum = useMemo<ValueEnum>(
    () => Object.fromEntries(FeeKind.map((kind) => [kind, { text: t(`fee.kinds.${kind}`), color: kind === 'income' ? 'green' : 'orange' }])),
    [t],
  );

  const columns = useMemo<ProColumn<FeeType>[]>(
    () => [
      { prop: 'name', title: t('fee.name'), search: true, sortable: true, lockSetting: true, width: 200 },
      { prop: 'kind', title: t('fee.kind'), search: true, sortable: true, valueEnum: kindEnum, width: 120 },
      { prop: 'sort', title: t('common.sort'), sortable: true, width: 80, align: 'right' },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 90,
        search: true,
        valueEnum: statusEnum,
        render: (_, row) => <StatusCell id={row.id} enabled={row.enabled} code="basic_fee_enable" loading={writes.switching === row.id} onChange={(on) => void writes.setEnabled([row], on)} />,
      },
      { prop: 'remark', title: t('common.remark'), search: true, width: 240, ellipsis: true, render: dash },
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
            <Auth code="basic_fee_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            <DeleteLink record="fee" row={row} onDelete={() => writes.remove([row])} />
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, kindEnum, statusEnum, writes.switching],
  );

  return (
    <div className="p8-basic-fee">
      <ProTable<FeeType>
        data-testid="fee-table"
        listType="basic_fee"
        rowKey="id"
        columns={columns}
        request={listFeeTypes}
        exportPath={can('basic_fee_export') ? `${FEE_PATH}/export` : undefined}
        actionRef={table}
        rowSelection={can('basic_fee_delete') || can('basic_fee_enable')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <Auth code="basic_fee_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="fee-add">
                {t('fee.add')}
              </Button>
            </Auth>
            <BatchButtons record="fee" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            <Auth code="basic_fee_import">
              <ImportButton importPath={`${FEE_PATH}/import`} template="fee" title={t('fee.importTitle')} onSuccess={reload} buttonProps={{ 'data-testid': 'fee-import' } as never}>
                {t('common.import')}
              </ImportButton>
            </Auth>
          </>
        )}
      />
      <FeeTypeDialog state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
    </div>
  );
}
