import type { Warehouse } from '@p8/contract/basic';
import { http, type PagedResult } from '../../../app/http.ts';
import type { PickerParams } from './pick-partners.ts';

/** GET /admin/basic/stock/picker — enabled warehouses within the caller's assignment range, by code or name. */
export function pickWarehouses(params: PickerParams): Promise<PagedResult<Warehouse>> {
  return http.list<Warehouse>('/admin/basic/stock/picker', { ...params }, { noLoading: true });
}
