import { useCallback, useMemo, useRef, useState } from 'react';
import { Button } from 'antd';
import { ApartmentOutlined, CalculatorOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Bom } from '@p8/contract/basic';
import { useFormDialog, type FormMode } from '../../../components/FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ExcelButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteBoms } from './api/delete-boms.ts';
import { enableBoms } from './api/enable-boms.ts';
import { BOM_EXPORT_PATH } from './api/export-boms.ts';
import { getBom } from './api/get-bom.ts';
import { BOM_IMPORT_PATH } from './api/import-boms.ts';
import { BOM_LIST_PATH } from './api/list-boms.ts';
import BomDialog, { formOfBom, NEW_BOM, type BomForm } from './components/bom-dialog.tsx';
import StructureDrawer, { type StructureTab } from './components/structure-drawer.tsx';
import '../../../components/RecordKit/record-screens.css';

/** A BOM as its delete question and a refusal name it: the parent material and the version. */
const nameOf = (bom: Bom) => `${bom.materialName} ${bom.version}`;
const named = (bom: Bom) => ({ ...bom, name: nameOf(bom) });

/**
 * Basic records → bills of materials: each BOM makes a parent material from lines of child materials
 * (quantity, loss rate, unit). The list searches by parent code and name, version, default and status;
 * a row opens its multi-level structure or the exploded requirement for a quantity, and can be viewed,
 * edited, deleted, enabled; Excel import (one row per line) and export.
 */
export default function BomPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<Bom>>(undefined);
  const dialog = useFormDialog<BomForm>();
  const openDialog = dialog.open;
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const [structure, setStructure] = useState<{ bom: Bom | null; tab: StructureTab }>({ bom: null, tab: 'tree' });

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: ['basic', 'bom'] });
  }, [queryClient]);

  const writes = useRecordWrites<Bom>({ table: tableRef, enable: enableBoms, remove: deleteBoms, changed });
  const recordColumns = useRecordColumns();

  const open = useCallback(
    async (mode: FormMode, row: Bom) => {
      setLoadingId(row.id);
      try {
        openDialog(mode, formOfBom(await getBom(row.id)));
      } catch {
        /* shown by the HTTP client */
      } finally {
        setLoadingId(null);
      }
    },
    [openDialog],
  );

  const columns = useMemo<ProColumn<Bom>[]>(
    () => [
      { prop: 'materialCode', title: t('basic.bom.materialCode'), search: true, sortable: true, lockSetting: true, width: 150, fixed: 'left' },
      { prop: 'materialName', title: t('basic.bom.materialName'), search: true, sortable: true, width: 180, ellipsis: true },
      { prop: 'specification', title: t('basic.material.specification'), width: 130, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'lowLevelCode', title: t('basic.material.lowLevelCode'), width: 130, align: 'right' },
      { prop: 'version', title: t('basic.bom.version'), search: true, sortable: true, width: 110 },
      { prop: 'quantity', title: t('basic.bom.quantity'), valueType: 'number', width: 100 },
      {
        prop: 'isDefault',
        title: t('basic.bom.isDefault'),
        width: 90,
        align: 'center',
        search: true,
        sortable: true,
        valueEnum: { true: { text: t('basic.bom.default'), color: 'gold' }, false: { text: t('basic.common.no') } },
      },
      { prop: 'lineCount', title: t('basic.bom.lineCount'), width: 90, align: 'right' },
      { prop: 'routingName', title: t('basic.bom.routing'), width: 150, ellipsis: true, render: (v) => (v as string) || '—' },
      recordColumns.status<Bom>({
        record: 'basic_bom',
        writes,
        confirmOff: (row) => t('basic.bom.disableConfirm', { version: row.version }),
        column: { width: 90, align: 'center', sortable: true },
      }),
      { prop: 'remark', title: t('basic.common.remark'), width: 160, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      recordColumns.actions<Bom>(330, (row) => (
        <RowActions
          record="basic_bom"
          id={row.id}
          name={nameOf(row)}
          before={
            <>
              <Button type="link" size="small" icon={<ApartmentOutlined />} onClick={() => setStructure({ bom: row, tab: 'tree' })} data-testid={`row-tree-${row.id}`}>
                {t('basic.bom.structure')}
              </Button>
              <Button type="link" size="small" icon={<CalculatorOutlined />} onClick={() => setStructure({ bom: row, tab: 'explode' })} data-testid={`row-explode-${row.id}`}>
                {t('basic.bom.explode')}
              </Button>
            </>
          }
          onView={() => void open('view', row)}
          onEdit={() => void open('edit', row)}
          editLoading={loadingId === row.id}
          onDelete={() => writes.remove([named(row)])}
        />
      )),
    ],
    [t, recordColumns, writes, open, loadingId],
  );

  return (
    <div className="p8-basic-page" data-testid="bom-page">
      <ProTable<Bom>
        path={BOM_LIST_PATH}
        listType="basic_bom"
        rowKey="id"
        columns={columns}
        rowSelection
        actionRef={tableRef}
        data-testid="bom-table"
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="basic_bom" onClick={() => openDialog('add', NEW_BOM)} />
            <BatchButtons record="basic_bom" selectedKeys={selectedRowKeys} selectedRows={selectedRows.map(named)} onDelete={writes.remove} onEnable={writes.setEnabled} />
          </>
        )}
        toolbarRight={
          <ExcelButtons
            record="basic_bom"
            importPath={BOM_IMPORT_PATH}
            template="bom"
            exportPath={BOM_EXPORT_PATH}
            exportParams={() => tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <BomDialog {...dialog.props} onSaved={changed} />
      <StructureDrawer bom={structure.bom} tab={structure.tab} onTab={(tab) => setStructure((s) => ({ ...s, tab }))} onClose={() => setStructure((s) => ({ ...s, bom: null }))} />
    </div>
  );
}
