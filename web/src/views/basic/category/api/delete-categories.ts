import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/category `{ ids }` — needs basic_category_delete; refused for a category with sub-categories or materials. Silent: the screen shows a refusal, naming the record. */
export function deleteCategories(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/category', { ids }, { silent: true });
}
