import { http } from '../../../app/http.ts';
import { LOCATION_PATH } from './list-locations.ts';

/**
 * PUT /admin/basic/location/enable `{ ids, enabled }` (code basic_location_enable): closing a location
 * that holds stock is refused (LocationExistInventoryProhibitClose). Silent: the screen shows the refusal.
 */
export function enableLocations(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>(`${LOCATION_PATH}/enable`, { ids, enabled }, { noLoading: true, silent: true });
}
