import { useMemo, useRef, useState } from 'react';
import { App, Button, Popconfirm, Space, Switch, Tag, Typography, type ButtonProps } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PrinterProvider, type PrinterRow } from '@p8/contract/office';
import { errorText } from '../../../app/http.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { deletePrinters } from './api/delete-printers.ts';
import { enablePrinters } from './api/enable-printers.ts';
import { listPrinters } from './api/list-printers.ts';
import { testPrinter } from './api/test-printer.ts';
import PrinterDialog, { type PrinterDialogState } from './components/printer-dialog.tsx';

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** System → printers: the tenant's cloud receipt printers, with a test print through the provider. */
export default function PrinterPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { message, modal } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<PrinterRow>>(undefined);
  const [dialog, setDialog] = useState<PrinterDialogState>({ open: false, mode: 'add' });
  const [testing, setTesting] = useState<number | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);
  const reload = () => table.current?.reload();

  const remove = async (ids: number[]) => {
    await deletePrinters(ids);
    message.success(t('common.deleted'));
    table.current?.clearSelection();
    reload();
  };

  const toggle = async (row: PrinterRow, enabled: boolean) => {
    setSwitching(row.id);
    try {
      await enablePrinters([row.id], enabled);
      message.success(enabled ? t('common.enabledDone') : t('common.disabledDone'));
      reload();
    } catch {
      /* shown by the HTTP client */
    } finally {
      setSwitching(null);
    }
  };

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
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 100,
        search: true,
        valueEnum: { true: { text: t('common.enabled'), color: 'green' }, false: { text: t('common.disabled') } },
        render: (_, row) =>
          can('system_printer_enable') ? (
            <Switch
              checked={row.enabled}
              loading={switching === row.id}
              checkedChildren={t('common.enabled')}
              unCheckedChildren={t('common.disabled')}
              onClick={(checked, event) => {
                event.stopPropagation();
                void toggle(row, checked);
              }}
              data-testid={`row-enable-${row.id}`}
            />
          ) : (
            <Tag color={row.enabled ? 'green' : undefined}>{row.enabled ? t('common.enabled') : t('common.disabled')}</Tag>
          ),
      },
      { prop: 'remark', title: t('printer.remark'), ellipsis: true, width: 200, render: (v) => (v ? String(v) : '—') },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 250,
        render: (_, row) => (
          <Space size={0} wrap={false}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setDialog({ open: true, mode: 'view', record: row })} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
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
            <Auth code="system_printer_update">
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, mode: 'edit', record: row })} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            <Auth code="system_printer_delete">
              <Popconfirm
                title={t('common.deleteConfirm', { name: row.name })}
                onConfirm={() => remove([row.id]).catch(() => undefined)}
                okButtonProps={{ danger: true, ...testId(`row-delete-confirm-${row.id}`) }}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`row-delete-${row.id}`}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            </Auth>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, providerEnum, can, switching, testing],
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
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code="system_printer_add">
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid="printer-add">
                {t('printer.add')}
              </Button>
            </Auth>
            <Auth code="system_printer_delete">
              <Popconfirm
                title={t('common.deleteSelectedConfirm', { count: selectedRowKeys.length })}
                disabled={!selectedRowKeys.length}
                onConfirm={() => remove(selectedRowKeys.map(Number)).catch(() => undefined)}
                okButtonProps={{ danger: true, ...testId('printer-delete-selected-confirm') }}
              >
                <Button danger icon={<DeleteOutlined />} disabled={!selectedRowKeys.length} data-testid="printer-delete-selected">
                  {t('common.deleteSelected')}
                </Button>
              </Popconfirm>
            </Auth>
          </>
        )}
      />
      <PrinterDialog state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
    </div>
  );
}
