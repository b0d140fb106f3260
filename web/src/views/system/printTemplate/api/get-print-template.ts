import type { PrintTemplateRow } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** GET /admin/system/printTemplate/:id — one template with its layout (screen system_printTemplate). */
export function getPrintTemplate(id: number): Promise<PrintTemplateRow> {
  return http.get<PrintTemplateRow>(`/admin/system/printTemplate/${id}`, undefined, { noLoading: true });
}
