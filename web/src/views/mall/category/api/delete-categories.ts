import { http } from '../../../../app/http.ts';

/** DELETE /admin/mall/category `{ ids }` — needs mall_category_delete; refused with sub-categories or products. Silent: the screen names the refused record. */
export function deleteMallCategories(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/mall/category', { ids }, { silent: true });
}
