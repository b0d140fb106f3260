import type { MessageSend } from '@p8/contract/office';
import { http } from '../../../../app/http.ts';

/** POST /admin/office/message — one message per receiver (code system_message_send). */
export function sendMessage(body: MessageSend): Promise<{ ids: number[] }> {
  return http.post<{ ids: number[] }>('/admin/office/message', body);
}
