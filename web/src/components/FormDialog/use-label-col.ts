import { useGlobalStore } from '../../stores/global.ts';

/** Label column of the dialogs: English labels are longer ("Confirm password") and would wrap at the kit's 110 px. */
export function useLabelCol(en = 150, zh = 110): { flex: string } {
  const language = useGlobalStore((s) => s.language);
  return { flex: `${language === 'en' ? en : zh}px` };
}
