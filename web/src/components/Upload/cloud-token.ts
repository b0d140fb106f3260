import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { http } from '../../app/http.ts';
import { onSessionClear } from '../../app/session.ts';
import { cloudKey, isTokenUsable, timestampOf, toCloudToken, type CloudToken, type CloudTokenAnswer } from './cloud.ts';

/**
 * The cloud upload token: GET /base/api/qiniuyun/token answers
 * `{ token, domain, expired }`; the client keeps the token until 10 s before it expires and asks again
 * when it is missing or expired. Kept in local storage with the rest of the persisted state, and
 * forgotten when the session ends.
 */
interface CloudTokenState {
  token: CloudToken | null;
  setToken: (token: CloudToken | null) => void;
}

export const useCloudTokenStore = create<CloudTokenState>()(
  persist((set) => ({ token: null, setToken: (token) => set({ token }) }), {
    name: 'p8-cloud-token',
    version: 1,
    partialize: ({ token }) => ({ token }),
  }),
);

onSessionClear(() => useCloudTokenStore.getState().setToken(null));

let pending: Promise<CloudToken> | null = null;

/** A usable token: the kept one, or a new one (one request however many uploads ask at once). */
export function getCloudToken(now: () => number = Date.now): Promise<CloudToken> {
  const kept = useCloudTokenStore.getState().token;
  if (isTokenUsable(kept, now())) return Promise.resolve(kept);
  pending ??= http
    .get<CloudTokenAnswer>('/base/api/qiniuyun/token', undefined, { noLoading: true })
    .then((answer) => {
      const token = toCloudToken(answer, now());
      useCloudTokenStore.getState().setToken(token);
      return token;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Drops the kept token (the provider refused it). */
export function forgetCloudToken() {
  useCloudTokenStore.getState().setToken(null);
}

const usedKeys = new Map<string, number>();

/** A key for a file uploaded now, unique within this page. */
export function nextCloudKey(tenantId: number | string, fileName: string, date = new Date()): string {
  const stamp = `${tenantId}_${timestampOf(date)}`;
  const sequence = (usedKeys.get(stamp) ?? 0) + 1;
  usedKeys.set(stamp, sequence);
  if (usedKeys.size > 200) usedKeys.delete(usedKeys.keys().next().value as string);
  return cloudKey(tenantId, date, fileName, sequence);
}

