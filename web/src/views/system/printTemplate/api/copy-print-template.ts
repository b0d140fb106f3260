import type { PrintTemplateRow } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/printTemplate/copy `{ id, name }` — a copy under a new name (code system_printTemplate_copy). */
export function copyPrintTemplate(id: number, name: string): Promise<PrintTemplateRow> {
  return http.post<PrintTemplateRow>('/admin/system/printTemplate/copy', { id, name });
}
