import type { PrintTemplateCreate, PrintTemplateRow } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/printTemplate — adds a template (code system_printTemplate_add). */
export function createPrintTemplate(body: PrintTemplateCreate): Promise<PrintTemplateRow> {
  return http.post<PrintTemplateRow>('/admin/system/printTemplate', body);
}
