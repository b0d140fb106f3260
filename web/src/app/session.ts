import { useAuthStore } from '../stores/auth.ts';
import { useMenuStore } from '../stores/menu.ts';

/**
 * Ending the session on the client: token, user info, menus and the session cookie.
 * Other parts (e.g. the tab bar) register `onSessionClear` to drop their per-user state too.
 */
const listeners = new Set<() => void>();

export function onSessionClear(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Expires every cookie the page can see (the server's session cookie, if any, included). */
function clearCookies() {
  if (typeof document === 'undefined') return;
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (!name) continue;
    const expired = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0`;
    document.cookie = `${expired}; path=/`;
    document.cookie = expired;
  }
}

export function clearSession() {
  useAuthStore.getState().clear();
  useMenuStore.getState().reset();
  clearCookies();
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      console.error(error);
    }
  }
}
