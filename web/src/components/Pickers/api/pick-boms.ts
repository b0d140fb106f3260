import type { Bom } from '@p8/contract/basic';
import { http, type PagedResult } from '../../../app/http.ts';
import type { PickerParams } from './pick-partners.ts';

/** GET /admin/basic/bom/picker — the enabled BOMs of one material (a sale order line's BOM choice), default first. */
export function pickBoms(params: PickerParams & { materialId: number }): Promise<PagedResult<Bom>> {
  return http.list<Bom>('/admin/basic/bom/picker', { ...params }, { noLoading: true });
}
