import { useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import { http } from '../../../app/http.ts';

/** GET /admin/office/message/unread/count — unread messages in my inbox. */
export function getUnreadCount(): Promise<{ count: number }> {
  return http.get<{ count: number }>('/admin/office/message/unread/count', undefined, { noLoading: true, silent: true });
}

/** Query key of the unread count: invalidate it after anything that reads or deletes messages. */
export const UNREAD_COUNT_QUERY_KEY = ['office', 'message', 'unread-count'] as const;

/** Whether the live channel is delivering the unread count (use-live-unread.ts): the poll is then off. */
export const useUnreadLive = create<{ live: boolean; setLive: (live: boolean) => void }>((set) => ({
  live: false,
  setLive: (live) => set({ live }),
}));

/** The slow poll while the live channel is down (no socket, the server unreachable). */
const FALLBACK_POLL_MS = 60_000;

export const unreadCountQuery = {
  queryKey: UNREAD_COUNT_QUERY_KEY,
  queryFn: async () => (await getUnreadCount()).count,
  staleTime: 10_000,
  refetchInterval: () => (useUnreadLive.getState().live ? false : FALLBACK_POLL_MS),
};

export function useUnreadCount(): number {
  return useQuery(unreadCountQuery).data ?? 0;
}
