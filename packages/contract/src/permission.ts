/**
 * The button-permission rule of SPEC §6, shared by the server's route guard and the web's <Auth>:
 * an array needs every code, 'a|b' needs any one of them, a plain string needs that code.
 */
export function hasPermission(held: ReadonlySet<string> | readonly string[], needed: string | readonly string[]): boolean {
  const has = (code: string) => (held instanceof Set ? held.has(code) : (held as readonly string[]).includes(code));
  if (Array.isArray(needed)) return needed.every(has);
  const code = needed as string;
  if (code.includes('|')) return code.split('|').some((c) => has(c.trim()));
  return has(code);
}
