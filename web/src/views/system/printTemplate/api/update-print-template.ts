import type { PrintTemplateRow, PrintTemplateUpdate } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** PUT /admin/system/printTemplate — saves a template, its layout included (code system_printTemplate_update). */
export function updatePrintTemplate(body: PrintTemplateUpdate): Promise<PrintTemplateRow> {
  return http.put<PrintTemplateRow>('/admin/system/printTemplate', body);
}
