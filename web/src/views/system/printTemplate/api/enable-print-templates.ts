import { http } from '../../../../app/http.ts';

/** PUT /admin/system/printTemplate/enable `{ ids, enabled }` (code system_printTemplate_enable). Silent: the screen shows a refusal, naming the record. */
export function enablePrintTemplates(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/system/printTemplate/enable', { ids, enabled }, { noLoading: true, silent: true });
}
