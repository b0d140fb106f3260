import { desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { nameKey } from '@p8/contract/bills/fields';
import { headerFields, lineKindOf, meets, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BillStatus, POSTED_STATUSES } from '@p8/contract/bills/status';
import { parseDateValue } from '@p8/contract/text';
import { BizError } from '../core/errors.ts';
import { callerScope } from '../core/data-scope.ts';
import { countAll, fixedSelect, listStatementText, parseList, runPage, statisticsSelection, type DynamicSelect, type FilterKind, type FixedQuery, type ListField, type ListSpec } from '../core/list-query.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { statementRows } from '../db/connection.ts';
import { bill, billCount } from '../db/schema/index.ts';
import { refNameSubquery } from '../core/record-refs.ts';

/**
 * The list of a bill type, derived from its declaration: header fields with a column become list
 * fields (filter by their `search`, sorted when `sortable`, summed when `sum`), plus the status; an enum
 * field kept in `extra` (an opening balance's type) filters by its value there when it declares `search: 'eq'`.
 * `start` / `end` bound the bill date (calendar days, both included).
 */

const SEARCH_FILTER: Record<string, FilterKind> = { eq: 'eq', contains: 'contains', in: 'in' };

function listSpecOf(decl: BillTypeDecl): ListSpec {
  const fields: Record<string, ListField> = { billStatus: { column: bill.billStatus, filter: 'in' as FilterKind } };
  for (const field of headerFields(decl)) {
    if (field.kind === 'attachments') continue;
    const column = (bill as unknown as Record<string, AnyPgColumn | undefined>)[field.key];
    // A type's own header field is kept in `extra`: it filters by its text there, when it declares a search —
    // an enum by its value, a text by what it contains (a task's title).
    if (!column && !((field.search === 'eq' && field.kind === 'enum') || (field.search === 'contains' && field.kind === 'text'))) continue;
    fields[field.key] = {
      column: column ?? sql`(${bill.extra} ->> ${field.key})`,
      // A text in `extra` has no trigram index to narrow by: a plain case-insensitive contains.
      filter: field.search ? (column ? SEARCH_FILTER[field.search] : field.search === 'contains' ? 'like' : SEARCH_FILTER[field.search]) : undefined,
      sortable: field.sortable,
      sum: field.sum,
    };
  }
  // Status tabs filter by one status; `in` needs ids, so the status is its own exact filter.
  fields.billStatus = { column: bill.billStatus, filter: 'eq' };
  // No list version for bills (their writers would queue on its row): a filtered list is counted each time.
  return { fields, defaultOrder: [desc(bill.billDate), desc(bill.id)], table: bill, versioned: false };
}

/** The list spec of a bill type (built once per type). */
export const billListSpec = (decl: BillTypeDecl): ListSpec => kitOf(decl).spec;

/** The bill-date bounds of a list query (`start`, `end` as days), removed from the query. */
function dateBounds(query: Record<string, unknown>): { rest: Record<string, unknown>; conditions: SQL[] } {
  const { start, end, ...rest } = query;
  const conditions: SQL[] = [];
  for (const [name, value, op] of [
    ['start', start, gte],
    ['end', end, lte],
  ] as const) {
    if (value === undefined || value === '') continue;
    const text = String(value).slice(0, 10);
    if (!parseDateValue(text)) throw new BizError('DateOutOfRange', { additional: name });
    conditions.push(op(bill.billDate, text));
  }
  return { rest, conditions };
}

/**
 * A list query that filters by nothing but a status tab (paging and sorting aside): its total and sums are
 * those of the sharded `bill_count` rows of the type (and status), read instead of counted. At 500,000 bills
 * of a type counting took 190–600 ms a request (bench/README.md, bills).
 */
const UNFILTERING = new Set(['current', 'pageSize', 'billStatus']);
const countedOnly = (query: Record<string, unknown>) => Object.entries(query).every(([key, value]) => value === undefined || value === '' || UNFILTERING.has(key) || key.endsWith('Sort'));

/**
 * The values of a reading of the type's counters' rows (of one status unless the query shows them all) when they
 * stand for the list — nothing but a status tab filters it and the caller sees every bill of the type; undefined
 * when the list must be counted. The list's total, its statistics and its status tabs all ask here.
 */
function counters(ctx: ServiceContext, decl: BillTypeDecl, parsed: { scoped: boolean }, query: Record<string, unknown>): unknown[] | undefined {
  // The sharded counters count every bill of the type: they stand for a list only when the caller sees them all.
  if (parsed.scoped || !countedOnly(query)) return undefined;
  const status = query.billStatus;
  return typeof status === 'string' && status !== '' && status !== 'all' ? [ctx.tenantId, decl.type, status] : [ctx.tenantId, decl.type];
}

/**
 * A reading of the counters, written out once (`select …` and what follows the where) and prepared on PostgreSQL:
 * the unfiltered list, statistics and tabs of every type run one per request, without building or rendering a
 * statement (`values`: `counters`).
 */
function countersReading(select: string, after = ''): <T>(ctx: ServiceContext, values: unknown[]) => Promise<T[]> {
  const texts = [false, true].map((oneStatus) => `select ${select} from bill_count where tenant_id = $1 and bill_type = $2${oneStatus ? ' and bill_status = $3' : ''}${after}`);
  return <T>(ctx: ServiceContext, values: unknown[]) => statementRows<T>(ctx.tx, texts[values.length === 3 ? 1 : 0], values);
}

/** The header sums `bill_count` keeps, by list field. */
const COUNTED_SUMS: Record<string, AnyPgColumn> = { number: billCount.number, priceTotal: billCount.priceTotal, taxPriceTotal: billCount.taxPriceTotal };

/**
 * The caller's data scope over bills (core/data-scope.ts): a bill belongs to its creator and to the department
 * the creator was in when it was created. Every list, sum, count, export, push-down picker and read or write by
 * id of every bill type goes through it (`parsedListQuery`, `loadBill`, the source pickers); a bill outside it
 * is answered as missing. `alias` names the bill table of hand-written SQL (`b`).
 */
export function billScope(ctx: ServiceContext, alias?: string): Promise<SQL | undefined> {
  if (!alias) return callerScope(ctx, { dept: bill.ownerDeptId, owner: bill.createdBy });
  return callerScope(ctx, { dept: sql.raw(`${alias}.owner_dept_id`), owner: sql.raw(`${alias}.created_by`) });
}

/** A list query of the type parsed into its conditions and order (lists, statistics, exports, status tabs), within the caller's data scope. */
export async function parsedListQuery(ctx: ServiceContext, decl: BillTypeDecl, query: Record<string, unknown>, known?: { scope: SQL | undefined }) {
  const status = query.billStatus;
  if (status !== undefined && status !== '' && status !== 'all' && !BillStatus.includes(status as BillStatus)) throw new BizError('BadRequest', { additional: 'billStatus' });
  // The "all" tab filters by no status: the key goes (an undefined value would fail the query schema).
  const { billStatus: _all, ...unfiltered } = query;
  const { rest, conditions } = dateBounds(status === 'all' ? unfiltered : query);
  const scope = known ? known.scope : await billScope(ctx);
  const parsed = parseList(kitOf(decl).spec, rest, [eq(bill.tenantId, ctx.tenantId), eq(bill.billType, decl.type), ...conditions, ...(scope ? [scope] : [])]);
  // A date range's statements are planned for its values (`ParsedList.ranged`): one plan kept for any range reads
  // half a million bills through the date index for a range of years (4.2 s against 1.1 s planned for it, bench/README.md).
  return Object.assign(parsed, { scoped: scope !== undefined, ranged: conditions.length > 0 });
}

/**
 * What the audited settlement lines (payments, receipts, salary payments; merged bills' lines left out) took of
 * a bill — the `settled` its settlement progress and finance's open amount follow (bills.md, "Line kinds").
 * The statuses are written in as literals: the list's select text carries no parameters (`fixedSelect`).
 */
const settledAmountSql = () =>
  sql<string | null>`(select sum(l.price_total)::text from bill_line l join bill d on d.tenant_id = l.tenant_id and d.id = l.bill_id
      where l.tenant_id = bill.tenant_id and l.source_bill_id = bill.id and l.source_line_id is null
        and d.bill_status in (${sql.raw(POSTED_STATUSES.map((s) => `'${s}'`).join(', '))}))`;

/** A bill list's row selection of the type: the bill's own columns and the names of what it refers to. */
function rowSelection(decl: BillTypeDecl) {
  return {
    id: bill.id,
    billType: bill.billType,
    billCode: bill.billCode,
    billDate: bill.billDate,
    billStatus: bill.billStatus,
    supplierId: bill.supplierId,
    customerId: bill.customerId,
    warehouseId: bill.warehouseId,
    targetWarehouseId: bill.targetWarehouseId,
    handlerId: bill.handlerId,
    deptId: bill.deptId,
    deliveryDate: bill.deliveryDate,
    payDate: bill.payDate,
    receiptDate: bill.receiptDate,
    refundType: bill.refundType,
    number: sql<string>`${bill.number}::text`,
    priceTotal: sql<string>`${bill.priceTotal}::text`,
    taxPriceTotal: sql<string>`${bill.taxPriceTotal}::text`,
    remark: bill.remark,
    extra: bill.extra,
    progress: bill.progress,
    createdBy: bill.createdBy,
    createdAt: bill.createdAt,
    auditTime: bill.auditTime,
    rejectReason: bill.rejectReason,
    createdByName: refNameSubquery('staff', bill.tenantId, bill.createdBy),
    // The names beside the records the type's listed fields name (`supplierName`…), a type's own field from `extra`.
    ...Object.fromEntries(
      headerFields(decl)
        .filter((f) => f.kind === 'record' && f.list)
        .map((f) => {
          const column = (bill as unknown as Record<string, AnyPgColumn | undefined>)[f.key];
          // The key inline (a declared identifier), not a parameter: the statement's text is built once per type.
          return [nameKey(f.key), refNameSubquery(f.ref!, bill.tenantId, column ?? sql`(${bill.extra} ->> ${sql.raw(`'${f.key.replace(/\W/g, '')}'`)})::bigint`)];
        }),
    ),
    ...(decl.progress.includes('settlement') ? { settledAmount: settledAmountSql() } : {}),
  };
}
type ListedBill = SelectResultFields<ReturnType<typeof rowSelection>>;

/**
 * What a bill type's list reads, built once per type (bench/README.md, "Bill lists at the bare query's pace"): its
 * list spec, and its statements' select lists and FROM rendered to SQL text (`fixedSelect`) — each request adds
 * its where, order and limit, and the statement runs prepared on PostgreSQL (`statementRows`).
 */
interface BillListKit {
  spec: ListSpec;
  rows: FixedQuery<ListedBill>;
  count: FixedQuery<{ total: number }>;
  sums: FixedQuery<Record<string, string>>;
  byStatus: FixedQuery<{ status: string; total: number }>;
  /** The total, sums and tabs read from the type's counters (`bill_count`); no `countedSums` when the type sums a field they do not keep. */
  countedTotal: ReturnType<typeof countersReading>;
  countedSums?: ReturnType<typeof countersReading>;
  countedByStatus: ReturnType<typeof countersReading>;
  /** The settlement sources that take bills of this type (their `onlyWhen`), for a row's settled and open amounts. */
  settledBy: Array<{ onlyWhen?: Parameters<typeof meets>[0] }>;
}

const kits = new Map<string, BillListKit>();
function kitOf(decl: BillTypeDecl): BillListKit {
  const known = kits.get(decl.type);
  if (known) return known;
  const spec = listSpecOf(decl);
  const sums = statisticsSelection(spec);
  const counted = Object.keys(sums).every((key) => key in COUNTED_SUMS);
  const kit: BillListKit = {
    spec,
    rows: fixedSelect<ListedBill>(rowSelection(decl), 'bill'),
    count: fixedSelect<{ total: number }>(countAll(), 'bill'),
    sums: fixedSelect<Record<string, string>>(sums, 'bill'),
    byStatus: fixedSelect<{ status: string; total: number }>({ status: bill.billStatus, total: sql<number>`count(*)::int` }, 'bill', 'bill.bill_status'),
    countedTotal: countersReading('coalesce(sum(total), 0)::int as total'),
    countedSums: counted ? countersReading(Object.keys(sums).map((key) => `coalesce(sum("${COUNTED_SUMS[key].name}"), 0)::text as "${key}"`).join(', ')) : undefined,
    countedByStatus: countersReading('bill_status as status, sum(total)::int as total', ' group by bill_status'),
    settledBy: BILL_TYPES.flatMap((d) => (lineKindOf(d) === 'settlement' ? d.sources.filter((s) => s.type === decl.type) : [])),
  };
  kits.set(decl.type, kit);
  return kit;
}

/**
 * A posted bill's settled and open amounts as exact decimal text, signed like the bill; a bill not posted, or
 * one no settlement bill takes (`onlyWhen` of its sources: an exchange, an opening advance), has neither.
 */
function settledAndOpen(decl: BillTypeDecl, row: Record<string, unknown>, taxPriceTotal: string, settledAmount: string | null) {
  if (!POSTED_STATUSES.includes(row.billStatus as BillStatus) || !kitOf(decl).settledBy.some((s) => meets(s.onlyWhen, row))) return { settledAmount: null, unsettledAmount: null };
  const settled = toMicro(settledAmount ?? '0');
  return { settledAmount: microText(settled), unsettledAmount: microText(toMicro(taxPriceTotal) * BigInt(decl.settlement?.sign ?? 1) - settled) };
}

/**
 * A header sum as the answer's number. PostgreSQL writes a `numeric(20, 6)` (and its sums) exactly, with at
 * most six decimals: the number JavaScript reads from that text is the one `microNumber` would give.
 */
const amount = (text: string) => Number(text);

/**
 * The version of the tenant's bills of the type (`bill_version`, migration 0032: a new random uuid in a shard
 * whenever a transaction that wrote such bills commits), or undefined before the type's first bill. What a
 * bill list counts or sums is remembered by it (the page's total in `runPage`, the statistics and tabs in `remembered`): until the next write of the type, the same count,
 * sums or tabs — for the same filters and the same data scope, both part of the key — are not computed again.
 */
async function billVersion(ctx: ServiceContext, decl: BillTypeDecl): Promise<string | undefined> {
  const [row] = await statementRows<{ version: string | null }>(
    ctx.tx,
    `select string_agg(version::text, ',' order by shard) as version from bill_version where tenant_id = $1 and bill_type = $2`,
    [ctx.tenantId, decl.type],
  );
  return row?.version ?? undefined;
}

/** GET {path}: a page of bills with the names of what they refer to. */
export async function listBills(ctx: ServiceContext, decl: BillTypeDecl, query: Record<string, unknown>) {
  const kit = kitOf(decl);
  const p = await parsedListQuery(ctx, decl, query);
  const fromCounters = counters(ctx, decl, p, query);
  const [counted] = fromCounters ? await kit.countedTotal<{ total: number }>(ctx, fromCounters) : [];
  const page = await runPage(p, kit.rows(ctx.tx), kit.count(ctx.tx), { tx: ctx.tx, tenantId: ctx.tenantId, version: () => billVersion(ctx, decl) }, counted?.total);
  // Each row shaped in place — it is this request's own object, just decoded (`fixedSelect`): copying 30-odd keys
  // into a new object per row (rest and spread) took ≈ 6 % of a page's CPU (bench/README.md, bills).
  for (const row of page.data as Array<Record<string, unknown>>) {
    const { extra, number, priceTotal, taxPriceTotal, settledAmount } = row as { extra: Record<string, unknown> | null; number: string; priceTotal: string; taxPriceTotal: string; settledAmount?: string | null };
    // A type's own header fields kept in `extra` are answered beside the columns; `extra` itself is not sent (JSON leaves undefined out).
    if (extra) Object.assign(row, extra);
    row.extra = undefined;
    row.number = amount(number);
    row.priceTotal = amount(priceTotal);
    row.taxPriceTotal = amount(taxPriceTotal);
    // What payments (receipts, salary payments) settled of a posted bill and what is still open of it, exact
    // decimal text signed like the bill (a refund's are negative); a bill not posted has nothing open.
    if (settledAmount !== undefined) Object.assign(row, settledAndOpen(decl, row, taxPriceTotal, settledAmount));
  }
  return page;
}

/** A statement over the list's bills, unprepared for a date range (as `runPage` runs the page and its count). */
const planned = <T>(statement: DynamicSelect<T>, parsed: { ranged?: boolean }) => (parsed.ranged ? statement.unprepared!() : statement);

/**
 * Answers of the statistics and the tabs remembered by what they are computed from — the version of the type's bills,
 * the route, the type, the tenant, the caller's data scope (its condition as rendered) and every parameter of the
 * validated query — and looked up before the query is parsed: a remembered sum costs the version's read, not the
 * query's conditions built and a statement rendered for `cachedRows`' key (a third of the app's CPU for it,
 * bench/README.md). The same inputs build the same statement, so this is `cachedRows`' key computed earlier; a query
 * that fails its checks is never remembered, so it fails again. Bounded like `cachedRows`.
 */
const answers = new Map<string, unknown>();
const ANSWERS_KEPT = 2000;
async function remembered<T>(ctx: ServiceContext, decl: BillTypeDecl, route: string, query: Record<string, unknown>, scope: SQL | undefined, compute: () => Promise<T>): Promise<T> {
  const version = await billVersion(ctx, decl);
  const scopeText = scope && listStatementText(scope);
  // A scope the list's own renderer cannot write (no such scope today) is not remembered here.
  if (!version || (scope && !scopeText)) return compute();
  const parameters = Object.entries(query).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify([version, route, decl.type, ctx.tenantId, scopeText ?? null, parameters]);
  if (answers.has(key)) return answers.get(key) as T;
  const answer = await compute();
  if (answers.size >= ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
  answers.set(key, answer);
  return answer;
}

/** GET {path}/statistics: the list's sums (quantity and amounts) over the same filters (the counters' when unfiltered). */
export async function billStatistics(ctx: ServiceContext, decl: BillTypeDecl, query: Record<string, unknown>): Promise<Record<string, number>> {
  const kit = kitOf(decl);
  const scope = await billScope(ctx);
  const answer = (sums: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(sums ?? {}).map(([k, v]) => [k, amount(String(v))]));
  const fromCounters = kit.countedSums && counters(ctx, decl, { scoped: scope !== undefined }, query);
  if (fromCounters) {
    await parsedListQuery(ctx, decl, query, { scope }); // the query's checks, as for any other
    return answer((await kit.countedSums!<Record<string, string>>(ctx, fromCounters))[0]);
  }
  return remembered(ctx, decl, 'statistics', query, scope, async () => {
    const p = await parsedListQuery(ctx, decl, query, { scope });
    return answer((await planned(kit.sums(ctx.tx), p).where(p.where))[0]);
  });
}

/**
 * GET {path}/tabs: bills per status (the list's status tabs) under the list's filters and the caller's data
 * scope, `all` their sum; from the sharded counters when nothing narrows them.
 */
export async function billTabs(ctx: ServiceContext, decl: BillTypeDecl, query: Record<string, unknown> = {}): Promise<Record<string, number>> {
  const kit = kitOf(decl);
  // The tabs count every status: the list's status filter is not theirs.
  const { billStatus: _status, ...filters } = query;
  const scope = await billScope(ctx);
  const tabsOf = (found: ReadonlyArray<{ status: string; total: number }>) => {
    const tabs: Record<string, number> = Object.fromEntries(BillStatus.map((s) => [s, 0]));
    for (const row of found) tabs[row.status] = row.total;
    tabs.all = found.reduce((t, r) => t + r.total, 0);
    return tabs;
  };
  const fromCounters = counters(ctx, decl, { scoped: scope !== undefined }, filters);
  if (fromCounters) {
    await parsedListQuery(ctx, decl, filters, { scope });
    return tabsOf(await kit.countedByStatus<{ status: string; total: number }>(ctx, fromCounters));
  }
  // Counted (a filter, or a caller limited to part of the bills: a clerk's tabs) only once per version of the type's bills.
  return remembered(ctx, decl, 'tabs', filters, scope, async () => {
    const p = await parsedListQuery(ctx, decl, filters, { scope });
    return tabsOf(await planned(kit.byStatus(ctx.tx), p).where(p.where));
  });
}
