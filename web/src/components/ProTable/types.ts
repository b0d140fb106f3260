import type { Key, ReactNode } from 'react';
import type { TableColumnType, TableProps } from 'antd';
import type { QueryParams, PagedResult } from '../../app/http.ts';

/** How a column searches: the control of its field in the search form. */
export type SearchType = 'input' | 'select' | 'treeSelect' | 'dateRange' | 'date' | 'number';

export interface SearchOption {
  label: ReactNode;
  value: string | number | boolean;
  disabled?: boolean;
}

export interface TreeOption {
  title: ReactNode;
  value: string | number;
  children?: TreeOption[];
  disabled?: boolean;
}

export interface SearchConfig {
  /** Control; default `select` when the column has `valueEnum` or `options`, else `input`. */
  type?: SearchType;
  /** Query parameter name; default the column's `prop`. */
  key?: string;
  /** Label; default the column title. */
  label?: string;
  placeholder?: string;
  options?: SearchOption[];
  treeData?: TreeOption[];
  /** Select / tree select: several values, sent comma-joined. */
  multiple?: boolean;
  /** Extra props handed to the antd control. */
  props?: Record<string, unknown>;
  /** Initial value (also what "reset" goes back to). For `dateRange`: `[start, end]` as dayjs or strings. */
  defaultValue?: unknown;
  /**
   * `dateRange` only: start with the tenant's `defaultDateSearch` days (today and the days before).
   * Use it on the list's main date column.
   */
  defaultDate?: boolean;
  /** `dateRange` only: the two parameter names; default `['start', 'end']`. */
  rangeKeys?: [string, string];
  /** `date` / `dateRange`: send date and time (`YYYY-MM-DD HH:mm:ss`) instead of the date. */
  showTime?: boolean;
  /** Position in the search form (lower first); default the column order, the `defaultDate` range first. */
  order?: number;
  /** Grid cells the field takes; default 2 for a date range, else 1. */
  span?: number;
  /** Turns the field's value into query parameters (replaces the default mapping). */
  transform?: (value: unknown) => QueryParams;
}

/** A value shown as text (and offered as a select in the search form). */
export type ValueEnum = Record<string, { text: ReactNode; color?: string }>;

/**
 * Numbers are shown with the tenant's decimal places: `number` with numberRetainsSmallDigit,
 * `amount` with amountRetainsSmallDigit.
 */
export type ValueType = 'text' | 'number' | 'amount' | 'date' | 'dateTime' | 'index';

export interface ProColumn<T = Record<string, unknown>>
  extends Omit<TableColumnType<T>, 'dataIndex' | 'key' | 'title' | 'render' | 'sorter' | 'sortOrder'> {
  /** Field of the row (dots for nested fields); also the key of column settings and statistics. */
  prop: string;
  title: string;
  /** Server sort: sends `<prop>Sort=asc|desc`. */
  sortable?: boolean;
  /** Shown in the statistics (summary) row from `{list}/statistics`. */
  sum?: boolean;
  valueType?: ValueType;
  valueEnum?: ValueEnum;
  /** Fixed decimal places, overriding the tenant's. */
  precision?: number;
  render?: (value: unknown, record: T, index: number) => ReactNode;
  /** Searchable: `true` for the default control, or its configuration. */
  search?: boolean | SearchConfig;
  /** Search only, no table column. */
  hideInTable?: boolean;
  /** Not listed in the column settings drawer (always shown). */
  hideInSetting?: boolean;
  /** Listed but locked: always shown, never moved (like a `disabled` entry saved by the tenant). */
  lockSetting?: boolean;
}

/** One entry of the tenant's column settings. */
export interface ColumnSetting {
  prop: string;
  isShow: boolean;
  priority: number;
  /** Locked: cannot be hidden or moved. */
  disabled: boolean;
}

export type ListParams = QueryParams;
export type ListRequest<T> = (params: ListParams) => Promise<PagedResult<T>>;

export interface ProTableAction<T = unknown> {
  /** Loads the current page again (and the statistics). */
  reload: () => void;
  /** Resets the search form to its defaults and loads page 1. */
  reset: () => void;
  /** The query of the current list: filters, sort, page, extra params. */
  getParams: () => ListParams;
  /** The query without the page (what export and statistics send). */
  getFilterParams: () => ListParams;
  getSelected: () => { keys: Key[]; rows: T[] };
  clearSelection: () => void;
}

export interface ProRowSelection<T> {
  type?: 'checkbox' | 'radio';
  /** Controlled selected keys; omit to let the table keep them. */
  selectedRowKeys?: Key[];
  onChange?: (keys: Key[], rows: T[]) => void;
  getCheckboxProps?: NonNullable<TableProps<T>['rowSelection']>['getCheckboxProps'];
}

export interface ToolbarContext<T> {
  selectedRowKeys: Key[];
  selectedRows: T[];
  reload: () => void;
  params: ListParams;
}
