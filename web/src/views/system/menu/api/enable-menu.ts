import { http } from '../../../../app/http.ts';

/** PUT /admin/security/menu/enable — needs system_menu_enable. Silent: the screen shows a refusal, naming the record. */
export function enableMenus(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/security/menu/enable', { ids, enabled }, { noLoading: true, silent: true });
}
