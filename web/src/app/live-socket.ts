import { API_BASE } from './http.ts';

/** Reconnect delays (ms) of the live channel's sockets: quick at first, then every 10 s while the server stays away. */
export const LIVE_BACKOFF = [500, 1000, 2000, 5000, 10_000];

/** The address of the live channel, WebSocket /api/ws (order chats, the header bell's unread count). */
export function liveSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${API_BASE}/ws`;
}
