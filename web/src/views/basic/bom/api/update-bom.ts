import type { BomDetail, BomUpdate } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/** PUT /admin/basic/bom — needs basic_bom_update; sent lines replace the stored ones. */
export function updateBom(body: BomUpdate): Promise<BomDetail> {
  return http.put<BomDetail>('/admin/basic/bom', body);
}
