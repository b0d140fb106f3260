import { errorCatalogue } from '@p8/contract/errors';

/** The whole error catalogue in both languages, as `error` namespaces (loaded by `loadErrorTexts`). */
export const errorTexts = {
  zh: Object.fromEntries(Object.entries(errorCatalogue).map(([key, text]) => [key, text.zh])) as Record<string, string>,
  en: Object.fromEntries(Object.entries(errorCatalogue).map(([key, text]) => [key, text.en])) as Record<string, string>,
};
