import type { MallSkuInput, MallSpec } from '@p8/contract/mall';

/** A SKU row of the editor: its spec values and the fields typed for it. */
export type SkuRow = Omit<MallSkuInput, 'price' | 'stock'> & { price?: number | null; stock?: number | null };

/** The specs that are filled in: a name and at least one value (the editor may hold a half-typed one). */
export function completeSpecs(specs: Array<Partial<MallSpec> | undefined> | undefined): MallSpec[] {
  return (specs ?? [])
    .filter((s): s is Partial<MallSpec> => !!s)
    .map((s) => ({ name: (s.name ?? '').trim(), values: (s.values ?? []).map((v) => v.trim()).filter(Boolean) }))
    .filter((s) => s.name && s.values.length);
}

/** Every combination of the specs' values, first spec slowest ([[]] without specs: one SKU). */
export function combinations(specs: MallSpec[]): string[][] {
  return specs.reduce<string[][]>((rows, spec) => rows.flatMap((row) => spec.values.map((v) => [...row, v])), [[]]);
}

const keyOf = (values: readonly string[]) => values.join('\u0001');

/**
 * The SKU rows for the specs: one per combination, in order; a combination that was already there keeps
 * what was typed for it, a new one starts empty (with the defaults given).
 */
export function skuRows(specs: MallSpec[], current: SkuRow[] | undefined, defaults: Partial<SkuRow> = {}): SkuRow[] {
  const known = new Map((current ?? []).map((row) => [keyOf(row.specValues), row]));
  return combinations(specs).map((specValues) => known.get(keyOf(specValues)) ?? { marketPrice: 0, costPrice: 0, code: '', image: '', price: null, stock: null, ...defaults, specValues });
}

/**
 * The SKUs to send, one per combination of `specs` in order. The form hands back only the fields it shows,
 * so a SKU row there has no spec values of its own: its index names its combination (the editor keeps the
 * rows as `skuRows` made them). `stored`: the SKUs as the editor read them (editing a product): a kept
 * combination is sent with the stock read (`stockSeen`), so the server applies the change typed to the
 * stock there is now and orders placed meanwhile keep what they took.
 */
export function skusToSend(specs: MallSpec[], rows: Array<Partial<SkuRow>> | undefined, stored: SkuRow[] = []): MallSkuInput[] {
  const seen = new Map(stored.map((s) => [keyOf(s.specValues), s.stock]));
  return combinations(specs).map((specValues, index) => {
    const row = rows?.[index] ?? {};
    const stockSeen = seen.get(keyOf(specValues));
    return {
      ...(typeof stockSeen === 'number' && { stockSeen }),
      specValues,
      price: row.price ?? 0,
      marketPrice: row.marketPrice ?? 0,
      costPrice: row.costPrice ?? 0,
      stock: row.stock ?? 0,
      code: row.code?.trim() ?? '',
      image: row.image ?? '',
    };
  });
}
