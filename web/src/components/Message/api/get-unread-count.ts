import { useQuery } from '@tanstack/react-query';
import { http } from '../../../app/http.ts';

/** GET /admin/office/message/unread/count — unread messages in my inbox. */
export function getUnreadCount(): Promise<{ count: number }> {
  return http.get<{ count: number }>('/admin/office/message/unread/count', undefined, { noLoading: true, silent: true });
}

/** Query key of the unread count: invalidate it after anything that reads or deletes messages. */
export const UNREAD_COUNT_QUERY_KEY = ['office', 'message', 'unread-count'] as const;

export const unreadCountQuery = {
  queryKey: UNREAD_COUNT_QUERY_KEY,
  queryFn: async () => (await getUnreadCount()).count,
  staleTime: 10_000,
  refetchInterval: 60_000,
};

export function useUnreadCount(): number {
  return useQuery(unreadCountQuery).data ?? 0;
}
