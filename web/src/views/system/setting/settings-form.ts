import { SYSTEM_SETTING_KEYS, type SystemSettings, type SystemSettingsUpdate } from '@p8/contract/tenant-config';

/*
 * The settings form against what is stored. The form holds only the fields it shows (the custom watermark
 * text is not mounted while the watermark shows the account), so the form's values are laid over the stored
 * settings field by field and trimmed the way a save trims them before anything is compared: a fresh form,
 * a discarded one and a saved one are never "unsaved".
 */

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stable JSON (object keys sorted). */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (isPlain(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

/** `over` laid on `base`: nested objects merged, undefined leaves keep the base's value. */
function overlay<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return (over === undefined ? base : over) as T;
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) if (key in base) out[key] = overlay(base[key], value);
  return out as T;
}

/** An extension as the server keeps it: trimmed, lower case, without a leading dot. */
export const normalExtension = (ext: string) => ext.trim().toLowerCase().replace(/^\./, '');

/** The settings a save would send: the form's values over the stored ones, texts trimmed. */
export function settingsOfForm(stored: SystemSettings, values: unknown): SystemSettings {
  const next = overlay(stored, values);
  return {
    codePrefixes: Object.fromEntries(Object.entries(next.codePrefixes).map(([kind, prefix]) => [kind, (prefix ?? '').trim()])) as SystemSettings['codePrefixes'],
    billCodePrefixes: Object.fromEntries(Object.entries(next.billCodePrefixes ?? {}).map(([type, prefix]) => [type, (prefix ?? '').trim()])),
    orderNotifyPhones: next.orderNotifyPhones ?? [],
    smsSignature: (next.smsSignature ?? '').trim(),
    watermark: { ...next.watermark, text: (next.watermark.text ?? '').trim() },
    printTemplate: { ...next.printTemplate, header: (next.printTemplate.header ?? '').trim(), footer: (next.printTemplate.footer ?? '').trim() },
    uploadExtensions: (next.uploadExtensions ?? []).map(normalExtension),
    unpaidOrderCancelMinutes: next.unpaidOrderCancelMinutes ?? 0,
  };
}

/** Only the keys the form changed (what a save sends); empty when the form matches what is stored. */
export function changedSettings(stored: SystemSettings, values: unknown): SystemSettingsUpdate {
  const next = settingsOfForm(stored, values);
  return Object.fromEntries(SYSTEM_SETTING_KEYS.filter((key) => stable(next[key]) !== stable(stored[key])).map((key) => [key, next[key]]));
}
