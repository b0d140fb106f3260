import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WsClientMessage, WsServerMessage } from '@p8/contract/service';
import { LIVE_BACKOFF, liveSocketUrl } from '../../app/live-socket.ts';
import { getToken } from '../../stores/auth.ts';
import { liveUnreadCount, UNREAD_COUNT_QUERY_KEY, useUnreadLive } from './api/get-unread-count.ts';

/**
 * Keeps the unread count (the header bell, the message screen's badge) live: one WebSocket to /api/ws,
 * signed in with the session's token and subscribed with `inbox`; the server sends the count at once and
 * whenever a message of the user's is stored, read, hidden or deleted — through whichever server process.
 * While the socket is down the count's
 * slow poll runs (get-unread-count.ts) and the socket reconnects with a back-off.
 */
export function useLiveUnread(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let socket: WebSocket | undefined;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const setLive = useUnreadLive.getState().setLive;
    const send = (message: WsClientMessage) => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));

    const connect = () => {
      socket = new WebSocket(liveSocketUrl());
      socket.onopen = () => send({ type: 'auth', token: getToken() });
      socket.onmessage = (event) => {
        const data = JSON.parse(String(event.data)) as WsServerMessage;
        if (data.type === 'ready') send({ type: 'inbox' });
        else if (data.type === 'unread') {
          attempt = 0;
          setLive(true);
          liveUnreadCount(queryClient, data.count);
        }
      };
      socket.onclose = (event) => {
        setLive(false);
        if (closed) return;
        // 4401: the session ended; the next request of the app will take the user to the login page.
        if (event.code === 4401) return;
        // Missed while away: read now (the poll goes on until the socket is back).
        void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_QUERY_KEY });
        timer = setTimeout(connect, LIVE_BACKOFF[Math.min(attempt++, LIVE_BACKOFF.length - 1)]);
      };
    };
    connect();
    const online = () => {
      if (socket?.readyState === WebSocket.CLOSED) {
        clearTimeout(timer);
        connect();
      }
    };
    window.addEventListener('online', online);
    return () => {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener('online', online);
      setLive(false);
      socket?.close();
    };
  }, [queryClient]);
}
