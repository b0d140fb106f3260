import type { CurrentUser } from '@p8/contract/auth';
import { http } from '../http.ts';

/** GET /admin/current/detail — the signed-in user (persisted as userInfo). */
export function getCurrentDetail(): Promise<CurrentUser> {
  return http.get<CurrentUser>('/admin/current/detail');
}
