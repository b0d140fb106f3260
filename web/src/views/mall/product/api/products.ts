import type { MallProduct, MallProductCreate, MallProductRow } from '@p8/contract/mall';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/mall/product — a page of products (name, categoryId with its sub-categories, onShelf). */
export function listProducts(params: QueryParams): Promise<PagedResult<MallProductRow>> {
  return http.list<MallProductRow>('/admin/mall/product', params, { noLoading: true });
}

/** GET /admin/mall/product/:id — the product with its specs, SKUs, images and detail. */
export function getProduct(id: number): Promise<MallProduct> {
  return http.get<MallProduct>(`/admin/mall/product/${id}`, undefined, { noLoading: true });
}

/** POST /admin/mall/product — needs mall_product_add; the SKUs must be every combination of the spec values. */
export function createProduct(body: MallProductCreate): Promise<MallProduct> {
  return http.post<MallProduct>('/admin/mall/product', body);
}

/** PUT /admin/mall/product — needs mall_product_update; SKUs are matched by their spec values. */
export function updateProduct(body: MallProductCreate & { id: number }): Promise<MallProduct> {
  return http.put<MallProduct>('/admin/mall/product', body);
}
