import { http } from '../../../../app/http.ts';

/** PUT /admin/system/verify/enable `{ ids, enabled }` (code system_verify_enable). Silent: the screen shows a refusal, naming the record. */
export function enableVerifyRules(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/system/verify/enable', { ids, enabled }, { noLoading: true, silent: true });
}
