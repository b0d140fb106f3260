import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Input, Modal, Space, Table, Tag, TreeSelect, Typography, type TableColumnType } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CategoryNode, Material, MaterialTag } from '@p8/contract/basic';
import { useDebounceFn } from '../../hooks/useDebounceFn.ts';
import Pager from '../ProTable/Pager.tsx';
import '../ProTable/pro-table.css';
import PictureSearchButton from '../PictureSearch/index.tsx';
import { getMaterial } from './api/get-material.ts';
import { getPickerCategories } from './api/get-picker-categories.ts';
import { listPickerMaterials } from './api/list-picker-materials.ts';

export interface MaterialPickerProps {
  open: boolean;
  onClose: () => void;
  /** Told with the chosen materials (in the order they were chosen) when the user confirms. */
  onOk: (materials: Material[]) => void;
  /** Several materials (checkboxes, default) or one (radio; a double click chooses at once). */
  multiple?: boolean;
  /** Materials that cannot be chosen (already on the bill, the parent of a BOM): shown, but disabled. */
  disabledIds?: readonly number[];
  /** Only materials carrying this business tag (purchase, sale, production…). */
  tag?: MaterialTag;
  title?: ReactNode;
  /** The first search (what was typed in the field that opened the picker). */
  keyword?: string;
}

const PAGE_SIZE = 10;

interface TreeOption {
  title: string;
  value: number;
  children?: TreeOption[];
}

const toOptions = (nodes: CategoryNode[]): TreeOption[] =>
  nodes.map((n) => ({ title: n.name, value: n.id, children: n.children?.length ? toOptions(n.children) : undefined }));

/**
 * Choose materials for a bill or a BOM (issue 4 "pickers"): enabled materials within the user's
 * assignment range, searched by code, name, specification, model or barcode and filtered by category,
 * paged on the server; the choice survives paging and searching. With the tenant's picture search, a
 * photo of the part finds it (docs/picture-search.md): the material chosen there is taken at once. Test ids: `material-picker`,
 * `material-picker-keyword`, `material-picker-category`, `material-picker-row-<id>`, `material-picker-ok`.
 */
export default function MaterialPicker(props: MaterialPickerProps) {
  // A fresh body per opening: no search or choice left from the last one.
  return props.open ? <PickerDialog {...props} /> : null;
}

function PickerDialog({ open, onClose, onOk, multiple = true, disabledIds, tag, title, keyword: typed = '' }: MaterialPickerProps) {
  const { t } = useTranslation();
  const [keywordText, setKeywordText] = useState(typed);
  const [keyword, setKeyword] = useState(typed.trim());
  const [categoryId, setCategoryId] = useState<number | undefined>();
  const [page, setPage] = useState({ current: 1, pageSize: PAGE_SIZE });
  const [chosen, setChosen] = useState<Material[]>([]);
  const search = useDebounceFn((text: string) => {
    setKeyword(text.trim());
    setPage((p) => ({ ...p, current: 1 }));
  });

  const categories = useQuery({ queryKey: ['pickers', 'material-categories'], queryFn: getPickerCategories, staleTime: 60_000 });
  const categoryOptions = useMemo(() => toOptions(categories.data ?? []), [categories.data]);
  const list = useQuery({
    queryKey: ['pickers', 'materials', { keyword, categoryId, tag, ...page }],
    queryFn: () => listPickerMaterials({ keyword: keyword || undefined, categoryId, tag, ...page }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.data ?? [];
  const blocked = useMemo(() => new Set(disabledIds ?? []), [disabledIds]);
  const chosenKeys = chosen.map((m) => m.id as Key);

  const toggle = (row: Material) => {
    if (blocked.has(row.id)) return;
    if (!multiple) return setChosen([row]);
    setChosen((list) => (list.some((m) => m.id === row.id) ? list.filter((m) => m.id !== row.id) : [...list, row]));
  };

  const confirm = (materials = chosen) => {
    if (!materials.length) return;
    onOk(materials);
    onClose();
  };

  const columns: TableColumnType<Material>[] = [
    { key: 'code', dataIndex: 'code', title: t('basic.material.code'), width: 140, ellipsis: true },
    { key: 'name', dataIndex: 'name', title: t('basic.material.name'), width: 180, ellipsis: true },
    { key: 'specification', dataIndex: 'specification', title: t('basic.material.specification'), width: 130, ellipsis: true, render: (v: string) => v || '—' },
    { key: 'model', dataIndex: 'model', title: t('basic.material.model'), width: 110, ellipsis: true, render: (v: string) => v || '—' },
    { key: 'categoryName', dataIndex: 'categoryName', title: t('basic.material.category'), width: 110, ellipsis: true, render: (v: string | null) => v || '—' },
    { key: 'mainUnitName', dataIndex: 'mainUnitName', title: t('basic.material.mainUnit'), width: 80, render: (v: string | null) => v || '—' },
    {
      key: 'tracking',
      title: t('basic.materialPicker.tracking'),
      width: 110,
      render: (_, row) => (
        <Space size={[0, 2]} wrap>
          {row.batchNumber && <Tag color="blue">{t('basic.material.batchShort')}</Tag>}
          {row.serialNumber && <Tag color="purple">{t('basic.material.serialShort')}</Tag>}
          {!row.batchNumber && !row.serialNumber && <span style={{ opacity: 0.45 }}>—</span>}
        </Space>
      ),
    },
  ];

  return (
    <Modal
      open={open}
      title={title ?? t('basic.materialPicker.title')}
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      modalRender={(node) => <div data-testid="material-picker">{node}</div>}
      footer={
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12 }}>
          <Typography.Text type="secondary" data-testid="material-picker-count" style={{ textAlign: 'start' }} ellipsis>
            {chosen.length
              ? t('basic.materialPicker.chosen', { count: chosen.length, names: chosen.map((m) => m.name).join(t('basic.common.listSeparator')) })
              : t('basic.materialPicker.noneChosen')}
          </Typography.Text>
          <Space>
            {multiple && chosen.length > 0 && (
              <Button onClick={() => setChosen([])} data-testid="material-picker-clear">
                {t('basic.materialPicker.clear')}
              </Button>
            )}
            <Button onClick={onClose}>{t('basic.common.cancel')}</Button>
            <Button type="primary" disabled={!chosen.length} onClick={() => confirm()} data-testid="material-picker-ok">
              {t('basic.common.confirm')}
            </Button>
          </Space>
        </div>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          allowClear
          autoFocus
          prefix={<SearchOutlined />}
          style={{ width: 380 }}
          value={keywordText}
          placeholder={t('basic.materialPicker.keyword')}
          onChange={(e) => {
            setKeywordText(e.target.value);
            search.run(e.target.value);
          }}
          onPressEnter={() => search.flush()}
          data-testid="material-picker-keyword"
        />
        <TreeSelect<number>
          allowClear
          showSearch={{ treeNodeFilterProp: 'title' }}
          style={{ width: 220 }}
          treeData={categoryOptions}
          value={categoryId}
          placeholder={t('basic.materialPicker.category')}
          onChange={(value) => {
            setCategoryId(value ?? undefined);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          data-testid="material-picker-category"
        />
        <PictureSearchButton
          target="material"
          action="choose"
          enabledOnly
          onOpen={(match) =>
            !blocked.has(match.id) &&
            void getMaterial(match.id)
              .then((material) => confirm([material]))
              .catch(() => undefined)
          }
        />
      </Space>
      <Table<Material>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        pagination={false}
        scroll={{ y: 380, x: 860 }}
        rowSelection={{
          type: multiple ? 'checkbox' : 'radio',
          selectedRowKeys: chosenKeys,
          preserveSelectedRowKeys: true,
          getCheckboxProps: (row) => ({ disabled: blocked.has(row.id) }),
          onSelect: (row) => toggle(row),
          onSelectAll: (selected, _rows, changeRows) => {
            const changing = changeRows.filter((r) => r && !blocked.has(r.id));
            setChosen((list) => (selected ? [...list, ...changing.filter((r) => !list.some((m) => m.id === r.id))] : list.filter((m) => !changing.some((r) => r.id === m.id))));
          },
        }}
        onRow={(row) => ({
          onClick: () => toggle(row),
          onDoubleClick: () => {
            if (!multiple && !blocked.has(row.id)) confirm([row]);
          },
          style: { cursor: blocked.has(row.id) ? 'not-allowed' : 'pointer' },
          'data-testid': `material-picker-row-${row.id}`,
        })}
      />
      <Pager
        current={page.current}
        pageSize={page.pageSize}
        total={list.data?.pagination.total ?? 0}
        onChange={(current, pageSize) => setPage({ current, pageSize })}
        disabled={list.isFetching}
      />
    </Modal>
  );
}
