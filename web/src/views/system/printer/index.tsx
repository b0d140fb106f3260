import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PrinterProvider, type PrinterRow } from '@p8/contract/office';
import { errorText } from '../../../app/http.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deletePrinters } from './api/delete-printers.ts';
import { enablePrinters } from './api/enable-printers.ts';
import { listPrinters } from './api/list-printers.ts';
import { testPrinter } from './api/test-printer.ts';
import PrinterDialog from './components/printer-dialog.tsx';

/** System → printers: the tenant's cloud receipt printers, with a test print through the provider. */
export default function PrinterPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { modal } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<PrinterRow>>(undefined);
  const dialog = useRecordDialog<PrinterRow>();
  const openDialog = dialog.open;
  const [testing, setTesting] = useState<number | null>(null);
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<PrinterRow>({ table, enable: enablePrinters, remove: deletePrinters });
  const recordColumns = useRecordColumns();

  const test = async (row: PrinterRow) => {
    setTesting(row.id);
    try {
      await testPrinter(row.id);
      modal.success({ title: t('printer.testOkTitle'), content: t('printer.testOk', { name: row.name }) });
    } catch (error) {
      modal.error({
        title: t('printer.testFailTitle'),
        content: (
          <div data-testid="printer-test-error">
            <p style={{ marginBottom: 8 }}>{t('printer.testFail', { name: row.name })}</p>
            <Typography.Text type="danger" strong>
              {errorText(error)}
            </Typography.Text>
            <p style={{ marginTop: 8, marginBottom: 0 }}>
              <Typography.Text type="secondary">{t('printer.testFailHint')}</Typography.Text>
            </p>
          </div>
        ),
      });
    } finally {
      setTesting(null);
    }
  };

  const providerEnum = useMemo(
    () => Object.fromEntries(PrinterProvider.map((p) => [p, { text: t(`printer.providers.${p}`), color: p === 'feie' ? 'blue' : 'purple' }])),
    [t],
  );

  const columns = useMemo<ProColumn<PrinterRow>[]>(
    () => [
      { prop: 'name', title: t('printer.name'), search: true, sortable: true, lockSetting: true, width: 180 },
      { prop: 'provider', title: t('printer.provider'), valueEnum: providerEnum, search: true, width: 120 },
      { prop: 'sn', title: t('printer.sn'), search: true, sortable: true, width: 160, render: (v) => <Typography.Text copyable={{ text: String(v) }}>{String(v)}</Typography.Text> },
      { prop: 'printerKey', title: t('printer.printerKey'), width: 150, render: (v) => <Typography.Text code>{String(v || '—')}</Typography.Text> },
      { prop: 'copies', title: t('printer.copies'), width: 90, align: 'center' },
      recordColumns.status<PrinterRow>({ record: 'system_printer', writes, labelled: true }),
      { prop: 'remark', title: t('printer.remark'), ellipsis: true, width: 200, render: (v) => (v ? String(v) : '—') },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<PrinterRow>(250, (row) => (
        <RowActions
          record="system_printer"
          id={row.id}
          name={row.name}
          onView={() => openDialog('view', row)}
          onEdit={() => openDialog('edit', row)}
          extra={
            <Auth code="system_printer_add|system_printer_update">
              <Button
                type="link"
                size="small"
                icon={<PrinterOutlined />}
                loading={testing === row.id}
                disabled={testing !== null && testing !== row.id}
                onClick={() => void test(row)}
                data-testid={`row-test-${row.id}`}
              >
                {t('printer.test')}
              </Button>
            </Auth>
          }
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `test` reads the latest state through the render
    [t, providerEnum, recordColumns, writes, openDialog, testing],
  );

  return (
    <div className="p8-system-printer">
      <ProTable<PrinterRow>
        data-testid="printer-table"
        listType="system_printer"
        rowKey="id"
        columns={columns}
        request={listPrinters}
        actionRef={table}
        rowSelection={can('system_printer_delete')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="system_printer" onClick={() => openDialog('add')}>
              {t('printer.add')}
            </AddButton>
            <BatchButtons record="system_printer" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} />
          </>
        )}
      />
      <PrinterDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
    </div>
  );
}
