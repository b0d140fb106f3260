import { http } from '../../../../app/http.ts';

/** DELETE /admin/office/message `{ ids }` — only messages I sent (code system_message_delete). */
export function deleteMessages(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/office/message', { ids });
}
