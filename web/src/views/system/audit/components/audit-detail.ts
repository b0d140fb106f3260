/**
 * Reading an audit entry's `detail` (any JSON the server recorded): which shape it has, so the drawer
 * can show a change as a before / after table and everything else as labelled values.
 */
export type Change = { field: string; before: unknown; after: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ field: { from, to } }` (an update), `{ from: {…}, to: {…} }` or `{ before: {…}, after: {…} }` → rows; else null. */
export function changesOf(detail: unknown): Change[] | null {
  if (!isObject(detail)) return null;
  const entries = Object.entries(detail);
  if (!entries.length) return null;
  if (entries.every(([, v]) => isObject(v) && Object.keys(v).length === 2 && 'from' in v && 'to' in v)) {
    return entries.map(([field, v]) => ({ field, before: (v as { from: unknown }).from, after: (v as { to: unknown }).to }));
  }
  for (const [beforeKey, afterKey] of [
    ['from', 'to'],
    ['before', 'after'],
  ] as const) {
    const keys = Object.keys(detail);
    if (keys.length === 2 && isObject(detail[beforeKey]) && isObject(detail[afterKey])) {
      const before = detail[beforeKey] as Record<string, unknown>;
      const after = detail[afterKey] as Record<string, unknown>;
      const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
      const rows = fields.map((field) => ({ field, before: before[field], after: after[field] }));
      // A whole before and after (a role's data scope) also repeats what stayed: only what moved is a change
      // ("Departments: — → —" beside the scope that changed said nothing).
      const moved = rows.filter((row) => JSON.stringify(row.before ?? null) !== JSON.stringify(row.after ?? null));
      return moved.length ? moved : rows;
    }
  }
  return null;
}

/** The parts of a partner's address the audit shows, by their label in the address table. */
export type AddressPart = 'district' | 'detail' | 'contactName' | 'phone' | 'isDefault';

/**
 * A partner's addresses as the log shows them: each its region (or own district) by its path of names,
 * then the street address, recipient and phone, labelled, and whether it is the default.
 */
export function addressesText(value: unknown[], label: (part: AddressPart) => string): string {
  if (!value.length) return '—';
  const names = (path: unknown) => (Array.isArray(path) ? path.map((p) => (isObject(p) ? String(p.name ?? '') : String(p))).filter(Boolean).join(' / ') : '');
  return value
    .map((item) => {
      if (!isObject(item)) return String(item);
      const place = names(item.regionPath) || names(item.districtPath) || String(item.regionCode ?? (item.districtId == null ? '' : `#${String(item.districtId)}`));
      const parts: Array<[AddressPart, unknown]> = [
        ['district', place],
        ['detail', item.address],
        ['contactName', item.contactName],
        ['phone', item.phone],
      ];
      const text = parts.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([part, v]) => `${label(part)}: ${String(v)}`).join(', ');
      return item.isDefault === true ? `${text} (${label('isDefault')})` : text;
    })
    .join(' | ');
}

/** One value as short text: arrays of plain values joined, objects as compact JSON. */
export function plainText(value: unknown, yes: string, no: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? yes : no;
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.every((v) => !isObject(v) && !Array.isArray(v)) ? value.join(', ') : JSON.stringify(value);
  if (isObject(value)) return JSON.stringify(value);
  return String(value);
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A field's value as text (ids as names, codes as words…). */
export type FormatValue = (field: string, value: unknown) => string;

/** The list's one-line summary of a detail; a created record leaves out its empty fields. */
export function summaryOf(detail: unknown, label: (field: string) => string, format: FormatValue): string {
  if (detail === null || detail === undefined) return '';
  const changes = changesOf(detail);
  if (changes) return changes.map((c) => `${label(c.field)}: ${format(c.field, c.before)} → ${format(c.field, c.after)}`).join('; ');
  if (isObject(detail))
    return Object.entries(detail)
      .filter(([, v]) => !isEmpty(v))
      .map(([k, v]) => `${label(k)}: ${format(k, v)}`)
      .join('; ');
  return format('', detail);
}
