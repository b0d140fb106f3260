import { useCallback, useMemo, useRef, useState, type Key, type ReactNode, type RefObject } from 'react';
import { Button, Col, Form, Space, Tooltip, TreeSelect } from 'antd';
import { MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { QueryParams } from '../../app/http.ts';
import { Auth } from '../Auth/index.tsx';
import { useFormDialog, type FormMode } from '../FormDialog/index.tsx';
import ProTable, { type ProColumn, type ProTableAction, type ProTableProps } from '../ProTable/index.tsx';
import { codeOf, testIdOf, type RecordKey } from './record-key.ts';
import { AddButton, BatchButtons } from './RecordToolbar.tsx';
import { useRecordColumns } from './record-columns.tsx';
import RowActions from './RowActions.tsx';
import { useRecordWrites, type RecordWrites } from './use-record-writes.ts';
import { countTree, filterTree, mapTree, parentIds, subtreeDepth, subtreeIds, type TreeItem } from '../Tree/tree-utils.ts';

/*
 * The tree-shaped records (declared trees such as material categories, districts, mall categories): a
 * parent_id tree of limited depth shown as a tree table, searched in the browser, with "add below" on each
 * row and a parent picker in the dialog. Their texts (`TreeTexts`) come from a declared kind's `tree`
 * (views/records) or from a record's i18n section (`sectionTreeTexts`).
 */

/** What a tree screen says about its tree. */
export interface TreeTexts {
  /** The row link adding a record below. */
  addChild: string;
  /** Why the deepest level's rows add nothing below (the depth already filled in). */
  maxLevelTip: string;
  /** Why a row with children cannot be deleted. */
  hasChildrenTip: string;
  /** The parent picker's label, hint and placeholder. */
  parent: string;
  parentTip: string;
  parentPlaceholder: string;
}

/** The tree texts of a record's i18n section (`mall.category`): `addChild`, `maxLevelTip`, `hasChildrenTip`, `parent`, `parentTip`, `parentPlaceholder`. */
export function sectionTreeTexts(t: (key: string, options?: Record<string, unknown>) => string, section: string, maxLevel: number): TreeTexts {
  return {
    addChild: t(`${section}.addChild`),
    maxLevelTip: t(`${section}.maxLevelTip`, { max: maxLevel }),
    hasChildrenTip: t(`${section}.hasChildrenTip`),
    parent: t(`${section}.parent`),
    parentTip: t(`${section}.parentTip`),
    parentPlaceholder: t(`${section}.parentPlaceholder`),
  };
}

export interface TreeRecord<T> extends TreeItem<T> {
  name: string;
  level: number;
}

/** What the search form's values ask of the tree. */
export interface TreeSearch<T> {
  /** A search is on: every row leading to a match opens. */
  active: boolean;
  /** Keeps the nodes that match and the path to them; without it the whole tree shows. */
  match?: (node: T) => boolean;
}

interface TreeTableOptions<T> {
  /** Loads the whole tree for the search form's values (a filter the server applies goes here). */
  load: (params: QueryParams) => Promise<T[]>;
  search: (params: QueryParams) => TreeSearch<T>;
  /**
   * Rows open the first time they are seen (a small tree); otherwise only a search, the user, or adding
   * a record below a row opens them.
   */
  openNewRows: boolean;
}

interface TreeTable<T> {
  /** Spread on the ProTable. */
  tableProps: Pick<ProTableProps<T>, 'request' | 'onLoad' | 'rowKey' | 'pagination' | 'expandable'>;
  expandAll: () => void;
  collapseAll: () => void;
  /** Opens one row. */
  expand: (id: number) => void;
}

/**
 * The tree table: one request for the whole tree, filtered here, and which rows are open — kept across
 * reloads (the rows the user folded stay folded).
 */
function useTreeTable<T extends TreeItem<T>>({ load, search, openNewRows }: TreeTableOptions<T>): TreeTable<T> {
  const [rows, setRows] = useState<T[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const seenParents = useRef(new Set<number>());
  const searching = useRef(false);

  const request = useCallback(
    async (params: QueryParams) => {
      const { active, match } = search(params);
      searching.current = active;
      const tree = await load(params);
      const data = match ? filterTree(tree, match) : tree;
      const total = countTree(data);
      return { data, pagination: { current: 1, pageSize: total, total } };
    },
    [load, search],
  );

  const onLoad = useCallback(
    (data: T[]) => {
      setRows(data);
      const parents = parentIds(data);
      // Outside the updater: React may run an updater twice, and the second run would see nothing fresh.
      const fresh = openNewRows ? parents.filter((id) => !seenParents.current.has(id)) : [];
      parents.forEach((id) => seenParents.current.add(id));
      setExpanded((current) => (searching.current ? parents : [...current.filter((k) => parents.includes(Number(k))), ...fresh]));
    },
    [openNewRows],
  );

  const allParents = useMemo(() => parentIds(rows), [rows]);
  const tableProps: TreeTable<T>['tableProps'] = {
    request,
    onLoad,
    rowKey: 'id',
    pagination: false,
    expandable: { expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]), indentSize: 20 },
  };
  const expandAll = useCallback(() => setExpanded(allParents), [allParents]);
  const collapseAll = useCallback(() => setExpanded([]), []);
  const expand = useCallback((id: number) => setExpanded((keys) => (keys.includes(id) ? keys : [...keys, id])), []);
  return { tableProps, expandAll, collapseAll, expand };
}

interface TreeRecordsOptions<T, F> extends TreeTableOptions<T> {
  /** Query key of the whole tree (the dialog's parent picker, other screens' pickers): refreshed after every write. */
  treeQueryKey: readonly unknown[];
  /** Delete and (for records with a status) enable; silent, the page names a refused record. */
  remove: (ids: number[]) => Promise<unknown>;
  enable?: (ids: number[], enabled: boolean) => Promise<unknown>;
  /** The dialog's values of a row (edit / view). */
  formOf: (row: T) => Partial<F>;
}

/** What the tree table of the page works with. */
interface TreeRecordsTable<T> {
  tableRef: RefObject<ProTableAction<T> | undefined>;
  tree: TreeTable<T>;
  writes: RecordWrites<T>;
  canEnable: boolean;
  open: (mode: 'view' | 'edit', row: T) => void;
  /** Opens the dialog for a record at the top level (`null`) or below a row. */
  add: (parentId: number | null) => void;
}

/**
 * The state of a tree record's page: the tree table, the add / edit / view dialog (`dialog.props` on
 * the record's FormDialog), the writes, and `changed` (reload the table and the whole tree) for the
 * dialog to call after a save.
 */
export function useTreeRecords<T extends TreeRecord<T>, F extends { parentId?: number | null; sort?: number }>({ treeQueryKey, remove, enable, formOf, ...table }: TreeRecordsOptions<T, F>) {
  const queryClient = useQueryClient();
  const tableRef = useRef<ProTableAction<T>>(undefined);
  const tree = useTreeTable<T>(table);
  const { expand } = tree;
  const { openNewRows } = table;
  const dialog = useFormDialog<F>();
  const openDialog = dialog.open;

  const changed = useCallback(() => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: treeQueryKey });
  }, [queryClient, treeQueryKey]);
  const writes = useRecordWrites<T>({ table: tableRef, enable, remove, changed });

  const open = useCallback((mode: FormMode, row: T) => openDialog(mode, formOf(row)), [openDialog, formOf]);
  const add = useCallback(
    (parentId: number | null) => {
      // Where rows do not open by themselves, the row a record is added below opens.
      if (parentId !== null && !openNewRows) expand(parentId);
      openDialog('add', { parentId, sort: 0 } as Partial<F>);
    },
    [expand, openNewRows, openDialog],
  );

  const records: TreeRecordsTable<T> = { tableRef, tree, writes, canEnable: !!enable, open, add };
  return { ...records, dialog, changed };
}

interface TreeRecordTableProps<T> {
  record: RecordKey;
  texts: TreeTexts;
  maxLevel: number;
  records: TreeRecordsTable<T>;
  /** The record's columns; the operations follow. */
  columns: ProColumn<T>[];
  toolbarRight?: ReactNode;
}

/**
 * The tree table of a tree record (`<name>-table`): the record's columns, then add below (not on the
 * deepest level), view, edit and delete (not while a row has children); above, add at the top level,
 * the batch buttons and expand / collapse all (`<name>-expand`, `<name>-collapse`).
 */
export function TreeRecordTable<T extends TreeRecord<T>>({ record, texts, maxLevel, records, columns, toolbarRight }: TreeRecordTableProps<T>) {
  const { t } = useTranslation();
  const { tree, writes, add, open } = records;
  const recordColumns = useRecordColumns();
  const withActions = useMemo<ProColumn<T>[]>(
    () => [
      ...columns,
      recordColumns.actions<T>(280, (row) => (
        <RowActions
          record={record}
          id={row.id}
          name={row.name}
          before={<AddChildButton record={record} texts={texts} row={row} maxLevel={maxLevel} onClick={() => add(row.id)} />}
          onView={() => open('view', row)}
          onEdit={() => open('edit', row)}
          onDelete={() => writes.remove([row])}
          deleteBlocked={row.children?.length ? texts.hasChildrenTip : undefined}
        />
      )),
    ],
    [recordColumns, columns, record, texts, maxLevel, add, open, writes],
  );

  return (
    <ProTable<T>
      {...tree.tableProps}
      columns={withActions}
      listType={record}
      rowSelection
      actionRef={records.tableRef}
      data-testid={testIdOf(record, 'table')}
      toolbar={({ selectedRowKeys, selectedRows }) => (
        <>
          <AddButton record={record} onClick={() => add(null)} />
          <BatchButtons record={record} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} onEnable={records.canEnable ? writes.setEnabled : undefined} />
          <Space.Compact>
            <Button icon={<PlusSquareOutlined />} onClick={tree.expandAll} data-testid={testIdOf(record, 'expand')}>
              {t('basic.common.expandAll')}
            </Button>
            <Button icon={<MinusSquareOutlined />} onClick={tree.collapseAll} data-testid={testIdOf(record, 'collapse')}>
              {t('basic.common.collapseAll')}
            </Button>
          </Space.Compact>
        </>
      )}
      toolbarRight={toolbarRight}
    />
  );
}

interface AddChildButtonProps {
  record: RecordKey;
  texts: TreeTexts;
  row: { id: number; level: number };
  maxLevel: number;
  onClick: () => void;
}

/** The row's "add below" link (`row-add-<id>`), disabled with a tip on the deepest level. */
function AddChildButton({ record, texts, row, maxLevel, onClick }: AddChildButtonProps) {
  const full = row.level >= maxLevel;
  const button = (
    <Button type="link" size="small" icon={<PlusOutlined />} disabled={full} onClick={full ? undefined : onClick} data-testid={`row-add-${row.id}`}>
      {texts.addChild}
    </Button>
  );
  return <Auth code={codeOf(record, 'add')}>{full ? <Tooltip title={texts.maxLevelTip}>{button}</Tooltip> : button}</Auth>;
}

interface ParentOption {
  title: string;
  value: number;
  children?: ParentOption[];
  disabled?: boolean;
}

interface ParentFieldProps<T> {
  texts: TreeTexts;
  testId: string;
  /** The whole tree. */
  tree: T[];
  /** The record being edited: neither it nor anything below it can be its parent. */
  editingId?: number;
  maxLevel: number;
  /** The picker opens with every level unfolded (a small tree). */
  expandAll?: boolean;
}

/**
 * The dialog's parent picker (`parentId`, empty for the top level). A parent is offered when the
 * record with everything below it still fits `maxLevel` levels under it.
 */
export function ParentField<T extends TreeRecord<T>>({ texts, testId, tree, editingId, maxLevel, expandAll }: ParentFieldProps<T>) {
  const options = useMemo(() => {
    const blocked = subtreeIds(tree, editingId);
    // The moved record brings its subtree: a parent at level L takes a subtree of depth D when L + D ≤ max.
    const depth = editingId === undefined ? 1 : subtreeDepth(tree, editingId);
    return mapTree<T, ParentOption>(tree, (node, children) => ({
      title: node.name,
      value: node.id,
      children,
      disabled: blocked.has(node.id) || node.level + depth > maxLevel,
    }));
  }, [tree, editingId, maxLevel]);

  return (
    <Col span={24}>
      <Form.Item name="parentId" label={texts.parent} extra={texts.parentTip}>
        <TreeSelect
          allowClear
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll={expandAll}
          treeData={options}
          placeholder={texts.parentPlaceholder}
          data-testid={testId}
        />
      </Form.Item>
    </Col>
  );
}
