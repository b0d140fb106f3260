import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Image, Popconfirm, Space, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MallCategoryNode, MallProductRow } from '@p8/contract/mall';
import PictureSearchButton from '../../../components/PictureSearch/index.tsx';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import type { TreeOption } from '../../../components/ProTable/types.ts';
import { AddButton, BatchButtons, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { SaveSwitch } from '../../../components/RecordKit/StatusSwitch.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useFormDialog } from '../../../components/FormDialog/index.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { useMallCategoryTree } from '../../../components/Mall/api/get-mall-category-tree.ts';
import { yuan } from '../../../components/Mall/money.ts';
import { deleteProducts } from './api/delete-products.ts';
import { getProduct, listProducts } from './api/products.ts';
import { setShelves } from './api/set-shelves.ts';
import ProductDialog, { formOfProduct, NEW_PRODUCT, type ProductForm } from './components/product-dialog.tsx';

const toOptions = (nodes: MallCategoryNode[]): TreeOption[] => nodes.map((n) => ({ title: n.name, value: n.id, children: n.children ? toOptions(n.children) : undefined }));

/**
 * Mall → products: the list with image, price range, stock, sales and shelf switch; add / edit / view
 * in the product dialog (basics, the SKU editor, the detail); put on or take off the shelf, one or many;
 * delete (off the shelf only).
 */
export default function ProductPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall' });
  const { message } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<MallProductRow>>(undefined);
  const categories = useMallCategoryTree();
  const dialog = useFormDialog<ProductForm>();
  const [editing, setEditing] = useState<{ id?: number; loading?: number }>({});
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<MallProductRow>({ table, remove: deleteProducts });
  const recordColumns = useRecordColumns();
  const openDialog = dialog.open;

  const open = useCallback(
    async (mode: 'view' | 'edit', row: Pick<MallProductRow, 'id'>) => {
      setEditing({ loading: row.id });
      try {
        const product = await getProduct(row.id);
        setEditing({ id: row.id });
        openDialog(mode, formOfProduct(product));
      } catch {
        setEditing({});
      }
    },
    [openDialog],
  );

  const shelve = useCallback(
    async (ids: number[], onShelf: boolean) => {
      await setShelves(ids, onShelf);
      void message.success(t('product.shelvesDone'));
      reload();
    },
    [message, t, reload],
  );

  const columns = useMemo<ProColumn<MallProductRow>[]>(
    () => [
      {
        prop: 'image',
        title: t('product.image'),
        width: 72,
        align: 'center',
        hideInSetting: true,
        render: (v) => (v ? <Image src={String(v)} width={44} height={44} style={{ objectFit: 'cover', borderRadius: 4 }} /> : t('common.none')),
      },
      {
        prop: 'name',
        title: t('product.name'),
        search: true,
        lockSetting: true,
        width: 260,
        render: (_, row) => (
          <div>
            <Typography.Text strong ellipsis={{ tooltip: row.name }} style={{ maxWidth: 240 }}>
              {row.name}
            </Typography.Text>
            {row.subtitle && (
              <div>
                <Typography.Text type="secondary" ellipsis={{ tooltip: row.subtitle }} style={{ maxWidth: 240, fontSize: 12 }}>
                  {row.subtitle}
                </Typography.Text>
              </div>
            )}
          </div>
        ),
      },
      {
        prop: 'categoryId',
        title: t('product.category'),
        width: 140,
        search: { type: 'treeSelect', treeData: toOptions(categories.data ?? []) },
        render: (_, row) => row.categoryName ?? t('common.none'),
      },
      {
        prop: 'minPrice',
        title: t('product.price'),
        width: 190,
        align: 'right',
        render: (_, row) => (row.minPrice === row.maxPrice ? yuan(row.minPrice) : t('product.priceRange', { min: row.minPrice.toFixed(2), max: row.maxPrice.toFixed(2) })),
      },
      { prop: 'stock', title: t('product.stock'), width: 90, align: 'right', render: (v) => <Typography.Text type={Number(v) === 0 ? 'danger' : undefined}>{String(v)}</Typography.Text> },
      { prop: 'sales', title: t('product.sales'), width: 90, align: 'right' },
      { prop: 'skuCount', title: t('product.skuCount'), width: 80, align: 'right' },
      {
        prop: 'onShelf',
        title: t('product.onShelfStatus'),
        width: 120,
        align: 'center',
        // Beside the row actions at the right edge: at 1440 px the shelf state is seen without scrolling.
        fixed: 'right',
        search: true,
        valueEnum: { true: { text: t('product.on'), color: 'green' }, false: { text: t('product.off') } },
        render: (_, row) => (
          <SaveSwitch
            checked={row.onShelf}
            labels={[t('product.on'), t('product.off')]}
            disabled={!can('mall_product_shelves')}
            onChange={(next) => shelve([row.id], next)}
            aria-label={t('product.onShelf')}
            data-testid={`product-shelf-${row.id}`}
          />
        ),
      },
      { prop: 'materialName', title: t('product.material'), width: 140, render: (v) => (v ? String(v) : t('common.none')) },
      { prop: 'sort', title: t('common.sort'), width: 70, align: 'center' },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<MallProductRow>(180, (row) => (
        <RowActions
          record="mall_product"
          id={row.id}
          name={row.name}
          viewLoading={editing.loading === row.id}
          editLoading={editing.loading === row.id}
          onView={() => void open('view', row)}
          onEdit={() => void open('edit', row)}
          onDelete={() => writes.remove([row])}
          deleteBlocked={row.onShelf ? t('product.deleteOnShelfTip') : undefined}
        />
      )),
    ],
    [t, categories.data, can, shelve, recordColumns, editing.loading, open, writes],
  );

  return (
    <div data-testid="mall-product-page">
      <ProTable<MallProductRow>
        data-testid="product-table"
        listType="mall_product"
        rowKey="id"
        columns={columns}
        request={listProducts}
        actionRef={table}
        rowSelection={can('mall_product_delete') || can('mall_product_shelves')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton
              record="mall_product"
              onClick={() => {
                setEditing({});
                openDialog('add', NEW_PRODUCT);
              }}
            >
              {t('product.add')}
            </AddButton>
            <PictureSearchButton target="product" onOpen={(match) => void open('view', match)} />
            <Auth code="mall_product_shelves">
              <Space.Compact>
                <Button icon={<ArrowUpOutlined />} disabled={!selectedRowKeys.length} onClick={() => void shelve(selectedRowKeys.map(Number), true)} data-testid="product-on-selected">
                  {t('product.putOnSelected')}
                </Button>
                <Popconfirm title={t('product.takeOffSelected')} disabled={!selectedRowKeys.length} onConfirm={() => shelve(selectedRowKeys.map(Number), false)}>
                  <Button icon={<ArrowDownOutlined />} disabled={!selectedRowKeys.length} data-testid="product-off-selected">
                    {t('product.takeOffSelected')}
                  </Button>
                </Popconfirm>
              </Space.Compact>
            </Auth>
            <BatchButtons record="mall_product" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} />
          </>
        )}
        toolbarRight={<ExportRecordsButton record="mall_product" exportPath="/admin/mall/product/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <ProductDialog {...dialog.props} id={editing.id} categories={categories.data ?? []} onSaved={reload} />
    </div>
  );
}
