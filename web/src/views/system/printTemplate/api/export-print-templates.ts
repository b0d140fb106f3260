import type { PrintTemplateFile } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/printTemplate/export `{ ids }` — the templates as a JSON file's content (code system_printTemplate_export). */
export function exportPrintTemplates(ids: number[]): Promise<PrintTemplateFile> {
  return http.post<PrintTemplateFile>('/admin/system/printTemplate/export', { ids });
}
