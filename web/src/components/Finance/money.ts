import { formatNumber } from '../ProTable/number-format.ts';

/**
 * Decimal text from the server ("1234.500000") shown with `digits` decimals and thousands separators —
 * exact, never through a floating-point number (the screens' one number formatter); '—' when there is none.
 */
export function formatMoney(text: string | null | undefined, digits = 2): string {
  if (text === null || text === undefined || text === '') return '—';
  return formatNumber(text, digits);
}
