import type { z } from 'zod';
import type { Brand, brandSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type BrandUpdate = z.infer<typeof brandSchemas.update>;

/** PUT /admin/basic/brand — needs basic_brand_update; fields left out keep their stored value. */
export function updateBrand(body: BrandUpdate): Promise<Brand> {
  return http.put<Brand>('/admin/basic/brand', body);
}
