/**
 * The button-permission rule of SPEC §6: an array needs every code, a string with `|` needs any of
 * its codes, a plain string needs that code.
 */
export type AuthCode = string | readonly string[];

export function hasPermission(buttons: readonly string[], code: AuthCode): boolean {
  const held = new Set(buttons);
  if (Array.isArray(code)) return code.every((c) => held.has(c));
  const text = code as string;
  if (text.includes('|')) {
    return text
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean)
      .some((c) => held.has(c));
  }
  return held.has(text.trim());
}
