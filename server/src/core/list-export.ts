import type { Pagination } from '@p8/contract/envelope';
import { EXPORT_MAX_ROWS, exportQuery, exportXlsx, langOf, sendXlsx, type ExcelColumn, type Lang } from './excel.ts';
import { listQuerySchema, MAX_PAGE_SIZE } from './list-query.ts';
import { untransactedRoute, type RouteDeclaration } from './route.ts';
import type { ServiceContext } from './service-context.ts';

// The list query of an export and its cap are shared with every other export (core/excel.ts).
export { EXPORT_MAX_ROWS, exportQuery } from './excel.ts';

/** A column of a list export: where its cell comes from when it is not the row's field of that name. */
export interface ListExportColumn<T> extends ExcelColumn {
  value?: (row: T, lang: Lang) => unknown;
}

export interface ListExportSpec<T> {
  /** The list's URL; the export is `POST <url>/export`. */
  url: string;
  tags: string[];
  noun: string;
  /** Its button code, `<screen>_export`. */
  permission: string;
  columns: Array<ListExportColumn<T>>;
  filename: { zh: string; en: string };
  /** The list's own service: the export has its filters, its sort and its tenant scope, page after page. */
  list: (ctx: ServiceContext, query: Record<string, unknown>) => Promise<{ data: T[]; pagination: Pagination }>;
}

/**
 * `POST <url>/export`: the rows of the list's current query (filters and sort as the screen sends them, in
 * the query string or the JSON body) as an .xlsx titled in the caller's language, at most EXPORT_MAX_ROWS.
 * The rows are read in one transaction through the list's own service, so what is exported is what the
 * list shows; the workbook is built after it, holding no connection.
 */
export function listExportRoute<T>(spec: ListExportSpec<T>): RouteDeclaration {
  return untransactedRoute({
    method: 'POST', url: `${spec.url}/export`, tags: spec.tags, summary: `Export the ${spec.noun} list of the current query as .xlsx`,
    permission: spec.permission, query: listQuerySchema.partial(),
    async handler(caller, _input, { request, reply }) {
      const lang = langOf(request);
      const query = exportQuery(request);
      const found = await caller.transaction(async (ctx) => {
        const all: T[] = [];
        for (let current = 1; all.length < EXPORT_MAX_ROWS; current += 1) {
          const page = await spec.list(ctx, { ...query, current: String(current), pageSize: String(MAX_PAGE_SIZE) });
          all.push(...page.data);
          if (page.data.length < MAX_PAGE_SIZE || all.length >= page.pagination.total) break;
        }
        return all.slice(0, EXPORT_MAX_ROWS);
      });
      const cells = found.map((row) => Object.fromEntries(spec.columns.map((c) => [c.prop, c.value ? c.value(row, lang) : (row as Record<string, unknown>)[c.prop]])));
      return sendXlsx(reply, await exportXlsx(spec.columns, cells, lang), spec.filename[lang]);
    },
  });
}

/** A time cell from the ISO text a list row carries (empty when there is none). */
export const exportTime = (value: string | null) => (value ? new Date(value) : null);

/** The enable switch of a list row, as its screen names it. */
export function enabledColumn<T extends { enabled: boolean }>(title = { zh: '状态', en: 'Status' }): ListExportColumn<T> {
  return { prop: 'enabled', title, value: (row, lang) => (row.enabled ? { zh: '启用', en: 'Enabled' } : { zh: '停用', en: 'Disabled' })[lang] };
}

/**
 * A list read whole (a tree, a short settings list) as the one page an export reads: the rows already in
 * the order and the filter the screen shows them.
 */
export const wholeList = <T>(data: T[]): { data: T[]; pagination: Pagination } => ({ data, pagination: { current: 1, pageSize: data.length, total: data.length } });
