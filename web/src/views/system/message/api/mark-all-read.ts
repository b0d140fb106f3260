import { http } from '../../../../app/http.ts';

/** PUT /admin/office/message/read/all — my whole inbox becomes read. */
export function markAllRead(): Promise<{ updated: number }> {
  return http.put<{ updated: number }>('/admin/office/message/read/all');
}
