import type { MessageRow } from '@p8/contract/office';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

/** GET /admin/office/message — my inbox or outbox (`box`), optionally only read / unread (`isRead`). */
export function listMessages(params: QueryParams): Promise<PagedResult<MessageRow>> {
  return http.list<MessageRow>('/admin/office/message', params, { noLoading: true });
}
