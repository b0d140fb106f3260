/**
 * The button-permission rule, one copy shared by the server's route guard and the web's <Auth>:
 * an array needs every code, 'a|b' needs any one of them, a plain string needs that code. Codes match
 * whole (never by prefix); blanks around a code are ignored.
 */
export type PermissionCode = string | readonly string[];

export function hasPermission(held: ReadonlySet<string> | readonly string[], needed: PermissionCode): boolean {
  const set: ReadonlySet<string> = held instanceof Set ? held : new Set(held as readonly string[]);
  if (Array.isArray(needed)) return needed.every((code) => set.has(code.trim()));
  const text = needed as string;
  if (text.includes('|')) {
    return text
      .split('|')
      .map((code) => code.trim())
      .filter(Boolean)
      .some((code) => set.has(code));
  }
  return set.has(text.trim());
}
