import { and, asc, desc, eq, gte, ilike, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Pagination } from '@p8/contract/envelope';
import { BizError } from './errors.ts';

/**
 * The one list-query helper every list route uses (DESIGN §3 "Paged lists"):
 * `current`, `pageSize` (≤ 200), declared filters, `<field>Sort=asc|desc`, `notIn<Field>=1,2`,
 * a date range as `start`/`end`, and `{list}/statistics` sums over the same filters.
 */
export const PAGE_SIZES = [10, 25, 50, 100, 200] as const;
export const MAX_PAGE_SIZE = 200;

export type FilterKind = 'eq' | 'like' | 'in' | 'bool' | 'number';

export interface ListField {
  column: AnyPgColumn | SQL;
  /** How a query parameter of this name filters; omitted = not filterable. */
  filter?: FilterKind;
  sortable?: boolean;
  /** Summed by `{list}/statistics`. */
  sum?: boolean;
  /** `notIn<Field>` accepted (ids). */
  notIn?: boolean;
}

export interface ListSpec {
  fields: Record<string, ListField>;
  /** Column the `start` / `end` range applies to. */
  dateColumn?: AnyPgColumn;
  /** Order when the query sends none; the last key should be unique so paging is stable. */
  defaultOrder: SQL[];
}

export interface ParsedList {
  current: number;
  pageSize: number;
  where: SQL | undefined;
  orderBy: SQL[];
}

const pageSchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});

/** Query-string schema of a list route, for validation and OpenAPI; the filters are checked by `parseList`. */
export const listQuerySchema = pageSchema.catchall(z.union([z.string(), z.array(z.string())]));

function parseDate(value: string, field: string, endOfDay: boolean): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) throw new BizError('BadRequest', { additional: field });
  // An end date without a time means the whole day: the range is [start, end + 1 day).
  if (dateOnly && endOfDay) date.setDate(date.getDate() + 1);
  return date;
}

function ids(value: string, field: string): number[] {
  const list = value.split(',').filter(Boolean).map(Number);
  if (list.some((n) => !Number.isSafeInteger(n))) throw new BizError('BadRequest', { additional: field });
  return list;
}

export function parseList(spec: ListSpec, query: Record<string, unknown>, extra: Array<SQL | undefined> = []): ParsedList {
  const page = pageSchema.parse(query);
  const conditions: Array<SQL | undefined> = [...extra];
  const orderBy: SQL[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || raw === '' || name === 'current' || name === 'pageSize') continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (name.endsWith('Sort')) {
      const field = spec.fields[name.slice(0, -4)];
      if (!field?.sortable) throw new BizError('BadRequest', { additional: name });
      if (value !== 'asc' && value !== 'desc') throw new BizError('BadRequest', { additional: name });
      orderBy.push(value === 'asc' ? asc(field.column) : desc(field.column));
      continue;
    }
    if (name.startsWith('notIn') && name.length > 5) {
      const key = name.charAt(5).toLowerCase() + name.slice(6);
      const field = spec.fields[key];
      if (!field?.notIn) throw new BizError('BadRequest', { additional: name });
      const list = ids(value, name);
      if (list.length) conditions.push(notInArray(field.column as AnyPgColumn, list));
      continue;
    }
    if (name === 'start' || name === 'end') {
      if (!spec.dateColumn) throw new BizError('BadRequest', { additional: name });
      const date = parseDate(value, name, name === 'end');
      conditions.push(name === 'start' ? gte(spec.dateColumn, date) : lt(spec.dateColumn, date));
      continue;
    }
    const field = spec.fields[name];
    if (!field?.filter) continue; // unknown parameters are ignored, as a browser may add its own
    const column = field.column as AnyPgColumn;
    switch (field.filter) {
      case 'eq':
        conditions.push(eq(column, value));
        break;
      case 'number': {
        const n = Number(value);
        if (!Number.isFinite(n)) throw new BizError('BadRequest', { additional: name });
        conditions.push(eq(column, n));
        break;
      }
      case 'bool':
        if (value !== 'true' && value !== 'false' && value !== '1' && value !== '0') throw new BizError('BadRequest', { additional: name });
        conditions.push(eq(column, value === 'true' || value === '1'));
        break;
      case 'in':
        conditions.push(inArray(column, ids(value, name)));
        break;
      case 'like':
        // Escape LIKE wildcards so that a search for "50%" finds "50%", not everything.
        conditions.push(ilike(column, `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
        break;
    }
  }
  return {
    current: page.current,
    pageSize: page.pageSize,
    where: and(...conditions.filter((c): c is SQL => c !== undefined)),
    orderBy: [...orderBy, ...spec.defaultOrder],
  };
}

/** A query the helper can finish: Drizzle's dynamic select builders satisfy it. */
interface DynamicSelect<T> extends PromiseLike<T[]> {
  where(where: SQL | undefined): DynamicSelect<T>;
  orderBy(...columns: SQL[]): DynamicSelect<T>;
  limit(n: number): DynamicSelect<T>;
  offset(n: number): DynamicSelect<T>;
}

/**
 * Runs one page: the rows and the total, with the same WHERE. `rows` and `count` are the route's own
 * select builders (`.$dynamic()`), so joins and selections stay with the route.
 */
export async function runPage<T>(
  parsed: ParsedList,
  rows: DynamicSelect<T>,
  count: DynamicSelect<{ total: number }>,
): Promise<{ data: T[]; pagination: Pagination }> {
  const [data, [{ total }]] = [
    await rows.where(parsed.where).orderBy(...parsed.orderBy).limit(parsed.pageSize).offset((parsed.current - 1) * parsed.pageSize),
    await count.where(parsed.where),
  ];
  return { data, pagination: { current: parsed.current, pageSize: parsed.pageSize, total: Number(total) } };
}

/** The `sum(...)` selection of a spec's summable fields, for `{list}/statistics`. */
export function statisticsSelection(spec: ListSpec): Record<string, SQL<string>> {
  return Object.fromEntries(
    Object.entries(spec.fields)
      .filter(([, f]) => f.sum)
      .map(([name, f]) => [name, sql<string>`coalesce(sum(${f.column}), 0)::text`]),
  );
}

export const countAll = () => ({ total: sql<number>`count(*)::int` });
