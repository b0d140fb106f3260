import type { CurrentUser } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** PUT /admin/current/info — the signed-in user's personal data; returns the updated user. */
export interface PersonalInfo {
  realName: string;
  nickName: string;
  email: string;
  sex: number;
  avatar: string;
  phone: string;
}

export function updatePersonalInfo(info: PersonalInfo): Promise<CurrentUser> {
  return http.put<CurrentUser>('/admin/current/info', info);
}
