import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/bom/enable — needs basic_bom_enable; a disabled BOM no longer expands its material in other structures. Silent: the screen shows a refusal, naming the record. */
export function enableBoms(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/bom/enable', { ids, enabled }, { noLoading: true, silent: true });
}
