import type { MaterialCreate, MaterialDetail } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/**
 * POST /admin/basic/material — needs basic_material_add. Code unique (CodeRepeat), name + specification
 * unique (SpecRepeat / NameRepeat), exactly one main unit, batch and serial numbers never both and
 * neither for consumables.
 */
export function addMaterial(body: MaterialCreate): Promise<MaterialDetail> {
  return http.post<MaterialDetail>('/admin/basic/material', body);
}
