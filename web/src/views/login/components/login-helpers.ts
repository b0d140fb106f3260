import type { FormInstance } from 'antd';
import i18n from '../../../locales/index.ts';
import { feedback } from '../../../app/feedback.ts';
import { isHttpError } from '../../../app/http.ts';
import { loadUserRoutes } from '../../../app/dynamic-routes.ts';
import { HOME_PATH } from '../../../app/navigate.ts';
import { clearSession } from '../../../app/session.ts';
import { useAuthStore } from '../../../stores/auth.ts';
import { useMenuStore } from '../../../stores/menu.ts';

/** Greeting by time of day: morning 5–11, noon 11–13, afternoon 13–18, evening otherwise. */
export type Greeting = 'morning' | 'noon' | 'afternoon' | 'evening';

export function greetingOf(hour: number): Greeting {
  if (hour >= 5 && hour < 11) return 'morning';
  if (hour >= 11 && hour < 13) return 'noon';
  if (hour >= 13 && hour < 18) return 'afternoon';
  return 'evening';
}

/**
 * "Remember password": name and password in local storage, only while the box is ticked.
 * Base64 only keeps the text from being read at a glance — it is NOT encryption; anyone with access
 * to this browser profile can recover the password.
 */
const REMEMBER_KEY = 'p8-login-remember';

export interface Remembered {
  name: string;
  password: string;
}

const toBase64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const fromBase64 = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

export function readRemembered(): Remembered | null {
  try {
    const raw = localStorage.getItem(REMEMBER_KEY);
    if (!raw) return null;
    const value = JSON.parse(fromBase64(raw)) as Partial<Remembered>;
    return typeof value.name === 'string' && typeof value.password === 'string' ? { name: value.name, password: value.password } : null;
  } catch {
    return null;
  }
}

export function writeRemembered(value: Remembered | null) {
  if (value) localStorage.setItem(REMEMBER_KEY, toBase64(JSON.stringify(value)));
  else localStorage.removeItem(REMEMBER_KEY);
}

/** A `redirect` query value that stays inside the app. */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return HOME_PATH;
  return value;
}

/**
 * Puts a failed call's text beside the field its catalogue key is about; returns the text when no
 * field claims it (the form shows it above the submit button).
 */
export function applyServerError(form: FormInstance, error: unknown, fieldOf: Record<string, string>): string | null {
  const text = isHttpError(error) ? error.text : i18n.t('error.NetworkError');
  const field = isHttpError(error) ? fieldOf[error.key] : undefined;
  if (field) {
    form.setFields([{ name: field, errors: [text] }]);
    return null;
  }
  return text;
}

/** After a successful sign-in: keep the token, load user and menus, go to `redirect` or home. */
export async function completeLogin(token: string, redirect: string | null, navigate: (to: string, options?: { replace?: boolean }) => void): Promise<boolean> {
  useMenuStore.getState().reset();
  useAuthStore.getState().setToken(token);
  let ok: boolean;
  try {
    ok = await loadUserRoutes();
  } catch {
    // Shown by the HTTP client; sign in again rather than stay half signed in.
    clearSession();
    return false;
  }
  if (!ok) return false;
  feedback.message.success(i18n.t('login.loginSuccess'));
  navigate(safeRedirect(redirect), { replace: true });
  return true;
}
