import type { MaterialDetail, MaterialUpdate } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/**
 * PUT /admin/basic/material — needs basic_material_update. A sent `units` list replaces the stored one;
 * the stored main unit row must stay (by its `id`), stay the main unit and stay enabled.
 */
export function updateMaterial(body: MaterialUpdate): Promise<MaterialDetail> {
  return http.put<MaterialDetail>('/admin/basic/material', body);
}
