import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { CurrentUser } from '@p8/contract/auth';

/**
 * The signed-in session (token and user info), kept in local storage
 * so a reload stays signed in. The bearer token is opaque; the server can revoke it at any time (40100).
 */
export type UserInfo = CurrentUser;

interface AuthState {
  token: string;
  userInfo: UserInfo | null;
  setToken: (token: string) => void;
  setUserInfo: (userInfo: UserInfo | null) => void;
  /** Forgets the token and the user (logout, 40100, empty menu list). */
  clear: () => void;
}

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      token: '',
      userInfo: null,
      setToken: (token) => set({ token }),
      setUserInfo: (userInfo) => set({ userInfo }),
      clear: () => set({ token: '', userInfo: null }),
    }),
    {
      name: 'p8-auth',
      version: 1,
      partialize: ({ token, userInfo }) => ({ token, userInfo }),
    },
  ),
);

/** The current token outside React (HTTP client, route guard). */
export const getToken = () => useAuthStore.getState().token;
