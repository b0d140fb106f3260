import type { z } from 'zod';
import type { Category, categorySchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type CategoryUpdate = z.infer<typeof categorySchemas.update>;

/** PUT /admin/basic/category — needs basic_category_update; the parent can be neither the category nor below it, and the moved subtree must still fit three levels. */
export function updateCategory(body: CategoryUpdate): Promise<Category> {
  return http.put<Category>('/admin/basic/category', body);
}
