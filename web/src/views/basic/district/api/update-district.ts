import type { z } from 'zod';
import type { districtSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type DistrictUpdate = z.infer<typeof districtSchemas.update>;

/** PUT /admin/basic/district — needs basic_district_update; the parent can be neither the district nor below it. */
export function updateDistrict(body: DistrictUpdate): Promise<null> {
  return http.put<null>('/admin/basic/district', body);
}
