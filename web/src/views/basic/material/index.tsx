import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Image, Space, Tag, Tooltip } from 'antd';
import { TagsOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MaterialTag, PartKind, type Assignment, type Material } from '@p8/contract/basic';
import { feedback } from '../../../app/feedback.ts';
import type { QueryParams } from '../../../app/http.ts';
import Auth from '../../../components/Auth/index.tsx';
import AssignDialog from '../../../components/Pickers/AssignDialog.tsx';
import LabelPrint from '../../../components/LabelPrint/index.tsx';
import { labelPrintCode } from '@p8/contract/print/label';
import { useFormDialog, type FormMode } from '../../../components/FormDialog/index.tsx';
import PictureSearchButton from '../../../components/PictureSearch/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ExcelButtons } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { useTenantConfig } from '../../../hooks/useTenantConfig.ts';
import { brandOptionsQuery } from '../../../components/Pickers/api/list-brand-options.ts';
import { categoryTreeQueryKey, useCategoryTree } from '../../../components/Pickers/api/get-category-tree.ts';
import { assignMaterials } from './api/assign-materials.ts';
import { deleteMaterials } from './api/delete-materials.ts';
import { enableMaterials } from './api/enable-materials.ts';
import { MATERIAL_EXPORT_PATH } from './api/export-materials.ts';
import { getMaterial } from '../../../components/Pickers/api/get-material.ts';
import { MATERIAL_IMPORT_PATH } from './api/import-materials.ts';
import { MATERIAL_LIST_PATH, MATERIAL_STATISTICS_PATH } from './api/list-materials.ts';
import CategoryPanel from './components/category-panel.tsx';
import MaterialDialog, { formOfMaterial, NEW_MATERIAL, type MaterialForm } from './components/material-dialog.tsx';
import { PART_KIND_COLORS, TAG_COLORS } from './components/material-enums.ts';
import '../../../components/RecordKit/record-screens.css';

interface AssignState {
  open: boolean;
  ids: number[];
  current?: Assignment;
}

/**
 * Basic records → materials: the category tree on the left filters the list (a category includes the
 * ones below it); the list searches by code, name, specification, model, brand, tag, part kind,
 * tracking and status, sorts, sums the stock, and offers add / edit / view in a tabbed dialog, delete,
 * enable, Excel import and export, and assignment to departments and staff when the tenant's
 * applyRangeMaterial is on; and, when the tenant has picture search, finding a material by a photo of it.
 */
export default function MaterialPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { config } = useTenantConfig();
  const tableRef = useRef<ProTableAction<Material>>(undefined);
  const dialog = useFormDialog<MaterialForm>();
  const openDialog = dialog.open;
  const categories = useCategoryTree();
  const brands = useQuery(brandOptionsQuery);
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [treeFolded, setTreeFolded] = useState(false);
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const [assign, setAssign] = useState<AssignState>({ open: false, ids: [] });
  // The selection whose labels (or box labels) are being printed.
  const [labelled, setLabelled] = useState<Material[] | null>(null);
  const rangeOn = !!config?.applyRangeMaterial;
  const openTaxRate = !!config?.openTaxRate;

  const params = useMemo<QueryParams>(() => ({ categoryId }), [categoryId]);

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: ['basic', 'material'] });
  }, [queryClient]);

  const writes = useRecordWrites<Material>({ table: tableRef, enable: enableMaterials, remove: deleteMaterials, changed });
  const recordColumns = useRecordColumns();

  /** Edit and view need the units, which only the detail has. */
  const open = useCallback(
    async (mode: FormMode, row: Pick<Material, 'id'>) => {
      setLoadingId(row.id);
      try {
        openDialog(mode, formOfMaterial(await getMaterial(row.id)));
      } catch {
        /* shown by the HTTP client */
      } finally {
        setLoadingId(null);
      }
    },
    [openDialog],
  );

  const openAssign = async (ids: number[]) => {
    if (ids.length !== 1) return setAssign({ open: true, ids });
    try {
      const detail = await getMaterial(ids[0]);
      setAssign({ open: true, ids, current: detail.assignment });
    } catch {
      /* shown by the HTTP client */
    }
  };

  const brandOptions = useMemo(() => (brands.data ?? []).map((b) => ({ value: b.id, label: b.name })), [brands.data]);
  const yesNo = useMemo(() => ({ true: { text: t('basic.common.yes'), color: 'blue' }, false: { text: t('basic.common.no') } }), [t]);

  const columns = useMemo<ProColumn<Material>[]>(
    () => [
      {
        prop: 'images',
        title: t('basic.material.image'),
        width: 64,
        align: 'center',
        render: (_, row) =>
          row.images[0] ? (
            <Image src={row.images[0]} width={36} height={36} style={{ objectFit: 'cover', borderRadius: 4 }} preview={{ src: row.images[0] }} alt={row.name} />
          ) : (
            <span className="p8-basic-muted">—</span>
          ),
      },
      { prop: 'code', title: t('basic.material.code'), search: { label: t('basic.material.codeShort') }, sortable: true, lockSetting: true, width: 140 },
      { prop: 'name', title: t('basic.material.name'), search: { label: t('basic.material.nameShort') }, sortable: true, lockSetting: true, width: 180, ellipsis: true },
      { prop: 'specification', title: t('basic.material.specification'), search: true, sortable: true, width: 130, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'model', title: t('basic.material.model'), search: true, width: 120, ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'categoryName', title: t('basic.material.category'), width: 120, ellipsis: true, render: (v) => (v as string) || '—' },
      {
        prop: 'brandName',
        title: t('basic.material.brand'),
        width: 110,
        ellipsis: true,
        search: { key: 'brandId', type: 'select', options: brandOptions, props: { showSearch: { optionFilterProp: 'label' } } },
        render: (v) => (v as string) || '—',
      },
      { prop: 'mainUnitName', title: t('basic.material.mainUnit'), width: 90, align: 'center', render: (v) => (v as string) || '—' },
      {
        prop: 'tags',
        title: t('basic.material.tags'),
        width: 180,
        search: { key: 'tag', type: 'select', options: MaterialTag.map((k) => ({ value: k, label: t(`basic.tag.${k}`) })) },
        render: (_, row) =>
          row.tags.length ? (
            <Space size={[0, 4]} wrap>
              {row.tags.map((tag) => (
                <Tag key={tag} color={TAG_COLORS[tag]}>
                  {t(`basic.tag.${tag}`)}
                </Tag>
              ))}
            </Space>
          ) : (
            '—'
          ),
      },
      {
        prop: 'partKind',
        title: t('basic.material.partKind'),
        width: 100,
        align: 'center',
        search: true,
        valueEnum: Object.fromEntries(PartKind.map((k) => [k, { text: t(`basic.partKind.${k}`), color: PART_KIND_COLORS[k] }])),
      },
      { prop: 'batchNumber', title: t('basic.material.batchNumber'), width: 100, align: 'center', search: true, valueEnum: yesNo },
      { prop: 'serialNumber', title: t('basic.material.serialNumber'), width: 110, align: 'center', search: true, valueEnum: yesNo },
      { prop: 'safetyStock', title: t('basic.material.safetyStock'), valueType: 'number', sortable: true, width: 110 },
      { prop: 'lowLevelCode', title: t('basic.material.lowLevelCode'), width: 130, align: 'right' },
      { prop: 'stockQuantity', title: t('basic.material.stock'), valueType: 'number', sortable: true, sum: true, width: 110 },
      { prop: 'purchasePrice', title: t('basic.material.purchasePrice'), valueType: 'amount', sortable: true, width: 110 },
      { prop: 'salePrice', title: t('basic.material.salePrice'), valueType: 'amount', sortable: true, width: 110 },
      { prop: 'retailPrice', title: t('basic.material.retailPrice'), valueType: 'amount', sortable: true, width: 110 },
      {
        prop: 'taxRate',
        title: t('basic.material.taxRate'),
        width: 90,
        align: 'right',
        // Only while the tenant has tax rates on.
        hideInTable: !openTaxRate,
        render: (v) => (v === null || v === undefined ? '—' : `${v as number}%`),
      },
      { prop: 'materialQuality', title: t('basic.material.quality'), search: true, width: 110, ellipsis: true, hideInTable: true },
      recordColumns.status<Material>({
        record: 'basic_material',
        writes,
        confirmOff: (row) => t('basic.material.disableConfirm', { name: row.name }),
        column: { width: 90, align: 'center', sortable: true },
      }),
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      recordColumns.actions<Material>(200, (row) => (
        <RowActions
          record="basic_material"
          id={row.id}
          name={row.name}
          onView={() => void open('view', row)}
          onEdit={() => void open('edit', row)}
          editLoading={loadingId === row.id}
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    [t, brandOptions, yesNo, openTaxRate, recordColumns, writes, open, loadingId],
  );

  return (
    <div className="p8-basic-page p8-basic-split" data-testid="material-page">
      <CategoryPanel
        tree={categories.data ?? []}
        loading={categories.isPending}
        value={categoryId}
        onChange={setCategoryId}
        onReload={() => void queryClient.invalidateQueries({ queryKey: categoryTreeQueryKey })}
        folded={treeFolded}
        onFold={setTreeFolded}
      />
      <div className="p8-basic-split-main">
        <ProTable<Material>
          path={MATERIAL_LIST_PATH}
          statistics={MATERIAL_STATISTICS_PATH}
          params={params}
          listType="basic_material"
          rowKey="id"
          columns={columns}
          rowSelection
          actionRef={tableRef}
          data-testid="material-table"
          toolbar={({ selectedRowKeys, selectedRows }) => (
            <>
              <AddButton record="basic_material" onClick={() => openDialog('add', { ...NEW_MATERIAL, categoryId })} />
              <PictureSearchButton target="material" onOpen={(match) => void open('view', match)} />
              <BatchButtons record="basic_material" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} onEnable={writes.setEnabled} />
              <Auth code={labelPrintCode('material')}>
                <Button icon={<TagsOutlined />} disabled={!selectedRows.length} onClick={() => setLabelled(selectedRows)} data-testid="material-labels">
                  {t('label.print')}
                </Button>
              </Auth>
              {rangeOn && (
                <Auth code="basic_material_assign">
                  <Tooltip title={selectedRowKeys.length ? undefined : t('basic.material.assignSelectFirst')}>
                    <Button icon={<TeamOutlined />} disabled={!selectedRowKeys.length} onClick={() => void openAssign(selectedRowKeys.map(Number))} data-testid="material-assign">
                      {t('basic.material.assign')}
                    </Button>
                  </Tooltip>
                </Auth>
              )}
            </>
          )}
          toolbarRight={
            <ExcelButtons
              record="basic_material"
              importPath={MATERIAL_IMPORT_PATH}
              template="material"
              exportPath={MATERIAL_EXPORT_PATH}
              exportParams={() => tableRef.current?.getFilterParams() ?? {}}
              onImported={changed}
            />
          }
        />
      </div>
      {labelled && <LabelPrint kinds={['material', 'box']} records={labelled} onClose={() => setLabelled(null)} />}
      <MaterialDialog {...dialog.props} categories={categories.data ?? []} onSaved={changed} />
      <AssignDialog
        open={assign.open}
        title={t('basic.material.assignTitle', { count: assign.ids.length })}
        initial={assign.current}
        onClose={() => setAssign((s) => ({ ...s, open: false }))}
        onSubmit={async (assignment) => {
          await assignMaterials({ ids: assign.ids, ...assignment });
          feedback.message.success(t('basic.material.assigned'));
          tableRef.current?.clearSelection();
          changed();
        }}
        data-testid="material-assign-dialog"
      />
    </div>
  );
}
