import { http } from '../../../app/http.ts';

/** At most 30 common menus. */
export const COMMON_MENU_LIMIT = 30;

/** PUT /admin/current/commonMenus — returns the saved menu ids. */
export function saveCommonMenus(menuIds: number[]): Promise<number[]> {
  return http.put<number[]>('/admin/current/commonMenus', { menuIds });
}
