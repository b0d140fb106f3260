import type { KitSettings } from '../../hooks/kit-settings.ts';

export type NumberKind = 'number' | 'amount';

/**
 * Decimal places of a number field: 0 for integers, a fixed precision when given, else the tenant's
 * (numberRetainsSmallDigit for quantities, amountRetainsSmallDigit for money; 0–6).
 */
export function inputPrecision(
  options: { integer?: boolean; kind?: NumberKind; precision?: number },
  settings: Pick<KitSettings, 'numberRetainsSmallDigit' | 'amountRetainsSmallDigit'>,
): number {
  if (options.integer) return 0;
  const digits = options.precision ?? (options.kind === 'amount' ? settings.amountRetainsSmallDigit : settings.numberRetainsSmallDigit);
  return Math.max(0, Math.min(6, Math.floor(digits)));
}
