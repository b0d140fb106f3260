import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/brand `{ ids }` — needs basic_brand_delete; refused while in use. */
export function deleteBrands(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/brand', { ids });
}
