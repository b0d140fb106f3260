import type { PrintTemplateRow } from '@p8/contract/print/template';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/system/printTemplate — a page of the tenant's print templates (filters billType, name, isDefault, enabled). */
export function listPrintTemplates(params: QueryParams): Promise<PagedResult<PrintTemplateRow>> {
  return http.list<PrintTemplateRow>('/admin/system/printTemplate', params, { noLoading: true });
}
