/**
 * The match a typed code takes at Enter: the record (material, supplier, warehouse…) whose code is exactly what was typed (any case), or
 * the only match; none when several match and none exactly (the list stays open to choose from).
 */
export function typedMatch<M extends { code: string }>(typed: string, found: readonly M[]): M | undefined {
  const text = typed.trim().toLowerCase();
  return found.find((m) => m.code.toLowerCase() === text) ?? (found.length === 1 ? found[0] : undefined);
}
