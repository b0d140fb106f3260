import type { CurrentRole } from '@p8/contract/menu';
import { http } from '../http.ts';

/** GET /admin/current/role — the menu tree with buttons, and the authorized button codes. */
export function getCurrentRole(): Promise<CurrentRole> {
  return http.get<CurrentRole>('/admin/current/role');
}
