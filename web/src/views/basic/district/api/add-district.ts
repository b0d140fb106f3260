import type { z } from 'zod';
import type { districtSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type DistrictCreate = z.infer<typeof districtSchemas.create>;

/** POST /admin/basic/district — needs basic_district_add; a child of a level-4 district is refused (DistrictMaxFourLevels). */
export function addDistrict(body: DistrictCreate): Promise<{ id: number }> {
  return http.post<{ id: number }>('/admin/basic/district', body);
}
