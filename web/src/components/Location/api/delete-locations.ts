import { http } from '../../../app/http.ts';
import { LOCATION_PATH } from './list-locations.ts';

/**
 * DELETE /admin/basic/location `{ ids }` (code basic_location_delete): refused for a location holding
 * stock (LocationExistInventoryProhibitDelete). Silent: the screen names the refused location.
 */
export function deleteLocations(ids: number[]): Promise<null> {
  return http.delete<null>(LOCATION_PATH, { ids }, { silent: true });
}
