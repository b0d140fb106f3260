import { http } from '../../../app/http.ts';

/** PUT /admin/office/message/read `{ ids }` — messages of my inbox become read. */
export function markRead(ids: number[], options: { quiet?: boolean } = {}): Promise<{ updated: number }> {
  return http.put<{ updated: number }>('/admin/office/message/read', { ids }, { noLoading: options.quiet });
}
