import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/unit/enable — needs basic_unit_enable. Silent: the screen shows a refusal, naming the record. */
export function enableUnits(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/unit/enable', { ids, enabled }, { noLoading: true, silent: true });
}
