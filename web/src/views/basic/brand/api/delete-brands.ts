import { http } from '../../../../app/http.ts';

/** DELETE /admin/basic/brand `{ ids }` — needs basic_brand_delete; refused while in use. Silent: the screen shows a refusal, naming the record. */
export function deleteBrands(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/basic/brand', { ids }, { silent: true });
}
