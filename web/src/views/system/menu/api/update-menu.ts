import type { MenuRow, MenuUpdate } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** PUT /admin/security/menu — needs system_menu_update; a template item keeps its name and type. */
export function updateMenu(body: MenuUpdate): Promise<MenuRow> {
  return http.put<MenuRow>('/admin/security/menu', body);
}
