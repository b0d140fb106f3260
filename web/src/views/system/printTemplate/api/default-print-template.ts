import type { PrintTemplateRow } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** PUT /admin/system/printTemplate/default `{ id }` — makes it its bill type's default (code system_printTemplate_update). */
export function defaultPrintTemplate(id: number): Promise<PrintTemplateRow> {
  return http.put<PrintTemplateRow>('/admin/system/printTemplate/default', { id });
}
