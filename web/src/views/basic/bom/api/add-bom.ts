import type { BomCreate, BomDetail } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/**
 * POST /admin/basic/bom — needs basic_bom_add. The version is unique per material
 * (MaterialBomVersionRepeat); a line may not repeat a material nor lead back to the parent (BomCycleDetected).
 */
export function addBom(body: BomCreate): Promise<BomDetail> {
  return http.post<BomDetail>('/admin/basic/bom', body);
}
