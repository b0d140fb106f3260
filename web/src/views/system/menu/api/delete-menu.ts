import { http } from '../../../../app/http.ts';

/** DELETE /admin/security/menu `{ ids }` — needs system_menu_delete; template items are refused. Silent: the screen shows a refusal, naming the record. */
export function deleteMenus(ids: number[]): Promise<null> {
  return http.delete<null>('/admin/security/menu', { ids }, { silent: true });
}
