import type { PrintTemplateFile } from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/printTemplate/import — adds the templates of an exported file (code system_printTemplate_import). */
export function importPrintTemplates(file: PrintTemplateFile): Promise<{ ids: number[] }> {
  return http.post<{ ids: number[] }>('/admin/system/printTemplate/import', file);
}
