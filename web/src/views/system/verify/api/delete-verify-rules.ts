import { http } from '../../../../app/http.ts';

/** DELETE /admin/system/verify `{ ids }` (code system_verify_delete). Silent: the screen shows a refusal, naming the record. */
export function deleteVerifyRules(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/system/verify', { ids }, { silent: true });
}
