import type { Assign } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/**
 * PUT /admin/basic/material/assign — needs basic_material_assign: each material's assignment becomes
 * these departments and staff (only meaningful while the tenant's applyRangeMaterial is on).
 */
export function assignMaterials(body: Assign): Promise<null> {
  return http.put<null>('/admin/basic/material/assign', body);
}
