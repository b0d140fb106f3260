import type { ServiceMessageRow, ServiceMessageSend } from '@p8/contract/service';
import { http } from '../../../app/http.ts';

/** POST /admin/service/message — service_order_message or service_myOrder_message; delivered live over /api/ws. */
export function sendOrderMessage(body: ServiceMessageSend): Promise<ServiceMessageRow> {
  return http.post<ServiceMessageRow>('/admin/service/message', body, { noLoading: true });
}
