import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Tag } from 'antd';
import { CopyOutlined, DownloadOutlined, LayoutOutlined, StarOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { billType } from '@p8/contract/bills/catalogue';
import { printTemplateFileSchema, type PrintTemplateRow } from '@p8/contract/print/template';
import { saveBlob } from '../../../app/http.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import { labelOf } from '../../../components/BillNames/index.ts';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { defaultPrintTemplate } from './api/default-print-template.ts';
import { deletePrintTemplates } from './api/delete-print-templates.ts';
import { enablePrintTemplates } from './api/enable-print-templates.ts';
import { exportPrintTemplates } from './api/export-print-templates.ts';
import { importPrintTemplates } from './api/import-print-templates.ts';
import { listPrintTemplates } from './api/list-print-templates.ts';
import CopyDialog from './components/copy-dialog.tsx';
import Designer from './components/designer.tsx';
import TemplateDialog, { printableTypeOptions } from './components/template-dialog.tsx';

const RECORD = 'system_printTemplate';

/**
 * System → print templates: the tenant's templates per bill type (several per type, one the default), with
 * copy, import and export as JSON. A type without templates prints with its starter template.
 */
export default function PrintTemplatePage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const lang = i18n.language;
  const { message, modal } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<PrintTemplateRow>>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const dialog = useRecordDialog<PrintTemplateRow>();
  const openDialog = dialog.open;
  const [copying, setCopying] = useState<PrintTemplateRow>();
  const [designing, setDesigning] = useState<PrintTemplateRow>();
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<PrintTemplateRow>({ table, enable: enablePrintTemplates, remove: deletePrintTemplates });
  const recordColumns = useRecordColumns();

  const makeDefault = useCallback(
    async (row: PrintTemplateRow) => {
      await defaultPrintTemplate(row.id);
      message.success(t('printTemplate.defaultDone', { name: row.name }));
      reload();
    },
    [message, reload, t],
  );

  const exportSelected = async (ids: number[]) => {
    const file = await exportPrintTemplates(ids);
    saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), `${t('printTemplate.fileName')}.json`);
  };

  const importFile = async (file: File) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      parsed = undefined;
    }
    const checked = printTemplateFileSchema.safeParse(parsed);
    if (!checked.success) {
      modal.error({ title: t('printTemplate.importFailed'), content: t('printTemplate.importNotAFile', { name: file.name }) });
      return;
    }
    const { ids } = await importPrintTemplates(checked.data);
    message.success(t('printTemplate.imported', { count: ids.length }));
    reload();
  };

  const typeEnum = useMemo(
    () => Object.fromEntries(printableTypeOptions(lang).flatMap((g) => g.options.map((o) => [o.value, { text: o.label }]))),
    [lang],
  );

  const columns = useMemo<ProColumn<PrintTemplateRow>[]>(
    () => [
      { prop: 'billType', title: t('printTemplate.billType'), valueEnum: typeEnum, search: true, sortable: true, width: 150, render: (v) => { const decl = billType(String(v)); return decl ? labelOf(decl.label, lang) : String(v); } },
      { prop: 'name', title: t('printTemplate.name'), search: true, sortable: true, lockSetting: true, width: 200 },
      {
        prop: 'isDefault',
        title: t('printTemplate.isDefault'),
        width: 110,
        align: 'center',
        render: (_v, row) => (row.isDefault ? <Tag color="gold" data-testid={`print-template-default-${row.id}`}>{t('printTemplate.default')}</Tag> : '—'),
      },
      { prop: 'paper', title: t('printTemplate.paper'), width: 130, render: (_v, row) => `${t(`printTemplate.papers.${row.layout.paper.kind}`)} · ${t(`printTemplate.orientations.${row.layout.paper.orientation}`)}` },
      recordColumns.status<PrintTemplateRow>({ record: RECORD, writes, labelled: true }),
      { prop: 'remark', title: t('printTemplate.remark'), ellipsis: true, width: 140, render: (v) => (v ? String(v) : '—') },
      { prop: 'updatedAt', title: t('common.updatedAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<PrintTemplateRow>(360, (row) => (
        <RowActions
          record={RECORD}
          id={row.id}
          name={row.name}
          onView={() => openDialog('view', row)}
          onEdit={() => openDialog('edit', row)}
          extra={
            <>
              <Auth code={`${RECORD}_update`}>
                <Button type="link" size="small" icon={<LayoutOutlined />} onClick={() => setDesigning(row)} data-testid={`row-design-${row.id}`}>
                  {t('printTemplate.design')}
                </Button>
              </Auth>
              <Auth code={`${RECORD}_copy`}>
                <Button type="link" size="small" icon={<CopyOutlined />} onClick={() => setCopying(row)} data-testid={`row-copy-${row.id}`}>
                  {t('printTemplate.copy')}
                </Button>
              </Auth>
              {!row.isDefault && (
                <Auth code={`${RECORD}_update`}>
                  <Button type="link" size="small" icon={<StarOutlined />} onClick={() => void makeDefault(row)} data-testid={`row-default-${row.id}`}>
                    {t('printTemplate.setDefault')}
                  </Button>
                </Auth>
              )}
            </>
          }
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    [t, typeEnum, lang, recordColumns, writes, openDialog, makeDefault],
  );

  return (
    <div className="p8-system-print-template">
      <ProTable<PrintTemplateRow>
        data-testid="print-template-table"
        listType={RECORD}
        rowKey="id"
        columns={columns}
        request={listPrintTemplates}
        actionRef={table}
        rowSelection={can(`${RECORD}_delete|${RECORD}_export`)}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record={RECORD} onClick={() => openDialog('add')}>
              {t('printTemplate.add')}
            </AddButton>
            <Auth code={`${RECORD}_import`}>
              <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()} data-testid="print-template-import">
                {t('printTemplate.import')}
              </Button>
            </Auth>
            <Auth code={`${RECORD}_export`}>
              <Button icon={<DownloadOutlined />} disabled={!selectedRowKeys.length} onClick={() => void exportSelected(selectedRowKeys.map(Number))} data-testid="print-template-export">
                {t('printTemplate.export')}
              </Button>
            </Auth>
            <BatchButtons record={RECORD} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} />
          </>
        )}
      />
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="print-template-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
      <TemplateDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
      <CopyDialog source={copying} onClose={() => setCopying(undefined)} onCopied={reload} />
      {designing && (
        <Designer
          template={designing}
          onClose={() => setDesigning(undefined)}
          onSaved={() => {
            setDesigning(undefined);
            reload();
          }}
        />
      )}
    </div>
  );
}
