import { http } from '../../../../app/http.ts';

/** PUT /admin/system/printer/enable `{ ids, enabled }` (code system_printer_enable). Silent: the screen shows a refusal, naming the record. */
export function enablePrinters(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/system/printer/enable', { ids, enabled }, { noLoading: true, silent: true });
}
