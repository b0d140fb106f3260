import { and, asc, Column, desc, eq, getTableName, gte, ilike, inArray, lt, notInArray, Param, Placeholder, sql, SQL, StringChunk, Table } from 'drizzle-orm';
import { PgDialect, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Pagination } from '@p8/contract/envelope';
import { statementRows, type Tx } from '../db/connection.ts';
import { dateQuery, isStorableText, parseDateValue } from '@p8/contract/text';
import { BizError } from './errors.ts';

/**
 * The one list-query helper every list route uses:
 * `current`, `pageSize` (≤ 200), declared filters, `<field>Sort=asc|desc`, `notIn<Field>=1,2`,
 * a date range as `start`/`end`, and `{list}/statistics` sums over the same filters.
 */
export const PAGE_SIZES = [10, 25, 50, 100, 200] as const;
export const MAX_PAGE_SIZE = 200;

/**
 * `like` is a case-insensitive contains-filter; `contains` is the same filter served, when selective, by
 * the column's trigram index (needs `ListSpec.table` and a `gin_trgm_ops` index on the column, and
 * `runPage` with `big`): use it on big tables.
 */
export type FilterKind = 'eq' | 'like' | 'contains' | 'in' | 'bool' | 'number';

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
  /**
   * The tenant table whose own rows the list shows, for lists that grow big (staff, bills). Declaring it
   * turns on what keeps them fast at 100,000 rows (bench/staff-list.ts): requested sorts end in `id` in
   * the same direction (one `(tenant_id, column, id)` index serves both), `contains` filters, deep pages
   * that read their ids from an index first, and exact totals cached by the table's version when a
   * migration made it counted (`p8_count_table`). The list's filters may then refer to this table's
   * columns only (subqueries are fine), not to joined tables.
   */
  table?: TenantTable;
  /**
   * `false`: the declared table has no list version (no `p8_count_table`: its writers must not queue on one
   * row — bills), so a page does not look one up; its totals are counted each time, known by the route, or
   * remembered by a version the route gives (`BigList.version`).
   */
  versioned?: false;
}

/** A tenant table: every one has `tenant_id` and an `id` unique within the tenant. */
export type TenantTable = PgTable & { tenantId: AnyPgColumn; id: AnyPgColumn };

export interface ParsedList {
  current: number;
  pageSize: number;
  where: SQL | undefined;
  orderBy: SQL[];
  table?: TenantTable;
  /** `ListSpec.versioned`. */
  versioned?: false;
  /**
   * The order as columns when a row's position can be sought by value: a declared table, requested
   * sorts all one way over NOT NULL columns, ending in the id tie-break (see `rowsByKeys`).
   */
  seek?: { columns: AnyPgColumn[]; direction: 'asc' | 'desc' };
  /** The `contains` filters: `where` holds them as ILIKE; `runPage` may narrow them to ids (see there). */
  contains?: ContainsFilter[];
  /** `where`'s parts, in order; `contains[i].index` points into it. */
  conditions?: SQL[];
  /**
   * A date range (`start` / `end`) narrows the rows: how many it keeps depends on the values, so a plan
   * made once for any value may be a poor one; its statements are planned for their values each time
   * (not prepared, see `statementRows`).
   */
  ranged?: boolean;
}

interface ContainsFilter {
  index: number;
  column: AnyPgColumn;
  pattern: string;
  /** The searched text, for the trigram rule (at least 3 characters). */
  text: string;
}

const pageSchema = z.object({
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});

/**
 * Query-string schema of a list, statistics or export route, for validation and OpenAPI: the page, the
 * date range, and any filter as text PostgreSQL can store (one value or repeated). The filters' meaning
 * is checked by `parseList`, which validates the query with this schema too, whatever the route declared.
 */
export const listQuerySchema = pageSchema
  .extend({ start: dateQuery.optional(), end: dateQuery.optional() })
  .catchall(z.union([z.string(), z.array(z.string())]).refine((v) => (Array.isArray(v) ? v : [v]).every(isStorableText), { message: 'TextNotStorable' }));

function parseDate(value: string, field: string, endOfDay: boolean): Date {
  // An end date without a time means the whole day: the range is [start, end + 1 day).
  const date = parseDateValue(value, endOfDay);
  if (!date) throw new BizError('DateOutOfRange', { additional: field });
  return date;
}

function ids(value: string, field: string): number[] {
  const list = value.split(',').filter(Boolean).map(Number);
  if (list.some((n) => !Number.isSafeInteger(n))) throw new BizError('BadRequest', { additional: field });
  return list;
}

export function parseList(spec: ListSpec, query: Record<string, unknown>, extra: Array<SQL | undefined> = []): ParsedList {
  const page = listQuerySchema.parse(query);
  const conditions: SQL[] = extra.filter((c): c is SQL => c !== undefined);
  const contains: ContainsFilter[] = [];
  const orderBy: SQL[] = [];
  const sorted: Array<{ column: AnyPgColumn; direction: 'asc' | 'desc' }> = [];
  let lastDirection: 'asc' | 'desc' | undefined;
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || raw === '' || name === 'current' || name === 'pageSize') continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (name.endsWith('Sort')) {
      const field = spec.fields[name.slice(0, -4)];
      if (!field?.sortable) throw new BizError('BadRequest', { additional: name });
      if (value !== 'asc' && value !== 'desc') throw new BizError('BadRequest', { additional: name });
      orderBy.push(value === 'asc' ? asc(field.column) : desc(field.column));
      if (!(field.column instanceof SQL)) sorted.push({ column: field.column, direction: value });
      lastDirection = value;
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
        conditions.push(ilike(column, containsPattern(value)));
        break;
      case 'contains':
        if (!spec.table) throw new Error(`list filter ${name}: 'contains' needs ListSpec.table`);
        contains.push({ index: conditions.length, column, pattern: containsPattern(value), text: value });
        conditions.push(ilike(column, containsPattern(value)));
        break;
    }
  }
  // Ties broken by id in the direction of the last requested sort, so that one (tenant_id, column, id)
  // index serves the column both ways; without a declared table the spec's default order breaks ties.
  const tieBreak = spec.table && lastDirection ? [lastDirection === 'asc' ? asc(spec.table.id) : desc(spec.table.id)] : spec.defaultOrder;
  const seekable =
    spec.table && lastDirection && sorted.length === orderBy.length && sorted.every((s) => s.direction === lastDirection && s.column.notNull);
  return {
    current: page.current,
    pageSize: page.pageSize,
    ranged: query.start !== undefined || query.end !== undefined,
    where: and(...conditions),
    conditions,
    contains,
    orderBy: [...orderBy, ...tieBreak],
    table: spec.table,
    versioned: spec.versioned,
    seek: seekable ? { columns: [...sorted.map((s) => s.column), spec.table!.id], direction: lastDirection! } : undefined,
  };
}

/** `%value%` with LIKE's wildcards escaped, so that a search for "50%" finds "50%", not everything. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A query the helper can finish: Drizzle's dynamic select builders satisfy it. */
export interface DynamicSelect<T> extends PromiseLike<T[]> {
  where(where: SQL | undefined): DynamicSelect<T>;
  orderBy(...columns: SQL[]): DynamicSelect<T>;
  limit(n: number): DynamicSelect<T>;
  offset(n: number): DynamicSelect<T>;
  toSQL(): { sql: string; params: unknown[] };
  /** The same query, never run as a named prepared statement (fixedSelect's; see `ParsedList.ranged`). */
  unprepared?(): DynamicSelect<T>;
}

const dialect = new PgDialect();

/**
 * A list's row (or count) query whose fixed part — the selected columns, FROM and joins — is rendered to
 * SQL text once, when the module loads; each request adds only its where, order and limit. For the lists
 * that must be fast at volume (staff): Drizzle's query builder spends ≈ 0.1–0.3 ms of CPU rendering a
 * 20-column select with a join, more than PostgreSQL takes to answer the page (bench/README.md, issue 9).
 * `selection` is what `tx.select(selection)` would take (columns, or `sql` without parameters, whose values
 * come back as the driver gives them: cast them in SQL); column values are decoded by their columns
 * (`mapFromDriverValue`), so rows equal what Drizzle's select returns.
 * `from` is the FROM clause as SQL text; tables keep their own names (no aliases), as the conditions
 * Drizzle renders name them so. `groupBy` (SQL text) groups the rows after the request's where.
 */
/**
 * A column written with its table's name, for a correlated subquery in a select list: Drizzle writes the columns
 * of a single-table select bare, and a subquery over another table with the same column names (`tenant_id`,
 * `id`, `created_by`) would take them for its own.
 */
export function qualified(column: AnyPgColumn | SQL): SQL {
  return column instanceof SQL ? column : sql.raw(`"${getTableName(column.table)}"."${column.name}"`);
}

export function fixedSelect<T extends object>(selection: Record<string, AnyPgColumn | SQL>, from: string, groupBy?: string): FixedQuery<T> {
  const fields = Object.entries(selection);
  const columns = fields.map(([key, field]) => {
    if (!(field instanceof SQL)) return `"${getTableName(field.table)}"."${field.name}" as "${key}"`;
    const { sql: text, params } = dialect.sqlToQuery(field);
    // A value would be lost here (the text is kept, never its parameters): write constants into the SQL.
    if (params.length) throw new Error(`fixedSelect: the selection's ${key} carries parameters`);
    return `${text} as "${key}"`;
  });
  const head = sql.raw(`select ${columns.join(', ')} from ${from}`);
  const tail = groupBy ? sql.raw(`group by ${groupBy}`) : undefined;
  const decode = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of fields) {
      const value = row[key];
      out[key] = value === null || value === undefined ? null : field instanceof SQL ? value : field.mapFromDriverValue(value);
    }
    return out as T;
  };
  return (tx) => new FixedSelect<T>(tx, head, tail, decode, {});
}

/** A `fixedSelect`: its statement on a transaction, to finish with where, order and limit. */
export type FixedQuery<T> = (tx: Tx) => DynamicSelect<T>;

interface FixedParts {
  where?: SQL;
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
  unprepared?: boolean;
}

class FixedSelect<T> implements DynamicSelect<T> {
  constructor(
    private readonly tx: Tx,
    private readonly head: SQL,
    private readonly tail: SQL | undefined,
    private readonly decode: (row: Record<string, unknown>) => T,
    private readonly parts: FixedParts,
  ) {}

  private with(parts: FixedParts) {
    return new FixedSelect<T>(this.tx, this.head, this.tail, this.decode, { ...this.parts, ...parts });
  }
  where(where: SQL | undefined) {
    return this.with({ where });
  }
  unprepared() {
    return this.with({ unprepared: true });
  }
  orderBy(...columns: SQL[]) {
    return this.with({ orderBy: columns });
  }
  limit(n: number) {
    return this.with({ limit: n });
  }
  offset(n: number) {
    return this.with({ offset: n });
  }
  /** Rendered once per query, whether its text keys a cache, runs, or both. */
  private rendered?: { sql: string; params: unknown[] };
  toSQL() {
    if (this.rendered) return this.rendered;
    const { where, orderBy, limit, offset } = this.parts;
    // The limit as a literal (a page size: few texts): a prepared statement whose limit is a parameter
    // keeps being planned for each value (statementRows).
    if (limit !== undefined && !Number.isSafeInteger(limit)) throw new Error(`fixedSelect: limit ${limit}`);
    const query = sql.join(
      [
        this.head,
        where && sql`where ${where}`,
        this.tail,
        orderBy?.length ? sql`order by ${sql.join(orderBy, sql`, `)}` : undefined,
        limit !== undefined ? sql.raw(`limit ${limit}`) : undefined,
        offset ? sql`offset ${offset}` : undefined,
      ].filter((part): part is SQL => part !== undefined),
      sql` `,
    );
    this.rendered = listStatementText(query) ?? dialect.sqlToQuery(query);
    return this.rendered;
  }
  then<R1 = T[], R2 = never>(onFulfilled?: ((rows: T[]) => R1 | PromiseLike<R1>) | null, onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): PromiseLike<R1 | R2> {
    const { sql: text, params } = this.toSQL();
    return statementRows<Record<string, unknown>>(this.tx, text, params, !this.parts.unprepared)
      .then((rows) => rows.map(this.decode))
      .then(onFulfilled, onRejected);
  }
}

/**
 * A list statement as `$n` text and its parameters, the same as Drizzle's `sqlToQuery` gives, rendered by a
 * walk of its own over what list statements are made of — text, columns and tables of the public schema,
 * parameters, nested SQL, lists of values — telling them apart with `instanceof`: Drizzle's renderer asks
 * `is()` (a walk up the prototype chain per class tried) of every piece, ≈ 0.1 ms for a bill list's where
 * and order, more than PostgreSQL takes to run the prepared page (bench/README.md, bills). Anything else
 * (placeholders, subqueries, aliased fields, inlined parameters…): undefined, the statement is Drizzle's to render.
 */
export function listStatementText(query: SQL): { sql: string; params: unknown[] } | undefined {
  const params: unknown[] = [];
  const text = renderChunks(query.queryChunks, params);
  return text === undefined ? undefined : { sql: text, params };
}

function renderChunks(chunks: readonly unknown[], params: unknown[]): string | undefined {
  let text = '';
  for (const chunk of chunks) {
    const part = renderChunk(chunk, params);
    if (part === undefined) return undefined;
    text += part;
  }
  return text;
}

/** Drizzle's symbols of a table's name and schema (runtime keys its types leave out). */
const TABLE_KEYS = (Table as unknown as { Symbol: { Name: symbol; Schema: symbol } }).Symbol;
/** A name quoted as PostgreSQL's (and Drizzle's `escapeName`). */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

function renderChunk(chunk: unknown, params: unknown[]): string | undefined {
  if (chunk instanceof StringChunk) return chunk.value.join('');
  if (chunk === undefined) return '';
  if (chunk instanceof SQL) return (chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams ? undefined : renderChunks(chunk.queryChunks, params);
  if (Array.isArray(chunk)) {
    const items: string[] = [];
    for (const item of chunk) {
      const part = renderChunk(item, params);
      if (part === undefined) return undefined;
      items.push(part);
    }
    return `(${items.join(', ')})`;
  }
  if (chunk instanceof Column) {
    const table = chunk.table as unknown as Record<symbol, string | undefined>;
    if (chunk.keyAsName || table[TABLE_KEYS.Schema] !== undefined) return undefined;
    return `${quoted(table[TABLE_KEYS.Name]!)}.${quoted(chunk.name)}`;
  }
  if (chunk instanceof Table) {
    const table = chunk as unknown as Record<symbol, string | undefined>;
    return table[TABLE_KEYS.Schema] === undefined ? quoted(table[TABLE_KEYS.Name]!) : undefined;
  }
  if (chunk instanceof Param) {
    if (chunk.value instanceof Placeholder) return undefined;
    const value = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
    if (value instanceof SQL) return undefined;
    params.push(value);
    return `$${params.length}`;
  }
  // A value is a parameter (as Drizzle has it): a primitive, a date, a plain object. Any other piece of Drizzle's
  // (placeholder, aliased field, subquery, view, a wrapper of SQL) is left to Drizzle.
  const value = chunk === null || typeof chunk !== 'object' || chunk instanceof Date || (Object.getPrototypeOf(chunk) === Object.prototype && !('getSQL' in chunk));
  if (!value) return undefined;
  params.push(chunk);
  return `$${params.length}`;
}

/** The transaction and tenant of a list over a declared `ListSpec.table`. */
export interface BigList {
  tx: Tx;
  tenantId: number;
  /**
   * The list's version when it is not its table's `list_version` (a table that has none, `ListSpec.versioned:
   * false`): what the count cache and the deep page's positions are keyed by — bills: their type's `bill_version`.
   * Undefined (or answering undefined): nothing remembered, the list is counted each time.
   */
  version?: () => Promise<string | undefined>;
}

/**
 * Runs one page: the rows and the total, with the same WHERE. `rows` and `count` are the route's own
 * select builders (`.$dynamic()`), so joins and selections stay with the route. With `big` (and a
 * declared `ListSpec.table`) a deep page reads its ids first and the total may come from the count cache.
 * `knownTotal`: the total as the route already knows it from its own counters (bills: `bill_count`), not counted.
 */
export async function runPage<T extends object>(
  parsed: ParsedList,
  rows: DynamicSelect<T>,
  count: DynamicSelect<{ total: number }>,
  big?: BigList,
  knownTotal?: number,
): Promise<{ data: T[]; pagination: Pagination }> {
  const table = big && parsed.table;
  if (parsed.ranged) {
    rows = rows.unprepared?.() ?? rows;
    count = count.unprepared?.() ?? count;
  }
  if (table && parsed.contains?.length) parsed = await narrowContains(parsed, table, big);
  const offset = (parsed.current - 1) * parsed.pageSize;
  // The list's version for the tenant keys what is remembered of this query (undefined: not remembered); not
  // read when nothing would be remembered (a first page whose total the route knows).
  const version = table && (knownTotal === undefined || offset > 0) ? await listVersion(parsed, table, big) : undefined;
  const data = table && offset > 0 ? await rowsByKeys(parsed, rows, table, big, offset, version) : await rows.where(parsed.where).orderBy(...parsed.orderBy).limit(parsed.pageSize).offset(offset);
  const total =
    knownTotal ?? (table ? await cachedTotal(count.where(parsed.where), version) : Number((await count.where(parsed.where))[0].total));
  return { data, pagination: { current: parsed.current, pageSize: parsed.pageSize, total } };
}

/** Beyond this many matches a search is not selective: the trigram index would cost more than it saves. */
const SELECTIVE_MATCHES = 1000;

/**
 * Serves selective contains-filters from the trigram index. Row-level security keeps ILIKE (not
 * leakproof) away from any index, so `p8_contains` (migration 0004) searches the index for the current
 * tenant and hands back at most SELECTIVE_MATCHES + 1 ids. Up to SELECTIVE_MATCHES, the filter becomes
 * "id in those ids" (a few primary-key reads instead of a scan of the tenant). Beyond, or for fewer than
 * 3 characters (no trigram), the ILIKE stays: when most rows match, reading in order and filtering finds
 * a page at once, where collecting every matching id would take far longer.
 */
async function narrowContains(parsed: ParsedList, table: TenantTable, big: BigList): Promise<ParsedList> {
  const conditions = [...(parsed.conditions ?? [])];
  for (const filter of parsed.contains ?? []) {
    if ([...filter.text].length < 3) continue;
    const found = await statementRows<{ id: string | number }>(big.tx, 'select p8_contains($1::regclass, $2, $3, $4) as id', [
      getTableName(table),
      filter.column.name,
      filter.pattern,
      SELECTIVE_MATCHES + 1,
    ]);
    const ids = found.map((r) => Number(r.id));
    if (ids.length > SELECTIVE_MATCHES) continue;
    conditions[filter.index] = ids.length ? idIn(table, ids) : sql`false`;
  }
  return { ...parsed, conditions, where: and(...conditions) };
}

/** `id = any($1::bigint[])`: one parameter however many ids, so the statement's text stays the same. */
const idIn = (table: TenantTable, ids: number[]) => sql`${table.id} = any(${sql.param(ids)}::bigint[])`;

/**
 * A deep page in two steps: the page's ids from an index-only scan (skipping 40,000 index entries costs
 * little; skipping 40,000 joined rows does not), then those rows by id, put back in the page's order.
 *
 * Where the order can be sought by value (`ParsedList.seek`), the positions of rows already served are
 * remembered per query and table version (like the totals below): the next page starts from the last row
 * of the one before (`(real_name, id) >= (…)`, offset 1), and a page asked again starts at its own first
 * row, instead of skipping every row before it each time. Any write gives the table a new version, and
 * with it a fresh start.
 */
async function rowsByKeys<T extends object>(parsed: ParsedList, rows: DynamicSelect<T>, table: TenantTable, big: BigList, offset: number, version: string | undefined): Promise<T[]> {
  const seek = parsed.seek;
  const keysSelect = keysOf(table, seek?.columns ?? [])(big.tx);
  const keysQuery = parsed.ranged ? keysSelect.unprepared!() : keysSelect;
  let keys: Array<Record<string, unknown>>;
  const positions = seek && version ? seekPositions(keysQuery.where(parsed.where).orderBy(...parsed.orderBy), version) : undefined;
  const from = positions?.nearest(offset);
  if (seek && from) {
    const row = sql.join(seek.columns, sql`, `);
    const bound = sql.join(from.values.map((v) => sql`${v}`), sql`, `);
    const after = seek.direction === 'asc' ? sql`(${row}) >= (${bound})` : sql`(${row}) <= (${bound})`;
    keys = await keysQuery.where(and(parsed.where, after)).orderBy(...parsed.orderBy).limit(parsed.pageSize).offset(offset - from.offset);
  } else {
    keys = await keysQuery.where(parsed.where).orderBy(...parsed.orderBy).limit(parsed.pageSize).offset(offset);
  }
  if (positions && keys.length) {
    const valuesOf = (key: Record<string, unknown>) => seek!.columns.map((_, i) => key[`v${i}`]);
    positions.remember(offset, valuesOf(keys[0]));
    positions.remember(offset + keys.length - 1, valuesOf(keys[keys.length - 1]));
  }
  const ids = keys.map((r) => Number(r.id));
  if (!ids.length) return [];
  const found = await rows.where(and(eq(table.tenantId, big.tenantId), idIn(table, ids)));
  const position = new Map(ids.map((id, index) => [id, index]));
  const idOf = (row: T) => Number((row as { id?: unknown }).id);
  if (found.some((row) => !position.has(idOf(row)))) throw new Error(`runPage: the rows of a ${getTableName(table)} list must select its id as \`id\``);
  return found.sort((a, b) => position.get(idOf(a))! - position.get(idOf(b))!);
}

/**
 * The select of a deep page's keys (the id, and the sort columns as text — the way PostgreSQL prints them, so
 * a timestamp keeps its microseconds, which a JS Date would not), rendered once per table and sort.
 */
const keysQueries = new Map<string, (tx: Tx) => DynamicSelect<Record<string, unknown>>>();
function keysOf(table: TenantTable, columns: AnyPgColumn[]) {
  const key = `${getTableName(table)}:${columns.map((c) => c.name).join(',')}`;
  let query = keysQueries.get(key);
  if (!query) {
    const values = Object.fromEntries(columns.map((column, i) => [`v${i}`, sql<string>`${column}::text`]));
    query = fixedSelect<Record<string, unknown>>({ id: table.id, ...values }, `"${getTableName(table)}"`);
    keysQueries.set(key, query);
  }
  return query;
}

/** Known rows of one ordered query (position → its sort values), at most SEEK_POSITIONS_KEPT of them. */
class SeekPositions {
  private readonly known = new Map<number, unknown[]>();

  nearest(offset: number): { offset: number; values: unknown[] } | undefined {
    let best: number | undefined;
    for (const position of this.known.keys()) if (position <= offset && (best === undefined || position > best)) best = position;
    return best === undefined ? undefined : { offset: best, values: this.known.get(best)! };
  }

  remember(offset: number, values: unknown[]) {
    this.known.delete(offset);
    if (this.known.size >= SEEK_POSITIONS_KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(offset, values);
  }
}

const SEEK_POSITIONS_KEPT = 64;
const seekCache = new Map<string, SeekPositions>();

/** The positions known for this query at this version of the table. */
function seekPositions(query: DynamicSelect<unknown>, version: string): SeekPositions {
  const key = queryKey(version, query);
  let positions = seekCache.get(key);
  if (!positions) {
    if (seekCache.size >= CACHED_QUERIES_KEPT) seekCache.delete(seekCache.keys().next().value!);
    positions = new SeekPositions();
    seekCache.set(key, positions);
  }
  return positions;
}

/** What the caches remember a query's answers by: the table's version, the SQL and its parameters. */
function queryKey(version: string, query: DynamicSelect<unknown>): string {
  const { sql: text, params } = query.toSQL();
  return `${version}\u0000${text}\u0000${JSON.stringify(params)}`;
}

/** The list's version: its own (`BigList.version`), else its table's for the tenant when the table has one. */
function listVersion(parsed: ParsedList, table: TenantTable, big: BigList): Promise<string | undefined> {
  if (big.version) return big.version();
  return parsed.versioned === false ? Promise.resolve(undefined) : tableVersion(table, big);
}

/** The table's current version for the tenant (list_version), or undefined for a table no migration counts. */
async function tableVersion(table: TenantTable, big: BigList): Promise<string | undefined> {
  // Written out rather than built with Drizzle: it runs on every page of every big list.
  const [row] = await statementRows<{ version: string }>(big.tx, 'select version from list_version where tenant_id = $1 and table_name = $2', [big.tenantId, getTableName(table)]);
  return row?.version;
}

/**
 * Exact totals (and a list's other small answers: its statistics' sums, its counts per status), computed once
 * per version of what they count (list_version, bumped by the table's triggers in the same transaction as the
 * write; bills: their type's `bill_version`, bumped as the writing transaction commits): the next page of the
 * same query costs one primary-key lookup instead of a count over every matching row. The key is the version,
 * the statement's text and its parameters — the tenant, every filter and the caller's data scope are among
 * them, so two callers share an entry exactly when they ask the same of the same rows. A list without a
 * version is simply counted each time. Process-local and bounded; versions are random uuids, so entries of
 * another database (tests run many) can never be mistaken for this one's.
 */
const remembered = new Map<string, readonly unknown[]>();
const CACHED_QUERIES_KEPT = 2000;

/**
 * The rows of a small aggregate query (a count, sums, counts per status), remembered by `version` (undefined:
 * run each time). The rows handed back are shared between requests: read them, never change them.
 */
async function cachedRows<T>(query: DynamicSelect<T>, version: string | undefined): Promise<readonly T[]> {
  const key = version && queryKey(version, query);
  const known = key ? remembered.get(key) : undefined;
  if (known) return known as readonly T[];
  const found = Object.freeze(await query);
  if (key) {
    if (remembered.size >= CACHED_QUERIES_KEPT) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, found);
  }
  return found;
}

async function cachedTotal(count: DynamicSelect<{ total: number }>, version: string | undefined): Promise<number> {
  return Number((await cachedRows(count, version))[0].total);
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
