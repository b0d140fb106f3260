import { useQuery, type QueryClient } from '@tanstack/react-query';
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

/**
 * The count the live channel last delivered, and when. A read over HTTP that began before it answers what the
 * inbox held when the read began: arriving after the live count (a refetch on focus, a second screen mounting), it
 * would put an older count back, and nothing would correct it until the next change. Such a read keeps the live one.
 */
let lastLive: { at: number; count: number } | undefined;

/** The count the live channel delivered (use-live-unread.ts), into the query. */
export function liveUnreadCount(queryClient: QueryClient, count: number): void {
  lastLive = { at: performance.now(), count };
  queryClient.setQueryData(UNREAD_COUNT_QUERY_KEY, count);
}

export const unreadCountQuery = {
  queryKey: UNREAD_COUNT_QUERY_KEY,
  queryFn: async () => {
    const began = performance.now();
    const { count } = await getUnreadCount();
    return lastLive && lastLive.at > began ? lastLive.count : count;
  },
  staleTime: 10_000,
  refetchInterval: () => (useUnreadLive.getState().live ? false : FALLBACK_POLL_MS),
};

export function useUnreadCount(): number {
  return useQuery(unreadCountQuery).data ?? 0;
}
