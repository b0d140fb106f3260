import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { http } from '../../../app/http.ts';
import { liveUnreadCount, unreadCountQuery, UNREAD_COUNT_QUERY_KEY } from './get-unread-count.ts';

afterEach(() => vi.restoreAllMocks());

describe('the unread count', () => {
  it('keeps the live count over a read that began before it arrived', async () => {
    const client = new QueryClient();
    let answer: (value: { count: number }) => void = () => undefined;
    vi.spyOn(http, 'get').mockImplementation(() => new Promise((resolve) => (answer = resolve as typeof answer)) as never);
    // A refetch under way when the inbox held 1; the live channel then tells 2; the read answers its 1.
    const read = unreadCountQuery.queryFn();
    liveUnreadCount(client, 2);
    answer({ count: 1 });
    expect(await read).toBe(2);
    expect(client.getQueryData(UNREAD_COUNT_QUERY_KEY)).toBe(2);
  });

  it('takes a read that began after the live count', async () => {
    const client = new QueryClient();
    liveUnreadCount(client, 2);
    await new Promise((r) => setTimeout(r, 2));
    vi.spyOn(http, 'get').mockResolvedValue({ count: 3 } as never);
    expect(await unreadCountQuery.queryFn()).toBe(3);
  });
});
