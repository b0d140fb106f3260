import { useCallback, useMemo, useRef } from 'react';
import { Col, Result, Row } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recordKindByScreen } from '@p8/contract/records/catalogue';
import { lineSummaryKey, recordApiPath, recordMenuName, recordTitleField, type DeclaredRecord, type RecordKindDecl } from '@p8/contract/records/registry';
import { http } from '../../app/http.ts';
import { useCurrentMenu } from '../../app/dynamic-routes.ts';
import FormDialog, { useFormDialog, type FormMode } from '../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../components/ProTable/index.tsx';
import { testIdOf, type RecordKey } from '../../components/RecordKit/record-key.ts';
import { AddButton, BatchButtons, ExcelButtons } from '../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../components/RecordKit/record-columns.tsx';
import { useRecordWrites } from '../../components/RecordKit/use-record-writes.ts';
import { RemarkField, SortField } from '../../components/RecordKit/record-fields.tsx';
import { valueCell } from './kit.ts';
import { FieldItem, fieldColumn, newFieldValues, sentFieldValues, type Values } from './fields.tsx';
import RecordTree from './RecordTree.tsx';
import RecordLines, { newRecordLine, sentRecordLine } from './RecordLines.tsx';
import '../../components/RecordKit/record-screens.css';

/**
 * The one list screen of every declared record kind (packages/contract/src/records): the menu's path names
 * the kind, and the search, columns, dialog fields, buttons and their codes come from its declaration. A
 * new kind needs no screen of its own.
 */
export default function RecordScreen() {
  const menu = useCurrentMenu();
  const decl = menu ? recordKindByScreen(menu.path.replace(/^\//, '')) : undefined;
  const { t } = useTranslation();
  if (!decl) return <Result status="404" title={t('kit.record.unknownKind')} />;
  // A tree kind (material categories) is shown as a tree table.
  return decl.tree ? <RecordTree key={decl.kind} decl={decl} /> : <RecordList key={decl.kind} decl={decl} />;
}

function RecordList({ decl }: { decl: RecordKindDecl }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const queryClient = useQueryClient();
  const record = recordMenuName(decl) as RecordKey;
  const api = recordApiPath(decl);
  const title = recordTitleField(decl);
  const tableRef = useRef<ProTableAction<DeclaredRecord>>(undefined);
  const dialog = useFormDialog<Values>();
  const openDialog = dialog.open;
  const recordColumns = useRecordColumns();

  // Other screens' option lists of the kind (the material dialog's units and brands…) read it afresh.
  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: [decl.area, decl.kind] });
  }, [queryClient, decl]);
  const writes = useRecordWrites<DeclaredRecord>({
    table: tableRef,
    enable: (ids, enabled) => http.put<null>(`${api}/enable`, { ids, enabled }, { noLoading: true, silent: true }),
    remove: (ids) => http.delete<null>(api, { ids }, { silent: true }),
    changed,
  });

  // A kind with lines opens the record as its detail answers it (the list carries no lines).
  const open = useCallback(
    async (mode: FormMode, row: DeclaredRecord) => openDialog(mode, decl.lines ? await http.get<DeclaredRecord>(`${api}/${row.id}`) : { ...row }),
    [openDialog, decl, api],
  );

  const columns = useMemo<ProColumn<DeclaredRecord>[]>(
    () => [
      { prop: 'index', title: '#', valueType: 'index', width: 60, align: 'center', hideInSetting: true },
      ...decl.fields.map((field) => fieldColumn(field, lang, t)),
      // A kind with lines: them in one cell, by what names each (a routing's processes in order).
      ...(decl.lines ? [{ prop: lineSummaryKey(decl.lines), title: decl.lines.label[lang], width: 360, ellipsis: true, render: (v: unknown) => valueCell(v) } satisfies ProColumn<DeclaredRecord>] : []),
      { prop: 'sort', title: t('basic.common.sort'), sortable: true, width: 90, align: 'center' },
      recordColumns.status<DeclaredRecord>({
        record,
        writes,
        confirmOff: (row) => t('basic.common.disableConfirm', { name: String(row[title.key] ?? '') }),
        column: { width: 100, align: 'center', sortable: true },
      }),
      { prop: 'remark', title: t('basic.common.remark'), search: true, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<DeclaredRecord>(200, (row) => (
        <RowActions record={record} id={row.id} name={String(row[title.key] ?? '')} onView={() => open('view', row)} onEdit={() => open('edit', row)} onDelete={() => writes.remove([row])} />
      )),
    ],
    [t, lang, decl, title, record, recordColumns, writes, open],
  );

  const submit = async (values: Values, mode: FormMode) => {
    const body = sentFieldValues(decl, values);
    if (decl.lines) body[decl.lines.key] = ((values[decl.lines.key] as Values[] | undefined) ?? []).map((line) => sentRecordLine(decl.lines!, line));
    if (mode === 'add') await http.post(api, body);
    else await http.put(api, { ...body, id: dialog.props.initialValues!.id! });
    changed();
  };

  const newValues = useMemo(() => {
    const values = newFieldValues(decl);
    if (decl.lines) values[decl.lines.key] = Array.from({ length: Math.max(1, decl.lines.min) }, () => newRecordLine(decl.lines!));
    return values;
  }, [decl]);

  return (
    <div className="p8-basic-page" data-testid={testIdOf(record, 'page')}>
      <ProTable<DeclaredRecord>
        path={api}
        listType={record}
        rowKey="id"
        columns={columns}
        rowSelection
        actionRef={tableRef}
        data-testid={testIdOf(record, 'table')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record={record} onClick={() => openDialog('add', newValues)} />
            <BatchButtons record={record} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} onEnable={writes.setEnabled} />
          </>
        )}
        toolbarRight={
          <ExcelButtons
            record={record}
            importPath={`${api}/import`}
            templateUrl={`/api/base/template/${decl.template}.xlsx`}
            exportPath={`${api}/export`}
            exportParams={() => tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <FormDialog<Values> {...dialog.props} entity={decl.noun[lang]} width={decl.lines ? 960 : decl.fields.some((f) => f.kind === 'values') ? 640 : 560} onSubmit={submit} data-testid={testIdOf(record, 'dialog')}>
        {({ mode }) => (
          <Row gutter={16}>
            {decl.fields.map((field) => (
              <FieldItem key={field.key} field={field} record={record} lang={lang} half={Boolean(decl.lines) && field.kind !== 'textarea'} generated={decl.generatedCode?.field === field.key} />
            ))}
            <SortField testId={testIdOf(record, 'sort')} />
            <RemarkField />
            {decl.lines && (
              <Col span={24}>
                <RecordLines lines={decl.lines} record={record} lang={lang} view={mode === 'view'} />
              </Col>
            )}
          </Row>
        )}
      </FormDialog>
    </div>
  );
}
