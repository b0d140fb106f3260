import type { z } from 'zod';
import type { Brand, brandSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type BrandCreate = z.infer<typeof brandSchemas.create>;

/** POST /admin/basic/brand — needs basic_brand_add; the name is unique in the tenant (NameRepeat). */
export function addBrand(body: BrandCreate): Promise<Brand> {
  return http.post<Brand>('/admin/basic/brand', body);
}
