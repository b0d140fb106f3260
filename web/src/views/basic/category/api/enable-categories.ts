import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/category/enable — needs basic_category_enable. Silent: the screen shows a refusal, naming the record. */
export function enableCategories(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/basic/category/enable', { ids, enabled }, { noLoading: true, silent: true });
}
