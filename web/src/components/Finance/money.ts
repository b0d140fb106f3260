import { roundTo, toMicro, microText } from '@p8/contract/bills/decimal';

/**
 * Decimal text from the server ("1234.500000") shown with `digits` decimals and thousands separators —
 * exact, never through a floating-point number.
 */
export function formatMoney(text: string | null | undefined, digits = 2): string {
  if (text === null || text === undefined || text === '') return '—';
  const fixed = microText(roundTo(toMicro(text), digits));
  const [whole, fraction = ''] = fixed.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const grouped = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return digits > 0 ? `${sign}${grouped}.${fraction.slice(0, digits)}` : `${sign}${grouped}`;
}
