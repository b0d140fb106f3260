import { http } from '../../../../app/http.ts';

/** DELETE /admin/system/printer `{ ids }` (code system_printer_delete). Silent: the screen shows a refusal, naming the record. */
export function deletePrinters(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/system/printer', { ids }, { silent: true });
}
