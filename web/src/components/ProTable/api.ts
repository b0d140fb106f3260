import { http, type QueryParams } from '../../app/http.ts';
import type { ColumnSetting } from './types.ts';

/** GET /admin/tenant/table/column/type?type= — the tenant's column settings of a list type. */
export function getColumnSettings(type: string): Promise<ColumnSetting[]> {
  // Silent: a list without saved settings (or an older server) simply shows the code's columns.
  return http
    .get<ColumnSetting[] | null>('/admin/tenant/table/column/type', { type }, { noLoading: true, silent: true })
    .then((list) => (Array.isArray(list) ? list : []));
}

/** PUT /admin/tenant/table/column/type — saves them for the whole tenant. */
export function saveColumnSettings(type: string, columns: ColumnSetting[]): Promise<unknown> {
  return http.put('/admin/tenant/table/column/type', { type, columns });
}

export const columnSettingsQueryKey = (type: string) => ['table-column-settings', type] as const;

/** GET {list path}/statistics — sums keyed by column prop, over the same filters as the list. */
export function getStatistics(path: string, params: QueryParams): Promise<Record<string, number | string>> {
  return http.get<Record<string, number | string> | null>(path, params, { noLoading: true }).then((data) => data ?? {});
}
