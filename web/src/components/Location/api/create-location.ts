import type { z } from 'zod';
import type { Location, locationSchemas } from '@p8/contract/basic';
import { http } from '../../../app/http.ts';
import { LOCATION_PATH } from './list-locations.ts';

export type LocationCreate = z.input<typeof locationSchemas.create>;

/** POST /admin/basic/location (code basic_location_add): NameRepeat when the warehouse has one by that name. */
export function createLocation(body: LocationCreate): Promise<Location> {
  return http.post<Location>(LOCATION_PATH, body);
}
