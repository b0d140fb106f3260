import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { PASSWORD_REGEX, PHONE_REGEX } from '@p8/contract/patterns';
import type { SystemConfig } from '@p8/contract/tenant-config';
import i18n from '../locales/index.ts';
import { getSystemConfig } from './api/get-system-config.ts';

/**
 * The public system configuration, persisted so the title, logo and favicon show at once on
 * the next visit, and refreshed from GET /base/system/config on every page load.
 */
interface SystemConfigState {
  config: SystemConfig | null;
  setConfig: (config: SystemConfig) => void;
}

export const useSystemConfigStore = create<SystemConfigState>()(
  persist(
    (set) => ({
      config: null,
      setConfig: (config) => set({ config }),
    }),
    { name: 'p8-system-config', version: 1, partialize: ({ config }) => ({ config }) },
  ),
);

let pending: Promise<SystemConfig | null> | null = null;

/** Loads (once per page load) the public config; resolves null when the server is unreachable. */
export function loadSystemConfig(): Promise<SystemConfig | null> {
  pending ??= getSystemConfig()
    .then((config) => {
      useSystemConfigStore.getState().setConfig(config);
      return config;
    })
    .catch(() => {
      pending = null;
      return useSystemConfigStore.getState().config;
    });
  return pending;
}

/** The format rules for passwords and phones: the server's, else the contract's defaults. */
export function formatRules(config: SystemConfig | null) {
  const compile = (source: string | undefined, fallback: string) => {
    try {
      return new RegExp(source || fallback);
    } catch {
      return new RegExp(fallback);
    }
  };
  return {
    password: compile(config?.passwordRegex, PASSWORD_REGEX),
    phone: compile(config?.phoneRegex, PHONE_REGEX),
  };
}

/**
 * The system title to show. The server's default title is the generic Chinese one; in English that
 * default is shown translated, while a title the operator has set is shown as it is.
 */
export function systemTitleOf(config: SystemConfig | null, language: 'zh' | 'en'): string {
  const title = config?.system_title || config?.title || '';
  const zhDefault = i18n.t('common.defaultSystemTitle', { lng: 'zh' });
  if (!title || (language === 'en' && title === zhDefault)) return i18n.t('common.defaultSystemTitle', { lng: language });
  return title;
}

/** system_icon as the favicon. */
function applyFavicon(icon: string | undefined) {
  if (!icon || typeof document === 'undefined') return;
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.href !== icon) link.href = icon;
}

applyFavicon(useSystemConfigStore.getState().config?.system_icon);
useSystemConfigStore.subscribe((state) => applyFavicon(state.config?.system_icon));
