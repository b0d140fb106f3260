import type { MenuCreate, MenuRow } from '@p8/contract/system';
import { http } from '../../../../app/http.ts';

/** POST /admin/security/menu — needs system_menu_add. A Button hangs under a Menu; screens need a path. */
export function addMenu(body: MenuCreate): Promise<MenuRow> {
  return http.post<MenuRow>('/admin/security/menu', body);
}
