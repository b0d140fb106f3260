import { z } from 'zod';

/**
 * The one string schema of the contract: every text field of a body and every text query parameter is a
 * `storableText()`, never a bare `z.string()`. PostgreSQL's text cannot hold a NUL character, and a lone
 * UTF-16 surrogate (half of a pair, which JSON's `\ud800` escape can produce) has no UTF-8 form: both
 * failed deep in the driver as HTTP 500 — and, once, after the record was written but before its audit
 * entry was. Refused here, they are a 40001 `TextNotStorable` naming the field.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether PostgreSQL can store the string as text. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * Text PostgreSQL can store, refused with `TextNotStorable` otherwise. Chains like `z.string()`
 * (`.trim().min(1).max(50)`, `.regex(...)`); `params` is `z.string`'s (e.g. `{ error: 'PleaseInputName' }`
 * for a missing value). The check comes first, so a NUL is reported as such, not as a format error.
 */
export function storableText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { message: 'TextNotStorable' });
}

/**
 * A record's name: required (`PleaseInputName` when missing, blank or not a string) and at most `max`
 * characters (`NameTooLong`). The length needs its own message: the string's `error` answers every issue
 * the schema raises, so a name one character too long was refused as "please enter the name".
 */
export function nameText(max = 100) {
  return storableText({ error: 'PleaseInputName' }).trim().min(1, { message: 'PleaseInputName' }).max(max, { message: 'NameTooLong' });
}

/**
 * A record's code: required (`PleaseInputCode`) and at most `max` characters (`CodeTooLong`), for the same
 * reason as `nameText`.
 */
export function codeText(max = 50) {
  return storableText({ error: 'PleaseInputCode' }).trim().min(1, { message: 'PleaseInputCode' }).max(max, { message: 'CodeTooLong' });
}

/** The same characters replaced by U+FFFD: for text the server must write whatever it is (the audit log). */
export function toStorableText(value: string): string {
  return value.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
}

// ---------------------------------------------------------------- dates

/**
 * Years a date may have. JavaScript accepts ±275760, PostgreSQL's timestamp stops at 294276 and its date
 * type at 5874897, and both start far before anything a company records; years outside 1900–9999 are
 * never a real bill or filter, only a typo or an attack, so they are refused before any query sees them.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date query value (`yyyy-mm-dd`, or a date-time `yyyy-mm-dd HH:mm:ss` / ISO) as a Date, or undefined when it is not a date
 * within MIN_YEAR–MAX_YEAR. A date without a time is local midnight; `endOfDay` makes it the next
 * midnight, so that an end date includes its whole day.
 */
export function parseDateValue(value: string, endOfDay = false): Date | undefined {
  const dateOnly = DATE_ONLY.test(value);
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}[T ]\d/.test(value)) return undefined;
  const date = new Date(dateOnly ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) return undefined;
  if (dateOnly && endOfDay) date.setDate(date.getDate() + 1);
  const year = date.getFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR ? date : undefined;
}

/**
 * The one date schema of list, statistics and export queries (`start`, `end`): a `yyyy-mm-dd` or ISO
 * date-time string within MIN_YEAR–MAX_YEAR, refused with `DateOutOfRange` naming the field otherwise.
 * The value stays a string; `parseDateValue` turns it into the bound of the range.
 */
export const dateQuery = storableText().refine((value) => parseDateValue(value) !== undefined, { message: 'DateOutOfRange' });
