import type { z } from 'zod';
import type { Unit, unitSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type UnitUpdate = z.infer<typeof unitSchemas.update>;

/** PUT /admin/basic/unit — needs basic_unit_update; fields left out keep their stored value. */
export function updateUnit(body: UnitUpdate): Promise<Unit> {
  return http.put<Unit>('/admin/basic/unit', body);
}
