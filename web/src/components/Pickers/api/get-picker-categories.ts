import type { CategoryNode } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/category/tree?enabled=true — the categories a material picker filters by. */
export function getPickerCategories(): Promise<CategoryNode[]> {
  return http.get<CategoryNode[]>('/admin/basic/category/tree', { enabled: true }, { noLoading: true });
}
