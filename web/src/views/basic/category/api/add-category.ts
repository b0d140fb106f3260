import type { z } from 'zod';
import type { Category, categorySchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type CategoryCreate = z.infer<typeof categorySchemas.create>;

/** POST /admin/basic/category — needs basic_category_add; a child of a level-3 category is refused (CategoryMaxThreeLevels). */
export function addCategory(body: CategoryCreate): Promise<Category> {
  return http.post<Category>('/admin/basic/category', body);
}
