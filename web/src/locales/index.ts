import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage, useGlobalStore, type Language } from '../stores/global.ts';

/**
 * i18next set-up. Every file `locales/<lang>/<name>.ts` default-exports an object of texts and becomes
 * the top-level key `<name>`: `locales/zh/login.ts` → `t('login.submit')`, `error.ts` → `t('error.NetworkError')`.
 * Add a screen's texts by adding a file to both `zh/` and `en/`; nothing here needs to change.
 * The language follows the persisted global store (default from the browser).
 */
type Texts = { [key: string]: string | Texts };

function collect(modules: Record<string, unknown>): Record<string, Texts> {
  const out: Record<string, Texts> = {};
  for (const [path, mod] of Object.entries(modules)) {
    const name = /\/([^/]+)\.ts$/.exec(path)?.[1];
    const texts = (mod as { default?: Texts }).default;
    if (name && texts) out[name] = texts;
  }
  return out;
}

// The first page (sign-in, error pages) needs only these namespaces: they are part of the first download.
// The screens' texts (most of them) load with the signed-in app, see `loadScreenTexts`.
const zh = collect(import.meta.glob(['./zh/common.ts', './zh/error.ts', './zh/login.ts'], { eager: true }));
const en = collect(import.meta.glob(['./en/common.ts', './en/error.ts', './en/login.ts'], { eager: true }));
const screenTextModules = {
  zh: import.meta.glob(['./zh/*.ts', '!./zh/common.ts', '!./zh/error.ts', '!./zh/login.ts']),
  en: import.meta.glob(['./en/*.ts', '!./en/common.ts', '!./en/error.ts', '!./en/login.ts']),
};

function applyLanguage(language: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: getLanguage(),
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
applyLanguage(getLanguage());

useGlobalStore.subscribe((state, prev) => {
  if (state.language !== prev.language) {
    void i18n.changeLanguage(state.language);
    applyLanguage(state.language);
  }
});

let errorTexts: Promise<void> | undefined;

/**
 * Adds the whole error catalogue of both languages (its own small chunk): the first page carries only the
 * texts of transport, sign-in and session errors (`@p8/contract/errors-first`). The HTTP client awaits it
 * before translating any other key; the signed-in screens have it with their texts. A failed download
 * (offline) is retried by the next call.
 */
export function loadErrorTexts(): Promise<void> {
  errorTexts ??= import('./error-catalogue.ts')
    .then(({ errorTexts: texts }) => {
      for (const [language, error] of Object.entries(texts)) i18n.addResourceBundle(language, 'translation', { error }, true, true);
    })
    .catch((error: unknown) => {
      errorTexts = undefined;
      throw error;
    });
  return errorTexts;
}

let screenTexts: Promise<void> | undefined;

/**
 * Adds the screens' texts of both languages (one chunk, `texts`, see vite.config.ts) and the whole error
 * catalogue. Awaited before any
 * signed-in route renders (app/dynamic-routes.ts `loadUserRoutes`, and the shell's lazy route), so no
 * screen ever shows a key. A failed download (offline) is retried by the next call.
 */
export function loadScreenTexts(): Promise<void> {
  screenTexts ??= (async () => {
    // Dates are shown by the signed-in screens only: dayjs and its Chinese locale come with them.
    await Promise.all([loadErrorTexts(), import('./dayjs-language.ts')]);
    for (const [language, modules] of Object.entries(screenTextModules)) {
      const loaded = await Promise.all(Object.entries(modules).map(async ([path, load]) => [path, await load()] as const));
      i18n.addResourceBundle(language, 'translation', collect(Object.fromEntries(loaded)), true, true);
    }
  })().catch((error: unknown) => {
    screenTexts = undefined;
    throw error;
  });
  return screenTexts;
}

/**
 * Text of a catalogue key: the translated `error.<key>` when the key is known, the key itself
 * when it is some other text, NetworkError when there is nothing.
 */
export function translateError(key: string | undefined | null): string {
  if (!key) return i18n.t('error.NetworkError');
  return i18n.exists(`error.${key}`) ? i18n.t(`error.${key}`) : key;
}

export default i18n;
