import type { PrinterRow } from '@p8/contract/office';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/system/printer — a page of the tenant's printers (filters name, sn, provider, enabled). */
export function listPrinters(params: QueryParams): Promise<PagedResult<PrinterRow>> {
  return http.list<PrinterRow>('/admin/system/printer', params, { noLoading: true });
}
