import { http } from '../../../app/http.ts';

/** PUT /admin/office/message/hide `{ ids }` — messages of my inbox leave it (the sender still sees them). */
export function hideMessages(ids: number[]): Promise<{ updated: number }> {
  return http.put<{ updated: number }>('/admin/office/message/hide', { ids });
}
