import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { SmsPurpose } from '@p8/contract/auth';

/** antd component sizes offered by the header's size switch. */
export type ComponentSize = 'small' | 'middle' | 'large';
export type Language = 'zh' | 'en';

/** Chinese when the browser says zh or cn, else English. */
export function browserLanguage(): Language {
  const langs = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const first = langs.find(Boolean) ?? '';
  return /zh|cn/i.test(first) ? 'zh' : 'en';
}

interface GlobalState {
  componentSize: ComponentSize;
  language: Language;
  /**
   * When the SMS resend countdown ends (epoch ms), per purpose: storing the end time instead of the
   * seconds left makes the countdown survive a reload exactly.
   */
  smsEndAt: Partial<Record<SmsPurpose, number>>;
  /** Route info of the last navigation (not persisted). */
  fromPath: string;
  toPath: string;
  setComponentSize: (size: ComponentSize) => void;
  setLanguage: (language: Language) => void;
  startSmsCountdown: (purpose: SmsPurpose, seconds: number) => void;
  setRouteInfo: (fromPath: string, toPath: string) => void;
}

export const useGlobalStore = create<GlobalState>()(
  persist(
    (set) => ({
      componentSize: 'middle',
      language: browserLanguage(),
      smsEndAt: {},
      fromPath: '',
      toPath: '',
      setComponentSize: (componentSize) => set({ componentSize }),
      setLanguage: (language) => set({ language }),
      startSmsCountdown: (purpose, seconds) => set((s) => ({ smsEndAt: { ...s.smsEndAt, [purpose]: Date.now() + seconds * 1000 } })),
      setRouteInfo: (fromPath, toPath) => set({ fromPath, toPath }),
    }),
    {
      name: 'p8-global',
      version: 1,
      partialize: ({ componentSize, language, smsEndAt }) => ({ componentSize, language, smsEndAt }),
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<GlobalState>;
        const merged = { ...current, ...saved };
        if (merged.language !== 'zh' && merged.language !== 'en') merged.language = current.language;
        if (!['small', 'middle', 'large'].includes(merged.componentSize)) merged.componentSize = 'middle';
        return merged;
      },
    },
  ),
);

export const getLanguage = () => useGlobalStore.getState().language;
