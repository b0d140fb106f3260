import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { Row } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SimpleRecord } from '@p8/contract/basic';
import type { TemplateKey } from '@p8/contract/tenant-config';
import FormDialog, { useFormDialog, type FormMode } from '../FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../ProTable/index.tsx';
import { testIdOf } from './record-key.ts';
import { AddButton, BatchButtons, ExcelButtons } from './RecordToolbar.tsx';
import RowActions from './RowActions.tsx';
import { useRecordColumns } from './record-columns.tsx';
import { useRecordWrites } from './use-record-writes.ts';
import { NameField, RemarkField, SortField } from './record-fields.tsx';
import './record-screens.css';

/** The form of a simple record; screens add their own fields (attribute values, fee kind). */
export interface SimpleForm {
  id?: number;
  name: string;
  sort?: number;
  remark?: string;
  [extra: string]: unknown;
}

export interface SimpleRecordPageProps<T extends SimpleRecord> {
  /** Menu key: button codes `basic_<record>_add`…, test ids `<record>-add`… */
  record: 'basic_unit' | 'basic_brand' | 'basic_attribute' | 'basic_fee' | 'basic_paytype';
  /**
   * i18n section of the record (`basic.unit`, `basic-partner.fee`) with its `entity` and `name`, and
   * where it has them `add` (the add button; default "add") and `importTitle` (default "batch import").
   */
  section: string;
  listPath: string;
  importPath: string;
  exportPath: string;
  template?: TemplateKey;
  templateUrl?: string;
  /** Add, update, delete, enable; delete and enable silent (the page names a refused record). */
  add: (body: { name: string; sort: number; remark: string } & Record<string, unknown>) => Promise<unknown>;
  update: (body: { id: number; name: string; sort: number; remark: string } & Record<string, unknown>) => Promise<unknown>;
  remove: (ids: number[]) => Promise<unknown>;
  enable: (ids: number[], enabled: boolean) => Promise<unknown>;
  /** Columns after the name. */
  extraColumns?: ProColumn<T>[];
  /** Form fields after the name. */
  extraFields?: (mode: FormMode) => ReactNode;
  /** The record's own fields of the form (edit / view). */
  formOf?: (row: T) => Record<string, unknown>;
  /** The record's own fields of a new record's form. */
  newFields?: Record<string, unknown>;
  /** The record's own fields of the body. */
  bodyOf?: (values: SimpleForm) => Record<string, unknown>;
  /** Query keys to refresh after a write (the option lists of other screens). */
  invalidate?: readonly unknown[];
  dialogWidth?: number;
}

/**
 * The list screen of the simple basic records (units, brands, attributes, fee types, pay types — the
 * server's "simple records"): search by name, remark and status (and the record's own fields); sorts;
 * add / edit / view dialog with name, sort and remark plus the record's own fields; delete (the server
 * refuses records in use); enable / disable; Excel import and export.
 */
export default function SimpleRecordPage<T extends SimpleRecord>(props: SimpleRecordPageProps<T>) {
  const { record, section, listPath, importPath, exportPath, template, templateUrl, add, update, remove, enable, extraColumns, extraFields, formOf, newFields, bodyOf, invalidate } = props;
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<T>>(undefined);
  const dialog = useFormDialog<SimpleForm>();
  const openDialog = dialog.open;
  const recordColumns = useRecordColumns();

  const changed = useCallback(() => {
    tableRef.current?.reload();
    if (invalidate) void queryClient.invalidateQueries({ queryKey: invalidate });
  }, [queryClient, invalidate]);
  const writes = useRecordWrites<T>({ table: tableRef, enable, remove, changed });

  const open = useCallback(
    (mode: FormMode, row: T) => openDialog(mode, { id: row.id, name: row.name, sort: row.sort, remark: row.remark, ...formOf?.(row) }),
    [openDialog, formOf],
  );

  const nameLabel = t(`${section}.name`);
  const columns = useMemo<ProColumn<T>[]>(
    () => [
      { prop: 'index', title: '#', valueType: 'index', width: 60, align: 'center', hideInSetting: true },
      { prop: 'name', title: nameLabel, search: true, sortable: true, lockSetting: true, width: 200 },
      ...(extraColumns ?? []),
      { prop: 'sort', title: t('basic.common.sort'), sortable: true, width: 90, align: 'center' },
      recordColumns.status<T>({
        record,
        writes,
        confirmOff: (row) => t('basic.common.disableConfirm', { name: row.name }),
        column: { width: 100, align: 'center', sortable: true },
      }),
      { prop: 'remark', title: t('basic.common.remark'), search: true, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<T>(200, (row) => (
        <RowActions record={record} id={row.id} name={row.name} onView={() => open('view', row)} onEdit={() => open('edit', row)} onDelete={() => writes.remove([row])} />
      )),
    ],
    [t, nameLabel, record, extraColumns, recordColumns, writes, open],
  );

  const submit = async (values: SimpleForm, mode: FormMode) => {
    const body = { name: values.name.trim(), sort: values.sort ?? 0, remark: values.remark?.trim() ?? '', ...bodyOf?.(values) };
    if (mode === 'add') await add(body);
    else await update({ ...body, id: dialog.props.initialValues!.id! });
    changed();
  };

  const own = (key: string) => (i18n.exists(`${section}.${key}`) ? t(`${section}.${key}`) : undefined);
  return (
    <div className="p8-basic-page" data-testid={testIdOf(record, 'page')}>
      <ProTable<T>
        path={listPath}
        listType={record}
        rowKey="id"
        columns={columns}
        rowSelection
        actionRef={tableRef}
        data-testid={testIdOf(record, 'table')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record={record} onClick={() => openDialog('add', { sort: 0, ...newFields })}>
              {own('add')}
            </AddButton>
            <BatchButtons record={record} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} onEnable={writes.setEnabled} />
          </>
        )}
        toolbarRight={
          <ExcelButtons
            record={record}
            importPath={importPath}
            template={template}
            templateUrl={templateUrl}
            title={own('importTitle')}
            exportPath={exportPath}
            exportParams={() => tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <FormDialog<SimpleForm> {...dialog.props} entity={t(`${section}.entity`)} width={props.dialogWidth ?? 560} onSubmit={submit} data-testid={testIdOf(record, 'dialog')}>
        {({ mode }) => (
          <Row gutter={16}>
            <NameField label={nameLabel} testId={testIdOf(record, 'name')} />
            {extraFields?.(mode)}
            <SortField testId={testIdOf(record, 'sort')} />
            <RemarkField />
          </Row>
        )}
      </FormDialog>
    </div>
  );
}
