import type { MallOrder, MallOrderCounts, MallOrderRow, MallPayType } from '@p8/contract/mall';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

/**
 * The mall's order calls, shared by the order list and the proxy-order screen (both open the same order
 * detail): GET /admin/mall/order[/counts|/:id] and the transitions PUT /admin/mall/order/<action>, each
 * behind its button code (mall_order_pay, _ship, _complete, _cancel, _refund, _refund_audit,
 * _refund_confirm, _remark). A transition answers with the whole order.
 */
export function listOrders(params: QueryParams): Promise<PagedResult<MallOrderRow>> {
  return http.list<MallOrderRow>('/admin/mall/order', params, { noLoading: true });
}

export function orderCounts(params: QueryParams = {}): Promise<MallOrderCounts> {
  return http.get<MallOrderCounts>('/admin/mall/order/counts', params, { noLoading: true });
}

export function getOrder(id: number): Promise<MallOrder> {
  return http.get<MallOrder>(`/admin/mall/order/${id}`, undefined, { noLoading: true });
}

export type OrderAction = 'pay' | 'ship' | 'complete' | 'cancel' | 'refund/apply' | 'refund/approve' | 'refund/refuse' | 'refund/confirm' | 'remark';

export interface OrderActionBody {
  id: number;
  payType?: MallPayType;
  logisticsCompany?: string;
  logisticsNo?: string;
  reason?: string;
  amount?: number;
  remark?: string;
}

export function orderAction(action: OrderAction, body: OrderActionBody): Promise<MallOrder> {
  return http.put<MallOrder>(`/admin/mall/order/${action}`, body);
}
