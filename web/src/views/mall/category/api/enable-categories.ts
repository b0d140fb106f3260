import { http } from '../../../../app/http.ts';

/** PUT /admin/mall/category/enable — needs mall_category_enable. Silent: the screen names the refused record. */
export function enableMallCategories(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/mall/category/enable', { ids, enabled }, { noLoading: true, silent: true });
}
