import type { z } from 'zod';
import type { Unit, unitSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type UnitCreate = z.infer<typeof unitSchemas.create>;

/** POST /admin/basic/unit — needs basic_unit_add; the name is unique in the tenant (NameRepeat). */
export function addUnit(body: UnitCreate): Promise<Unit> {
  return http.post<Unit>('/admin/basic/unit', body);
}
