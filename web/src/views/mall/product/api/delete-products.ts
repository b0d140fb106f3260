import { http } from '../../../../app/http.ts';

/** DELETE /admin/mall/product `{ ids }` — needs mall_product_delete; refused while on the shelf. Silent: the screen names the refused record. */
export function deleteProducts(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/mall/product', { ids }, { silent: true });
}
