import type { BomDetail } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/** GET /admin/basic/bom/:id — one BOM with its lines. */
export function getBom(id: number): Promise<BomDetail> {
  return http.get<BomDetail>(`/admin/basic/bom/${id}`);
}
