import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { Button, Col, Form, Input, Row } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SimpleRecord } from '@p8/contract/basic';
import type { TemplateKey } from '@p8/contract/tenant-config';
import Auth from '../../../../components/Auth/index.tsx';
import FormDialog, { useFormDialog, type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../../components/ProTable/index.tsx';
import { BatchButtons, ExcelButtons, notifyDeleted, notifyEnabled, RowActions } from './record-kit.tsx';
import StatusSwitch from './status-switch.tsx';

/** The form of a simple record; screens add their own fields (attribute values). */
export interface SimpleForm {
  id?: number;
  name: string;
  sort?: number;
  remark?: string;
  [extra: string]: unknown;
}

export interface SimpleRecordPageProps<T extends SimpleRecord> {
  /** Route and button-code name: `basic_<record>_add`… */
  record: 'unit' | 'brand' | 'attribute';
  /** i18n section under `basic.` with `entity` and `name`. */
  section: string;
  listPath: string;
  importPath: string;
  exportPath: string;
  template?: TemplateKey;
  templateUrl?: string;
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
  /** The record's own fields of the body. */
  bodyOf?: (values: SimpleForm) => Record<string, unknown>;
  /** Query keys to refresh after a write (the option lists of other screens). */
  invalidate?: readonly unknown[];
  dialogWidth?: number;
}

/**
 * A list screen for the simple basic records (units, brands, attributes): search by name, remark and
 * status; sorts; add / edit / view dialog with name, sort and remark (plus the record's own fields);
 * delete (the server refuses records in use); enable / disable; Excel import and export.
 */
export default function SimpleRecordPage<T extends SimpleRecord>(props: SimpleRecordPageProps<T>) {
  const { record, section, listPath, importPath, exportPath, template, templateUrl, add, update, remove, enable, extraColumns, extraFields, formOf, bodyOf, invalidate } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<T>>(undefined);
  const dialog = useFormDialog<SimpleForm>();
  const openDialog = dialog.open;

  const changed = useCallback(() => {
    tableRef.current?.reload();
    if (invalidate) void queryClient.invalidateQueries({ queryKey: invalidate });
  }, [queryClient, invalidate]);

  const removeRows = useCallback(
    async (ids: number[]) => {
      await remove(ids);
      notifyDeleted(t);
      tableRef.current?.clearSelection();
      changed();
    },
    [remove, changed, t],
  );

  const enableRows = useCallback(
    async (ids: number[], enabled: boolean) => {
      await enable(ids, enabled);
      notifyEnabled(t, enabled);
      changed();
    },
    [enable, changed, t],
  );

  const open = useCallback(
    (mode: FormMode, row: T) => openDialog(mode, { id: row.id, name: row.name, sort: row.sort, remark: row.remark, ...formOf?.(row) }),
    [openDialog, formOf],
  );

  const columns = useMemo<ProColumn<T>[]>(
    () => [
      { prop: 'index', title: '#', valueType: 'index', width: 60, align: 'center', hideInSetting: true },
      { prop: 'name', title: t(`basic.${section}.name`), search: true, sortable: true, lockSetting: true, width: 200 },
      ...(extraColumns ?? []),
      { prop: 'sort', title: t('basic.common.sort'), sortable: true, width: 90, align: 'center' },
      {
        prop: 'enabled',
        title: t('basic.common.status'),
        width: 100,
        align: 'center',
        sortable: true,
        search: true,
        valueEnum: { true: { text: t('basic.common.enabled'), color: 'green' }, false: { text: t('basic.common.disabled') } },
        render: (_, row) => (
          <StatusSwitch
            code={`basic_${record}_enable`}
            checked={row.enabled}
            onChange={(on) => enableRows([row.id], on)}
            confirmOff={t('basic.common.disableConfirm', { name: row.name })}
            data-testid={`row-enable-${row.id}`}
          />
        ),
      },
      { prop: 'remark', title: t('basic.common.remark'), search: true, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      {
        prop: 'operation',
        title: t('basic.common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: 200,
        render: (_, row) => (
          <RowActions
            record={record}
            id={row.id}
            name={row.name}
            onView={() => open('view', row)}
            onEdit={() => open('edit', row)}
            onDelete={() => removeRows([row.id])}
          />
        ),
      },
    ],
    [t, section, record, extraColumns, enableRows, open, removeRows],
  );

  const submit = async (values: SimpleForm, mode: FormMode) => {
    const body = { name: values.name.trim(), sort: values.sort ?? 0, remark: values.remark?.trim() ?? '', ...bodyOf?.(values) };
    if (mode === 'add') await add(body);
    else await update({ ...body, id: dialog.props.initialValues!.id! });
    changed();
  };

  const entity = t(`basic.${section}.entity`);
  return (
    <div className="p8-basic-page" data-testid={`${record}-page`}>
      <ProTable<T>
        path={listPath}
        listType={`basic_${record}`}
        rowKey="id"
        columns={columns}
        rowSelection
        actionRef={tableRef}
        data-testid={`${record}-table`}
        scroll={{ x: 'max-content' }}
        toolbar={({ selectedRowKeys }) => (
          <>
            <Auth code={`basic_${record}_add`}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog('add', { sort: 0 })} data-testid={`${record}-add`}>
                {t('basic.common.add')}
              </Button>
            </Auth>
            <BatchButtons record={record} selectedKeys={selectedRowKeys} onDelete={removeRows} onEnable={enableRows} />
          </>
        )}
        toolbarRight={
          <ExcelButtons
            record={record}
            importPath={importPath}
            template={template}
            templateUrl={templateUrl}
            exportPath={exportPath}
            exportParams={() => tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <FormDialog<SimpleForm> {...dialog.props} entity={entity} width={props.dialogWidth ?? 560} onSubmit={submit} data-testid={`${record}-dialog`}>
        {({ mode }) => (
          <Row gutter={16}>
            <Col span={24}>
              <Form.Item
                name="name"
                label={t(`basic.${section}.name`)}
                rules={[{ required: true, whitespace: true, message: t('error.PleaseInputName') }, { max: 100 }]}
              >
                <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t(`basic.${section}.name`) })} data-testid={`${record}-name`} />
              </Form.Item>
            </Col>
            {extraFields?.(mode)}
            <Col span={24}>
              <Form.Item name="sort" label={t('basic.common.sort')} tooltip={t('basic.common.sortTip')}>
                <NumberInput integer min={0} max={999999} data-testid={`${record}-sort`} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label={t('basic.common.remark')}>
                <Input.TextArea rows={3} maxLength={500} showCount />
              </Form.Item>
            </Col>
          </Row>
        )}
      </FormDialog>
    </div>
  );
}
