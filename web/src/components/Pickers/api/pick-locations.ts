import type { Location } from '@p8/contract/basic';
import { http, type PagedResult } from '../../../app/http.ts';
import type { PickerParams } from './pick-partners.ts';

/** GET /admin/basic/location/picker — enabled locations of enabled warehouses, of one warehouse when given. */
export function pickLocations(params: PickerParams & { warehouseId?: number }): Promise<PagedResult<Location>> {
  return http.list<Location>('/admin/basic/location/picker', { ...params }, { noLoading: true });
}
