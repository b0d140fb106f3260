import type { MallCategory, MallCategoryCreate } from '@p8/contract/mall';
import { http } from '../../../../app/http.ts';

/** POST /admin/mall/category — needs mall_category_add; below a sub-category is refused (MallCategoryMaxTwoLevels). */
export function addMallCategory(body: MallCategoryCreate): Promise<MallCategory> {
  return http.post<MallCategory>('/admin/mall/category', body);
}

/** PUT /admin/mall/category — needs mall_category_update. */
export function updateMallCategory(body: MallCategoryCreate & { id: number }): Promise<MallCategory> {
  return http.put<MallCategory>('/admin/mall/category', body);
}
