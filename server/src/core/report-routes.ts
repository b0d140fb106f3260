import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { parseDateValue, storableText } from '@p8/contract/text';
import { BizError } from './errors.ts';
import { exportXlsx, langOf, sendXlsx, type ExcelColumn, type Lang } from './excel.ts';
import { route, untransactedRoute, type RouteDeclaration } from './route.ts';
import type { ServiceContext } from './service-context.ts';
import { rows } from '../db/connection.ts';

/*
 * A read-only report screen's two routes, declared once (the stock reports, materials at suppliers, the
 * statement of entrusted materials): `GET url` answers a page of rows sorted by the whitelisted
 * `<column>Sort=asc|desc` parameters the list kit sends, then the report's own order; `POST url/export` writes the
 * same query without paging as .xlsx in the caller's language. Reading needs the screen's menu code, exporting
 * its `_export` button. A period given as `[start, end]` keys is refused when it ends before it starts.
 */

/** The list kit's paging parameters. */
export const reportPage = {
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
};
export const reportId = z.coerce.number().int().positive().optional();
export const reportText = (max: number) => storableText().trim().max(max).optional();
/** A day of a period filter (a date or a date-time; its day counts). */
export const reportDay = storableText().refine((v) => parseDateValue(v.slice(0, 10)) !== undefined, { message: 'DateOutOfRange' }).optional();
const direction = z.enum(['asc', 'desc']).optional();
/** `<prop>Sort=asc|desc` for each sortable column of a report. */
export const reportSorts = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [`${k}Sort`, direction])) as Record<`${K}Sort`, typeof direction>;

/** `%text%` for `ilike`, with the pattern's own characters escaped. */
export const likePattern = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The conditions given, joined by `and` (`true` when none is). */
export const allOf = (parts: Array<SQL | undefined>): SQL => {
  const given = parts.filter((p): p is SQL => p !== undefined);
  return given.length ? sql.join(given, sql` and `) : sql`true`;
};

/** Most rows one export writes (a larger report is filtered first). */
const EXPORT_LIMIT = 50_000;

export interface Report<Q extends z.ZodObject> {
  url: string;
  tags: string[];
  summary: string;
  /** The screen's menu code. */
  screen: string;
  /** Its filters, with `reportPage` and `reportSorts` of the sortable columns. */
  query: Q;
  /** Sortable column → the SQL it sorts by (an alias of the select). */
  sortable: Record<string, string>;
  /** The order after any requested sort. */
  order: string;
  /** The query's two period keys, checked in order. */
  period?: readonly [string, string];
  /** The rows, without order or limit, each with `count(*) over () as total`. */
  select(ctx: ServiceContext, q: z.infer<Q>): SQL | Promise<SQL>;
  columns: ExcelColumn[];
  filename: { zh: string; en: string };
  /** An exported row's extra cells (a bill type's name in the caller's language). */
  exportRow?(row: Record<string, unknown>, lang: Lang): Record<string, unknown>;
}

/**
 * Ids as numbers on both databases: PostgreSQL answers bigint columns of a raw query as strings (PGlite as
 * numbers), so a report row's `id` and `…Id` values are made numbers here.
 */
export function withNumberIds<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = { ...row };
  for (const [key, value] of Object.entries(row)) if ((key === 'id' || key.endsWith('Id')) && typeof value === 'string') out[key] = Number(value);
  return out as T;
}

/** Requested sorts first (whitelisted columns only), then the report's own order. */
function orderOf(report: Report<z.ZodObject>, q: Record<string, unknown>): SQL {
  const requested = Object.entries(report.sortable)
    .filter(([key]) => q[`${key}Sort`])
    .map(([key, column]) => `${column} ${q[`${key}Sort`] === 'desc' ? 'desc' : 'asc'}`);
  return sql.raw([...requested, report.order].join(', '));
}

async function ordered(ctx: ServiceContext, report: Report<z.ZodObject>, q: Record<string, unknown>): Promise<SQL> {
  const [startKey, endKey] = report.period ?? [];
  const start = startKey && q[startKey];
  const end = endKey && q[endKey];
  if (typeof start === 'string' && typeof end === 'string' && start.slice(0, 10) > end.slice(0, 10)) throw new BizError('StartDateAfterEndDate');
  return sql`${await report.select(ctx, q)} order by ${orderOf(report, q)}`;
}

/** The report's page route and its export route. */
export function reportRoutes<Q extends z.ZodObject>(declared: Report<Q>): RouteDeclaration[] {
  const report = declared as unknown as Report<z.ZodObject>;
  // Exports take the list's query without paging (the export button posts it as the body).
  const exportQuery = report.query.omit({ current: true, pageSize: true }).extend({ lang: reportText(10) });
  return [
    route({
      method: 'GET', url: report.url, tags: report.tags, summary: report.summary, permission: report.screen, query: report.query, page: true,
      async handler(ctx, { query }) {
        const { current, pageSize } = query as { current: number; pageSize: number };
        const found = await rows<{ total?: unknown }>(ctx.tx, sql`${await ordered(ctx, report, query)} limit ${pageSize} offset ${(current - 1) * pageSize}`);
        return { data: found.map(({ total: _total, ...row }) => withNumberIds(row)), pagination: { current, pageSize, total: Number(found[0]?.total ?? 0) } };
      },
    }),
    untransactedRoute({
      method: 'POST', url: `${report.url}/export`, tags: report.tags, summary: `${report.summary}, as .xlsx`, permission: `${report.screen}_export`, query: exportQuery, body: exportQuery.optional(),
      async handler(caller, { query, body }, { request, reply }) {
        const lang = langOf(request);
        const found = await caller.transaction(async (ctx) => {
          const listed = await rows<Record<string, unknown>>(ctx.tx, sql`${await ordered(ctx, report, { ...query, ...(body ?? {}) })} limit ${EXPORT_LIMIT}`);
          return listed.map((row) => ({ ...withNumberIds(row), ...report.exportRow?.(row, lang) }));
        });
        return sendXlsx(reply, await exportXlsx(report.columns, found, lang), report.filename[lang]);
      },
    }),
  ];
}
