import type { ServiceOrderAudit, ServiceOrderCancel, ServiceOrderCounts, ServiceOrderDetail, ServiceOrderDispatch, ServiceOrderRow, ServiceOrderStep } from '@p8/contract/service';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

/** The three order lists of the service area: all orders, those dispatched to me, proxy orders. */
export type OrderScope = 'order' | 'myOrder' | 'proxyOrder';

/** GET /admin/service/{scope} — a page of orders (status, orderNo, customer…, start/end). */
export function listOrders(scope: OrderScope, params: QueryParams): Promise<PagedResult<ServiceOrderRow>> {
  return http.list<ServiceOrderRow>(`/admin/service/${scope}`, params, { noLoading: true });
}

/** GET /admin/service/{scope}/counts — orders per status under the same filters (the status tabs). */
export function countOrders(scope: OrderScope, params: QueryParams): Promise<ServiceOrderCounts> {
  return http.get<ServiceOrderCounts>(`/admin/service/${scope}/counts`, params, { noLoading: true, silent: true });
}

/** GET /admin/service/{scope}/:id — one order with its timeline. */
export function getOrder(scope: OrderScope, id: number): Promise<ServiceOrderDetail> {
  return http.get<ServiceOrderDetail>(`/admin/service/${scope}/${id}`, undefined, { noLoading: true });
}

/** PUT /admin/service/order/dispatch — service_order_dispatch. */
export function dispatchOrder(body: ServiceOrderDispatch): Promise<ServiceOrderRow> {
  return http.put<ServiceOrderRow>('/admin/service/order/dispatch', body);
}

/** PUT /admin/service/order/audit — service_order_audit. */
export function auditOrder(body: ServiceOrderAudit): Promise<ServiceOrderRow> {
  return http.put<ServiceOrderRow>('/admin/service/order/audit', body);
}

/** PUT /admin/service/order/cancel — service_order_cancel. */
export function cancelOrder(body: ServiceOrderCancel): Promise<ServiceOrderRow> {
  return http.put<ServiceOrderRow>('/admin/service/order/cancel', body);
}

/** PUT /admin/service/myOrder/start — the assignee, service_myOrder_start. */
export function startOrder(body: ServiceOrderStep): Promise<ServiceOrderRow> {
  return http.put<ServiceOrderRow>('/admin/service/myOrder/start', body);
}

/** PUT /admin/service/myOrder/complete — the assignee, service_myOrder_complete. */
export function completeOrder(body: ServiceOrderStep): Promise<ServiceOrderRow> {
  return http.put<ServiceOrderRow>('/admin/service/myOrder/complete', body);
}

export interface DispatchableStaff {
  id: number;
  name: string;
  account: string;
  phone: string;
  /** A service staff member's skills and areas (empty for staff who are not), and the orders on their hands. */
  skills: string[];
  areas: string[];
  load: number;
}

/** GET /admin/service/staff — who an order can be dispatched to (the enabled service staff, least loaded first, once the tenant keeps any). */
export function listDispatchStaff(): Promise<DispatchableStaff[]> {
  return http.get<DispatchableStaff[]>('/admin/service/staff', undefined, { noLoading: true });
}
