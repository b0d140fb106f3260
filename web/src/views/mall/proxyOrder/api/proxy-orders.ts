import type { MallOrder, MallOrderCreate, MallOrderRow, MallSkuOption } from '@p8/contract/mall';
import { http, type PagedResult, type QueryParams } from '../../../../app/http.ts';

/** GET /admin/mall/proxyOrder — the orders staff placed for customers (the order list's filters). */
export function listProxyOrders(params: QueryParams): Promise<PagedResult<MallOrderRow>> {
  return http.list<MallOrderRow>('/admin/mall/proxyOrder', params, { noLoading: true });
}

/** POST /admin/mall/proxyOrder — needs mall_proxyOrder_add; takes the SKUs' stock or is refused (MallStockInsufficient). */
export function placeProxyOrder(body: MallOrderCreate): Promise<MallOrder> {
  return http.post<MallOrder>('/admin/mall/proxyOrder', body);
}

/** GET /admin/mall/product/sku — SKUs of the products on the shelf, by product name. */
export function searchSkus(name: string): Promise<PagedResult<MallSkuOption>> {
  return http.list<MallSkuOption>('/admin/mall/product/sku', { name, current: 1, pageSize: 30 }, { noLoading: true });
}
