import { http } from '../http.ts';

/** POST /auth/logout — ends the session on the server (empty body). */
export function logoutRequest(): Promise<null> {
  return http.post<null>('/auth/logout', undefined, { silent: true });
}
