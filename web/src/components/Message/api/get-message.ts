import type { MessageRow } from '@p8/contract/office';
import { http } from '../../../app/http.ts';

/** GET /admin/office/message/{id} — a message I sent or received. */
export function getMessage(id: number): Promise<MessageRow> {
  return http.get<MessageRow>(`/admin/office/message/${id}`, undefined, { noLoading: true });
}
