import type { BomRequirement } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/** GET /admin/basic/bom/:id/explode?quantity=N — leaf materials needed for N parents, losses included, summed per material (main unit). */
export function explodeBom(id: number, quantity: number): Promise<BomRequirement[]> {
  return http.get<BomRequirement[]>(`/admin/basic/bom/${id}/explode`, { quantity }, { noLoading: true });
}
