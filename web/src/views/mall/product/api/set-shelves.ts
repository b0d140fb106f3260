import { http } from '../../../../app/http.ts';

/** PUT /admin/mall/product/shelves `{ ids, onShelf }` — needs mall_product_shelves. */
export function setShelves(ids: number[], onShelf: boolean): Promise<null> {
  return http.put<null>('/admin/mall/product/shelves', { ids, onShelf }, { noLoading: true });
}
