import { http } from '../../../../app/http.ts';

/** DELETE /admin/system/printTemplate `{ ids }` (code system_printTemplate_delete). Silent: the screen shows a refusal, naming the record. */
export function deletePrintTemplates(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/system/printTemplate', { ids }, { silent: true });
}
