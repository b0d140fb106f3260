import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/brand/enable — needs basic_brand_enable. Silent: the screen shows a refusal, naming the record. */
export function enableBrands(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/brand/enable', { ids, enabled }, { noLoading: true, silent: true });
}
