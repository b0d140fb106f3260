import type { ServiceOrderCreate, ServiceOrderRow } from '@p8/contract/service';
import { http } from '../../../../app/http.ts';

/** POST /admin/service/proxyOrder — an order placed for a customer (service_proxyOrder_add). */
export function createProxyOrder(body: ServiceOrderCreate): Promise<ServiceOrderRow> {
  return http.post<ServiceOrderRow>('/admin/service/proxyOrder', body);
}
