import type { RecordFieldDecl } from '@p8/contract/records/registry';

/**
 * The record screen's pure part: what it shows and checks for any declared record kind, read from the
 * contract's declaration only (no kind is named here).
 */

/**
 * The catalogue key refusing a typed value of `field`, by the field's declared schema — the one the
 * server's save schema is made of — so a negative rate or a too-long name is refused on its field, in the
 * user's language, before anything is sent. Undefined when the value passes or is empty (whether it is
 * required is the required rule's business). Messages that are no catalogue key (`isKey` false) read as
 * ParamError.
 */
export function fieldRefusal(field: RecordFieldDecl, value: unknown, isKey: (key: string) => boolean): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = field.schema.safeParse(value);
  if (parsed.success) return undefined;
  const key = parsed.error.issues[0]?.message ?? '';
  return isKey(key) ? key : 'ParamError';
}

/** A plain cell: the value, or a dash for none. */
export const valueCell = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : String(value));
