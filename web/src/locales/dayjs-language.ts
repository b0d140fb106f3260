import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { getLanguage, useGlobalStore, type Language } from '../stores/global.ts';

/**
 * dayjs follows the app's language (antd's date pickers and every formatted date). Loaded with the
 * screens' texts (`loadScreenTexts`), before any signed-in screen renders: the sign-in page shows no date.
 */
const dayjsLocale: Record<Language, string> = { zh: 'zh-cn', en: 'en' };

dayjs.locale(dayjsLocale[getLanguage()]);
useGlobalStore.subscribe((state, prev) => {
  if (state.language !== prev.language) dayjs.locale(dayjsLocale[state.language]);
});
