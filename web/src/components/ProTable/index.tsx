import { useCallback, useEffect, useId, useImperativeHandle, useMemo, useState, type CSSProperties, type Key, type ReactNode, type Ref } from 'react';
import { Button, Card, Form, Skeleton, Space, Table, Tag, theme, Tooltip, Typography, type TableColumnType, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { ReloadOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { http, type QueryParams } from '../../app/http.ts';
import type { KitSettings } from '../../hooks/kit-settings.ts';
import { useTenantConfig } from '../../hooks/useTenantConfig.ts';
import { useAuth } from '../Auth/index.tsx';
import ExportButton from '../ExportButton/index.tsx';
import { columnSettingsQueryKey, getColumnSettings, getStatistics, saveColumnSettings } from './api.ts';
import { applyColumnSettings, defaultColumnSettings, mergeColumnSettings } from './column-settings.ts';
import ColumnSettingsDrawer from './ColumnSettingsDrawer.tsx';
import { formatCell, formatNumber, digitsFor, valueAt } from './format.ts';
import { columnWidth, headerOnOneLine, tableScrollWidth } from './layout.ts';
import Pager from './Pager.tsx';
import { filterParams, initialSearchValues, listParams, resolvePageSize, searchFieldsOf, sortFromAntd, type SortState } from './query.ts';
import { clearSearchCache, readSearchCache, writeSearchCache } from './search-cache.ts';
import SearchForm from './SearchForm.tsx';
import type { ColumnSetting, ListRequest, ProColumn, ProRowSelection, ProTableAction, ToolbarContext } from './types.ts';
import './pro-table.css';

export type { ProColumn, ProTableAction, ColumnSetting, SearchConfig, ValueEnum, ValueType, ListParams, ToolbarContext } from './types.ts';

export interface ProTableProps<T> {
  columns: ProColumn<T>[];
  /** List path (e.g. `/admin/security/admin`): GET with the query when no `request` is given. */
  path?: string;
  /** Loads one page; default `http.list(path, params)`. */
  request?: ListRequest<T>;
  /** Fixed parameters of the screen (`notInId`, a parent id…); a change reloads page 1. */
  params?: QueryParams;
  rowKey: string | ((record: T) => Key);
  /** List type: key of the tenant's column settings and of the search cache. Without it, neither. */
  listType?: string;
  /** Statistics row: `true` loads `{path}/statistics`; a string is the statistics path. */
  statistics?: boolean | string;
  /** Export call (e.g. `/admin/security/admin/export`): shows the export button. */
  exportPath?: string;
  exportFileName?: string;
  /** Left of the toolbar: the screen's buttons (add, delete selected, import…). */
  toolbar?: ReactNode | ((ctx: ToolbarContext<T>) => ReactNode);
  /** Right of the toolbar, before the table's own buttons. */
  toolbarRight?: ReactNode;
  /** Selection: `true` for checkboxes kept by the table, or its configuration. */
  rowSelection?: boolean | ProRowSelection<T>;
  /** The clicked row is highlighted (default true); told here. */
  onCurrentChange?: (record: T | null) => void;
  highlightCurrentRow?: boolean;
  actionRef?: Ref<ProTableAction<T> | undefined>;
  /** Search form shown (default: when a column is searchable). */
  search?: boolean;
  /** Pager shown (default true); without it the table asks for the largest page. */
  pagination?: boolean;
  /** Sort before the user picks one. */
  defaultSort?: SortState;
  /** Wait for the first "search" before loading. */
  manualRequest?: boolean;
  title?: ReactNode;
  scroll?: TableProps<T>['scroll'];
  /**
   * A body height (e.g. `calc(100vh - 420px)`) under the computed scroll width: the rows scroll inside the
   * table, so its sideways scrollbar stays on screen with the header (wide lists such as the bill lists).
   */
  scrollY?: number | string;
  size?: TableProps<T>['size'];
  bordered?: boolean;
  expandable?: TableProps<T>['expandable'];
  onRow?: TableProps<T>['onRow'];
  /** Told after each page arrives. */
  onLoad?: (data: T[]) => void;
  /**
   * Told the searched filters (without the fixed `params`, the sort or the page) whenever they change: a
   * screen's status tabs count under the same search as the list they switch. Keep it stable (a state setter).
   */
  onFiltersChange?: (filters: QueryParams) => void;
  className?: string;
  'data-testid'?: string;
}

/**
 * The list screen of every module on antd
 * Table: search form, toolbar, server paging / sort, selection, current row, statistics row, column
 * settings, search cache and export. It waits for the tenant config (page size, default date range,
 * decimal places, search cache) before its first request.
 */
export default function ProTable<T extends object>(props: ProTableProps<T>) {
  const tenant = useTenantConfig();
  if (!tenant.ready) {
    return (
      <Card className={['p8-pro-table', props.className].filter(Boolean).join(' ')} data-testid={props['data-testid'] ?? 'pro-table'}>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  return <ProTableBody {...props} settings={tenant.settings} />;
}

const EMPTY: QueryParams = {};

function ProTableBody<T extends object>(props: ProTableProps<T> & { settings: KitSettings }) {
  const {
    columns,
    path,
    request,
    params: extra = EMPTY,
    rowKey,
    listType,
    statistics,
    exportPath,
    exportFileName,
    toolbar,
    toolbarRight,
    rowSelection,
    onCurrentChange,
    highlightCurrentRow = true,
    actionRef,
    pagination = true,
    defaultSort,
    manualRequest = false,
    title,
    scroll,
    scrollY,
    size,
    bordered,
    expandable,
    onRow,
    onLoad,
    onFiltersChange,
    className,
    settings,
  } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const autoId = useId();
  const tableKey = listType ?? path ?? autoId;
  const useCache = settings.searchCache && !!listType;

  /* ---------- search ---------- */
  const fields = useMemo(() => searchFieldsOf(columns), [columns]);
  const enums = useMemo(() => Object.fromEntries(columns.map((c) => [c.prop, c.valueEnum])), [columns]);
  const showSearch = (props.search ?? fields.length > 0) && fields.length > 0;
  const [form] = Form.useForm();
  const [defaults] = useState(() => initialSearchValues(fields, settings.defaultDateSearch));
  const [startValues] = useState(() => (useCache ? (readSearchCache(listType!, fields) ?? defaults) : defaults));
  const [submitted, setSubmitted] = useState<Record<string, unknown>>(startValues);
  const [searchVisible, setSearchVisible] = useState(true);
  const [searched, setSearched] = useState(!manualRequest);

  /* ---------- page and sort ---------- */
  const [page, setPage] = useState(() => ({ current: 1, pageSize: pagination ? resolvePageSize(settings.defaultPageSize) : 200 }));
  const [sort, setSort] = useState<SortState | null>(defaultSort ?? null);

  // New fixed parameters (another parent, another tab) start again from page 1.
  const extraKey = JSON.stringify(extra);
  const [seenExtra, setSeenExtra] = useState(extraKey);
  if (seenExtra !== extraKey) {
    setSeenExtra(extraKey);
    setPage((p) => ({ ...p, current: 1 }));
  }

  const queryInput = { fields, values: submitted, sort, extra };
  const params = listParams({ ...queryInput, ...page });
  // Export: the whole query but the page. Statistics: the filters only (a sort changes no sum).
  const filters = filterParams(queryInput);
  const statisticsFilters = filterParams({ ...queryInput, sort: null });
  const paramsKey = JSON.stringify(params);
  const searchedFilters = filterParams({ fields, values: submitted, sort: null });
  const searchedKey = JSON.stringify(searchedFilters);
  // Keyed by the filters' text: a new search with the same filters tells nobody (pass a stable callback, e.g. a state setter).
  useEffect(() => {
    if (searched) onFiltersChange?.(JSON.parse(searchedKey) as QueryParams);
  }, [searchedKey, searched, onFiltersChange]);

  const load: ListRequest<T> = useMemo(
    () =>
      request ??
      ((p) => {
        if (!path) throw new Error('ProTable needs `request` or `path`');
        return http.list<T>(path, p, { noLoading: true });
      }),
    [request, path],
  );

  const list = useQuery({
    queryKey: ['pro-table', tableKey, params],
    queryFn: async () => {
      const result = await load(params);
      onLoad?.(result.data);
      return result;
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled: searched,
  });
  const rows = useMemo(() => list.data?.data ?? [], [list.data]);
  const total = list.data?.pagination.total ?? 0;

  // A page past the end (the last rows were deleted): show the last page that exists.
  const lastPage = Math.max(1, Math.ceil(total / page.pageSize));
  if (list.data && !list.isPlaceholderData && rows.length === 0 && total > 0 && page.current > lastPage) {
    setPage((p) => ({ ...p, current: lastPage }));
  }

  /* ---------- statistics ---------- */
  const statisticsPath = typeof statistics === 'string' ? statistics : statistics && path ? `${path}/statistics` : undefined;
  const stats = useQuery({
    queryKey: ['pro-table-statistics', tableKey, statisticsFilters],
    queryFn: () => getStatistics(statisticsPath!, statisticsFilters),
    enabled: searched && !!statisticsPath && !list.data?.statistics,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const sums = list.data?.statistics ?? stats.data;

  /* ---------- column settings ---------- */
  const settingsQuery = useQuery({
    queryKey: columnSettingsQueryKey(listType ?? ''),
    queryFn: () => getColumnSettings(listType!),
    enabled: !!listType,
    staleTime: 5 * 60_000,
  });
  const columnSettings = useMemo(() => mergeColumnSettings(columns, settingsQuery.data), [columns, settingsQuery.data]);
  const visibleColumns = useMemo(() => applyColumnSettings(columns, columnSettings), [columns, columnSettings]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The settings apply to the whole tenant: only who may change the tenant's configuration edits them.
  const can = useAuth();
  const canEditColumns = !!listType && can('system_tenant_config_update');
  const saveSettings = async (next: ColumnSetting[]) => {
    await saveColumnSettings(listType!, next);
    queryClient.setQueryData(columnSettingsQueryKey(listType!), next);
    feedback.message.success(t('kit.table.settings.saved'));
  };

  /* ---------- selection and current row ---------- */
  const selectionConfig = useMemo(() => (rowSelection === true ? {} : rowSelection || undefined), [rowSelection]);
  const [selected, setSelected] = useState<{ keys: Key[]; rows: T[] }>({ keys: [], rows: [] });
  const selectedKeys = selectionConfig?.selectedRowKeys ?? selected.keys;
  const changeSelection = useCallback(
    (keys: Key[], chosen: T[]) => {
      setSelected({ keys, rows: chosen });
      selectionConfig?.onChange?.(keys, chosen);
    },
    [selectionConfig],
  );
  const [currentKey, setCurrentKey] = useState<Key | null>(null);
  const keyOf = useCallback((record: T): Key => (typeof rowKey === 'function' ? rowKey(record) : (record as Record<string, Key>)[rowKey]), [rowKey]);

  /* ---------- actions ---------- */
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['pro-table', tableKey] });
    void queryClient.invalidateQueries({ queryKey: ['pro-table-statistics', tableKey] });
  }, [queryClient, tableKey]);

  /** Runs a search with `values`; the same query again reloads. */
  const submit = (values: Record<string, unknown>, nextSort: SortState | null = sort) => {
    const nextParams = listParams({ fields, values, sort: nextSort, extra, current: 1, pageSize: page.pageSize });
    setSearched(true);
    if (JSON.stringify(nextParams) === paramsKey && searched) {
      reload();
      return;
    }
    setSubmitted(values);
    setSort(nextSort);
    setPage((p) => ({ ...p, current: 1 }));
  };

  const onSearch = () => {
    const values = form.getFieldsValue(true) as Record<string, unknown>;
    if (useCache) writeSearchCache(listType!, fields, values);
    submit(values);
  };

  const reset = () => {
    const values = Object.fromEntries(fields.map((f) => [f.name, defaults[f.name]]));
    if (showSearch) form.setFieldsValue(values);
    if (useCache) clearSearchCache(listType!);
    submit(values, defaultSort ?? null);
  };

  const clearSelection = () => changeSelection([], []);

  useImperativeHandle(
    actionRef,
    () => ({
      reload,
      reset,
      getParams: () => params,
      getFilterParams: () => filters,
      getSelected: () => ({ keys: selectedKeys, rows: selected.rows }),
      clearSelection,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the handle reads the latest render
    [paramsKey, selectedKeys, selected.rows, reload],
  );

  /* ---------- antd columns ---------- */
  const antdColumns: TableColumnType<T>[] = visibleColumns.map((column) => {
    const { prop, title: columnTitle, sortable, sum: _sum, valueType, valueEnum, precision, render, search: _search, hideInTable: _h, hideInSetting: _hs, lockSetting: _l, ...rest } =
      column;
    const numeric = digitsFor(valueType, settings, precision) !== undefined;
    return {
      ...rest,
      key: prop,
      dataIndex: prop.split('.'),
      title: columnTitle,
      // Every column has a width (the scroll width is their sum); a number is never cut by an ellipsis
      // nor wrapped (`p8-pro-table-num`), it widens its column instead.
      width: columnWidth({ title: columnTitle, width: rest.width, sortable, numeric, align: rest.align, valueType }),
      ellipsis: numeric ? false : rest.ellipsis,
      className: [numeric ? 'p8-pro-table-num' : '', headerOnOneLine({ numeric, align: rest.align }) ? 'p8-header-one-line' : '', rest.className].filter(Boolean).join(' ') || undefined,
      align: rest.align ?? (numeric ? 'right' : undefined),
      sorter: sortable ? true : undefined,
      sortOrder: sortable ? (sort?.prop === prop ? (sort.order === 'asc' ? 'ascend' : 'descend') : null) : undefined,
      render: (_value: unknown, record: T, index: number) => {
        const value = valueAt(record, prop);
        if (render) return render(value, record, index);
        if (valueType === 'index') return (page.current - 1) * page.pageSize + index + 1;
        if (valueEnum) {
          const item = value === null || value === undefined ? undefined : valueEnum[String(value)];
          if (!item) return value === null || value === undefined ? '' : String(value);
          return item.color ? <Tag color={item.color}>{item.text}</Tag> : item.text;
        }
        return formatCell(value, valueType, settings, precision);
      },
    };
  });

  const scrollWidth = tableScrollWidth(
    antdColumns.map((c) => Number(c.width)),
    { selection: !!selectionConfig, expandable: !!expandable },
  );

  const onTableChange: TableProps<T>['onChange'] = (_pagination, _filters, sorter, extraInfo) => {
    if (extraInfo.action !== 'sort') return;
    const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    setSort(sortFromAntd(one?.columnKey === undefined ? undefined : String(one.columnKey), one?.order));
    setPage((p) => ({ ...p, current: 1 }));
  };

  const summary =
    statisticsPath || list.data?.statistics
      ? () => {
          // "Total" spans the selection column and every column before the first summed one.
          const firstSum = visibleColumns.findIndex((c) => c.sum);
          const labelSpan = (selectionConfig ? 1 : 0) + (firstSum < 0 ? visibleColumns.length : firstSum);
          const cells: ReactNode[] = [
            <Table.Summary.Cell key="__label" index={0} colSpan={Math.max(1, labelSpan)}>
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                {t('kit.table.summary')}
              </Typography.Text>
            </Table.Summary.Cell>,
          ];
          if (firstSum >= 0) {
            visibleColumns.slice(firstSum).forEach((column, i) => {
              const index = labelSpan + i;
              if (!column.sum) {
                cells.push(<Table.Summary.Cell key={column.prop} index={index} />);
                return;
              }
              const value = sums?.[column.prop];
              const digits = digitsFor(column.valueType, settings, column.precision) ?? settings.amountRetainsSmallDigit;
              cells.push(
                <Table.Summary.Cell key={column.prop} index={index} align={column.align ?? 'right'}>
                  <span data-testid={`pro-table-sum-${column.prop}`}>{value === undefined || value === null ? '' : formatNumber(value, digits)}</span>
                </Table.Summary.Cell>,
              );
            });
          }
          return (
            <Table.Summary fixed="bottom">
              <Table.Summary.Row className="p8-pro-table-summary">{cells}</Table.Summary.Row>
            </Table.Summary>
          );
        }
      : undefined;

  const context: ToolbarContext<T> = { selectedRowKeys: selectedKeys, selectedRows: selected.rows, reload, params };
  const titles = useMemo(() => Object.fromEntries(columns.map((c) => [c.prop, c.title])), [columns]);

  return (
    <div
      className={['p8-pro-table', className].filter(Boolean).join(' ')}
      data-testid={props['data-testid'] ?? 'pro-table'}
      style={{ '--p8-kit-current-row': token.colorFillSecondary, '--p8-kit-current-row-bar': token.colorPrimary, '--p8-kit-row-bg': token.colorBgContainer } as CSSProperties}
    >
      {showSearch && (
        // Hidden, not unmounted: the form keeps its values and `reset()` can still reach it.
        <Card className="p8-pro-table-search-card" styles={{ body: { padding: '16px 16px 0' } }} style={searchVisible ? undefined : { display: 'none' }}>
          <SearchForm
            form={form}
            name={listType ? `search_${listType}` : 'search'}
            fields={fields}
            enums={enums}
            initialValues={startValues}
            onSearch={onSearch}
            onReset={reset}
            loading={list.isFetching && searched}
          />
        </Card>
      )}
      <Card className="p8-pro-table-card" styles={{ body: { padding: 16 } }}>
        <div className="p8-pro-table-toolbar">
          <div className="p8-pro-table-toolbar-left">
            {title ? <Typography.Title level={5} style={{ margin: 0 }}>{title}</Typography.Title> : null}
            {typeof toolbar === 'function' ? toolbar(context) : toolbar}
            {selectionConfig && selectedKeys.length > 0 && (
              <span className="p8-pro-table-selected" data-testid="pro-table-selected">
                {t('kit.table.selected', { count: selectedKeys.length })}
                <Button type="link" size="small" onClick={clearSelection}>
                  {t('kit.table.clearSelection')}
                </Button>
              </span>
            )}
          </div>
          <Space className="p8-pro-table-toolbar-right" size={8}>
            {toolbarRight}
            {exportPath && <ExportButton path={exportPath} params={() => filters} fileName={exportFileName} />}
            <Tooltip title={t('kit.table.refresh')}>
              <Button shape="circle" icon={<ReloadOutlined />} onClick={reload} aria-label={t('kit.table.refresh')} data-testid="pro-table-refresh" />
            </Tooltip>
            {canEditColumns && (
              <Tooltip title={t('kit.table.columnSettings')}>
                <Button
                  shape="circle"
                  icon={<SettingOutlined />}
                  onClick={() => setSettingsOpen(true)}
                  aria-label={t('kit.table.columnSettings')}
                  data-testid="pro-table-settings"
                />
              </Tooltip>
            )}
            {showSearch && (
              <Tooltip title={t('kit.table.toggleSearch')}>
                <Button
                  shape="circle"
                  icon={<SearchOutlined />}
                  onClick={() => setSearchVisible((v) => !v)}
                  aria-label={t('kit.table.toggleSearch')}
                  data-testid="pro-table-toggle-search"
                />
              </Tooltip>
            )}
          </Space>
        </div>
        <Table<T>
          rowKey={rowKey}
          columns={antdColumns}
          dataSource={rows}
          loading={list.isFetching}
          pagination={false}
          size={size}
          bordered={bordered}
          expandable={expandable}
          scroll={scroll ?? { x: scrollWidth, ...(scrollY === undefined ? {} : { y: scrollY }) }}
          // Automatic layout with the computed width as its floor: a cell whose content needs more (a long
          // figure) widens its column instead of being cut.
          tableLayout="auto"
          onChange={onTableChange}
          summary={summary}
          rowSelection={
            selectionConfig
              ? {
                  type: selectionConfig.type ?? 'checkbox',
                  selectedRowKeys: selectedKeys,
                  preserveSelectedRowKeys: true,
                  getCheckboxProps: selectionConfig.getCheckboxProps,
                  onChange: (keys, chosen) => changeSelection(keys, chosen),
                  selections: selectionConfig.type === 'radio' ? undefined : [Table.SELECTION_ALL, Table.SELECTION_INVERT, Table.SELECTION_NONE],
                }
              : undefined
          }
          rowClassName={(record) => (highlightCurrentRow && currentKey !== null && keyOf(record) === currentKey ? 'p8-pro-table-row-current' : '')}
          onRow={(record, index) => {
            const own = onRow?.(record, index) ?? {};
            return {
              ...own,
              onClick: (event) => {
                const key = keyOf(record);
                setCurrentKey(key);
                onCurrentChange?.(record);
                own.onClick?.(event);
              },
            };
          }}
        />
        {pagination && (
          <Pager
            current={page.current}
            pageSize={page.pageSize}
            total={total}
            onChange={(current, pageSize) => setPage({ current, pageSize })}
          />
        )}
      </Card>
      {listType && (
        <ColumnSettingsDrawer
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          settings={columnSettings}
          defaults={defaultColumnSettings(columns)}
          titles={titles}
          onSave={saveSettings}
        />
      )}
    </div>
  );
}
