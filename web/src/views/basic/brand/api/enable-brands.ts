import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/brand/enable — needs basic_brand_enable. */
export function enableBrands(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/brand/enable', { ids, enabled }, { noLoading: true });
}
