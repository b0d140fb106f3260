import dayjs, { type Dayjs } from 'dayjs';
import type { QueryParams } from '../../app/http.ts';
import type { ProColumn, SearchConfig, SearchType } from './types.ts';

/**
 * The list query of a ProTable: search values → query parameters,
 * page size choice, sort, and the date shortcuts. Pure functions, tested in query.test.ts.
 */
export const PAGE_SIZES = [10, 25, 50, 100, 200] as const;
/** The list falls back to 200 rows when the tenant config gives no page size. */
export const FALLBACK_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 200;

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The tenant's page size when it is usable, else 200. */
export function resolvePageSize(tenantDefault: number | null | undefined): number {
  if (typeof tenantDefault === 'number' && Number.isInteger(tenantDefault) && tenantDefault > 0) {
    return Math.min(tenantDefault, MAX_PAGE_SIZE);
  }
  return FALLBACK_PAGE_SIZE;
}

/** The page sizes offered: the five standard ones, plus the tenant's own if it is another number. */
export function pageSizeOptions(current: number): number[] {
  const sizes: number[] = [...PAGE_SIZES];
  if (!sizes.includes(current)) sizes.push(current);
  return sizes.sort((a, b) => a - b);
}

export interface SearchField {
  /** Form field name (the column's prop). */
  name: string;
  /** Query parameter name. */
  key: string;
  label: string;
  type: SearchType;
  config: SearchConfig;
  order: number;
  span: number;
}

/** The search fields of a column list, in form order. */
export function searchFieldsOf<T>(columns: readonly ProColumn<T>[]): SearchField[] {
  const fields: SearchField[] = [];
  columns.forEach((column, index) => {
    if (!column.search) return;
    const config: SearchConfig = column.search === true ? {} : column.search;
    const type: SearchType = config.type ?? (config.options || config.treeData || column.valueEnum ? (config.treeData ? 'treeSelect' : 'select') : 'input');
    fields.push({
      name: column.prop,
      key: config.key ?? column.prop,
      label: config.label ?? column.title,
      type,
      config,
      // The list's main date range (it filters by default) comes first, so the collapsed form shows it.
      order: config.order ?? (type === 'dateRange' && config.defaultDate ? -1 : index),
      span: Math.max(1, config.span ?? (type === 'dateRange' ? 2 : 1)),
    });
  });
  return fields.sort((a, b) => a.order - b.order);
}

type DateLike = Dayjs | string | Date | number;

function toDayjs(value: unknown): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  if (dayjs.isDayjs(value)) return value.isValid() ? value : null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) {
    const d = dayjs(value as DateLike);
    return d.isValid() ? d : null;
  }
  return null;
}

/** Date only unless asked: the server reads a date-only `end` as the whole day. */
function formatDate(value: unknown, showTime: boolean | undefined): string | undefined {
  const d = toDayjs(value);
  if (!d) return undefined;
  return d.format(showTime ? DATE_TIME_FORMAT : DATE_FORMAT);
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.every((v) => v === undefined || v === null || v === ''));

/** One field's value → its query parameters. */
export function fieldParams(field: SearchField, value: unknown): QueryParams {
  if (field.config.transform) return isEmpty(value) ? {} : field.config.transform(value);
  if (isEmpty(value)) return {};
  switch (field.type) {
    case 'dateRange': {
      const [startKey, endKey] = field.config.rangeKeys ?? ['start', 'end'];
      const [from, to] = Array.isArray(value) ? value : [];
      const out: QueryParams = {};
      const start = formatDate(from, field.config.showTime);
      const end = formatDate(to, field.config.showTime);
      if (start) out[startKey] = start;
      if (end) out[endKey] = end;
      return out;
    }
    case 'date': {
      const date = formatDate(value, field.config.showTime);
      return date ? { [field.key]: date } : {};
    }
    case 'input':
      return typeof value === 'string' ? (value.trim() ? { [field.key]: value.trim() } : {}) : { [field.key]: String(value) };
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? { [field.key]: n } : {};
    }
    default:
      if (Array.isArray(value)) return { [field.key]: value.filter((v) => !isEmpty(v)) as QueryParams[string] };
      return { [field.key]: value as QueryParams[string] };
  }
}

/** Every search value → query parameters (empty values left out). */
export function searchParams(fields: readonly SearchField[], values: Record<string, unknown>): QueryParams {
  const out: QueryParams = {};
  for (const field of fields) Object.assign(out, fieldParams(field, values[field.name]));
  return out;
}

export interface SortState {
  prop: string;
  order: 'asc' | 'desc';
}

/** The sort as the server reads it: `<prop>Sort=asc|desc`. */
export function sortParams(sort: SortState | null | undefined): QueryParams {
  return sort ? { [`${sort.prop}Sort`]: sort.order } : {};
}

/** antd's sorter order → ours. */
export function sortFromAntd(prop: string | undefined, order: 'ascend' | 'descend' | null | undefined): SortState | null {
  if (!prop || !order) return null;
  return { prop, order: order === 'ascend' ? 'asc' : 'desc' };
}

export interface ListQueryInput {
  fields: readonly SearchField[];
  values: Record<string, unknown>;
  sort?: SortState | null;
  /** Fixed parameters of the screen (`notInId`, a parent id…); the search overrides none of them. */
  extra?: QueryParams;
}

/** The query without paging: filters, sort and the screen's fixed parameters (export, statistics). */
export function filterParams({ fields, values, sort, extra }: ListQueryInput): QueryParams {
  return { ...searchParams(fields, values), ...sortParams(sort), ...(extra ?? {}) };
}

/** The whole list query: `current`, `pageSize`, filters, sort, fixed parameters. */
export function listParams(input: ListQueryInput & { current: number; pageSize: number }): QueryParams {
  return { current: input.current, pageSize: Math.min(input.pageSize, MAX_PAGE_SIZE), ...filterParams(input) };
}

/* ---------- Dates ---------- */

export type DateShortcut = 'today' | 'yesterday' | 'last7Days' | 'last30Days' | 'lastMonth' | 'thisYear' | 'lastYear';
export const DATE_SHORTCUTS: readonly DateShortcut[] = ['today', 'yesterday', 'last7Days', 'last30Days', 'lastMonth', 'thisYear', 'lastYear'];

/**
 * Date shortcuts. "Last N days" end today and include it; "last month" and "last year" are the
 * previous calendar month and year; "this year" runs from 1 January to 31 December.
 */
export function shortcutRange(shortcut: DateShortcut, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (shortcut) {
    case 'today':
      return [today, today.endOf('day')];
    case 'yesterday': {
      const y = today.subtract(1, 'day');
      return [y, y.endOf('day')];
    }
    case 'last7Days':
      return [today.subtract(6, 'day'), today.endOf('day')];
    case 'last30Days':
      return [today.subtract(29, 'day'), today.endOf('day')];
    case 'lastMonth': {
      const m = today.subtract(1, 'month');
      return [m.startOf('month'), m.endOf('month')];
    }
    case 'thisYear':
      return [today.startOf('year'), today.endOf('year')];
    case 'lastYear': {
      const y = today.subtract(1, 'year');
      return [y.startOf('year'), y.endOf('year')];
    }
  }
}

/** The tenant's default search range: the last `days` days up to today; none when days ≤ 0. */
export function defaultDateRange(days: number, now: Dayjs = dayjs()): [Dayjs, Dayjs] | undefined {
  if (!Number.isFinite(days) || days <= 0) return undefined;
  const today = now.startOf('day');
  return [today.subtract(Math.floor(days) - 1, 'day'), today.endOf('day')];
}

/** A configured date default (dayjs or strings) as dayjs values the pickers accept. */
export function toDateValue(type: SearchType, value: unknown): unknown {
  if (type === 'date') return toDayjs(value) ?? undefined;
  if (type === 'dateRange' && Array.isArray(value)) {
    const [a, b] = value.map(toDayjs);
    return a || b ? [a, b] : undefined;
  }
  return value;
}

/** The search form's initial values: each field's default, the tenant's date range where asked. */
export function initialSearchValues(fields: readonly SearchField[], defaultDateSearch: number, now: Dayjs = dayjs()): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.config.defaultValue !== undefined) values[field.name] = toDateValue(field.type, field.config.defaultValue);
    else if (field.type === 'dateRange' && field.config.defaultDate) values[field.name] = defaultDateRange(defaultDateSearch, now);
  }
  return values;
}
