import type { z } from 'zod';
import type { Location, locationSchemas } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { LOCATION_PATH } from './list-locations.ts';

export type LocationUpdate = z.input<typeof locationSchemas.update>;

/** PUT /admin/basic/location (code basic_location_update): a location holding stock cannot move to another warehouse. */
export function updateLocation(body: LocationUpdate): Promise<Location> {
  return http.put<Location>(LOCATION_PATH, body);
}
