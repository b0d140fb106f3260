import { useEffect, useRef, useState } from 'react';
import type { ServiceMessageRow, WsClientMessage, WsServerMessage } from '@p8/contract/service';
import { LIVE_BACKOFF as BACKOFF, liveSocketUrl as socketUrl } from '../../app/live-socket.ts';
import { getToken } from '../../stores/auth.ts';

export type ChatState = 'connecting' | 'live' | 'offline';

/**
 * The messages of an order's chat, live: one WebSocket to /api/ws, signed in with the session's token,
 * subscribed to the order with the id of the last message held — at first 0 (the whole history), after a
 * reconnect or a server's `resync` the last one seen, so what was missed meanwhile arrives first. Messages
 * are kept by id (duplicates dropped, in id order).
 */
export function useOrderChat(orderId: number | undefined) {
  const [messages, setMessages] = useState<ServiceMessageRow[]>([]);
  const [state, setState] = useState<ChatState>('connecting');
  const [error, setError] = useState<string | null>(null);
  const lastId = useRef(0);

  useEffect(() => {
    // One order per mount (the detail drawer mounts the chat afresh for each order).
    lastId.current = 0;
    if (!orderId) return;
    let socket: WebSocket | undefined;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const send = (message: WsClientMessage) => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
    const subscribe = () => send({ type: 'subscribe', orderId, afterId: lastId.current });

    const connect = () => {
      socket = new WebSocket(socketUrl());
      socket.onopen = () => send({ type: 'auth', token: getToken() });
      socket.onmessage = (event) => {
        const data = JSON.parse(String(event.data)) as WsServerMessage;
        switch (data.type) {
          case 'ready':
            subscribe();
            return;
          case 'subscribed':
            attempt = 0;
            setState('live');
            return;
          case 'resync':
            subscribe();
            return;
          case 'message': {
            const incoming = data.message;
            if (incoming.orderId !== orderId) return;
            lastId.current = Math.max(lastId.current, incoming.id);
            setMessages((list) => (list.some((m) => m.id === incoming.id) ? list : [...list, incoming].sort((x, y) => x.id - y.id)));
            return;
          }
          case 'error':
            setError(data.message);
            return;
          default:
        }
      };
      socket.onclose = (event) => {
        if (closed) return;
        setState('offline');
        // 4401: the session ended; the next request of the app will take the user to the login page.
        if (event.code === 4401) return;
        timer = setTimeout(connect, BACKOFF[Math.min(attempt++, BACKOFF.length - 1)]);
      };
    };
    connect();
    // Back online: try at once rather than waiting for the next delay.
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
      socket?.close();
    };
  }, [orderId]);

  /** A message the user just sent (shown at once; the live copy has the same id). */
  const add = (message: ServiceMessageRow) => {
    lastId.current = Math.max(lastId.current, message.id);
    setMessages((list) => (list.some((m) => m.id === message.id) ? list : [...list, message].sort((x, y) => x.id - y.id)));
  };

  return { messages, state, error, add };
}
