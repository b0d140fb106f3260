import { microText, roundTo, toMicro } from '@p8/contract/bills/decimal';

/**
 * A figure as the screens show it — list cells and sums, bill totals, ledgers, reports, refusals: the
 * tenant's decimal places (numberRetainsSmallDigit for quantities, amountRetainsSmallDigit for money) and
 * thousands grouped (1,234,567.89: the grouping of both languages the screens are written in, zh-CN and
 * en-US alike). Rounded as exact decimals, half away from zero, as the server rounds (the contract's
 * decimal.ts): decimal text keeps every digit it has — `Number("99999999999999.99").toFixed(2)` would show
 * 99999999999999.98. `grouped: false` is for a value a field will edit (an input takes no separators).
 */
export function formatNumber(value: unknown, digits: number, { grouped = true }: { grouped?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const places = Math.max(0, Math.min(6, digits));
  let micro: bigint;
  try {
    micro = toMicro(typeof value === 'number' ? value : String(value));
  } catch {
    return String(value);
  }
  const [whole, fraction = ''] = microText(roundTo(micro, places)).split('.');
  const shown = grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const fixed = places > 0 ? `${shown}.${fraction.slice(0, places)}` : shown;
  // -0.00 reads as a sign error on a statement.
  return /^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed;
}
