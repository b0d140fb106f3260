import { BILL_TYPES } from './catalogue.ts';

/*
 * Bill-code prefixes per tenant: a bill code is prefix + date + daily sequence (CGRK202611240001). Each
 * declared type brings its `codePrefix`; a tenant may set its own per type in the system settings
 * (`billCodePrefixes`, only the types it changed are stored). Two types never share a prefix, so a code
 * names its type across the tenant.
 */

/** Every declared type's prefix: the tenant's own where it set one, else the declaration's. */
export function billCodePrefixes(own: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(BILL_TYPES.map((decl) => [decl.type, own[decl.type]?.trim() || decl.codePrefix]));
}

/** What to store of a full map of prefixes: the declared types whose prefix differs from the declaration's. */
export function ownBillCodePrefixes(prefixes: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    BILL_TYPES.flatMap((decl) => {
      const prefix = prefixes[decl.type]?.trim();
      return prefix && prefix !== decl.codePrefix ? [[decl.type, prefix]] : [];
    }),
  );
}

/** The types of `own` that are not declared (an old or mistyped key). */
export const undeclaredBillTypes = (own: Readonly<Record<string, string>>) => Object.keys(own).filter((type) => !BILL_TYPES.some((d) => d.type === type));

/** A prefix that two types would share once `own` applies (compared without case), or undefined. */
export function sharedBillCodePrefix(own: Readonly<Record<string, string>>): string | undefined {
  const seen = new Set<string>();
  for (const prefix of Object.values(billCodePrefixes(own))) {
    const key = prefix.toUpperCase();
    if (seen.has(key)) return prefix;
    seen.add(key);
  }
  return undefined;
}
