/**
 * Code 128 barcodes (subset B: printable ASCII, what bill codes are made of), drawn by the print page as
 * bars. `code128` answers the module widths of bars and spaces in turn, bar first: start B, the text, the
 * check symbol (start value plus each symbol's value times its position, modulo 103) and stop, framed by
 * the quiet zones the scanner needs (10 modules each side).
 */

/** The widths of each symbol's bar, space, bar, space, bar, space (stop: seven), by symbol value. */
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
];
export const CODE128_PATTERNS: readonly string[] = PATTERNS;
const START_B = 104;
const STOP = 106;
export const QUIET_ZONE = 10;

/** Whether Code 128 B can carry the text (printable ASCII, at least one character). */
export const code128Encodable = (text: string) => text.length > 0 && /^[\x20-\x7e]+$/.test(text);

/** The symbol values of the text: start B, its characters, the check symbol, stop. */
export function code128Symbols(text: string): number[] {
  if (!code128Encodable(text)) return [];
  const values = [...text].map((ch) => ch.charCodeAt(0) - 32);
  const check = values.reduce((sum, value, i) => sum + value * (i + 1), START_B) % 103;
  return [START_B, ...values, check, STOP];
}

/** The module widths, bar first, quiet zones included as the first and last space; empty when the text cannot be encoded. */
export function code128(text: string): number[] {
  const symbols = code128Symbols(text);
  if (!symbols.length) return [];
  return [0, QUIET_ZONE, ...symbols.flatMap((s) => [...PATTERNS[s]].map(Number)), QUIET_ZONE];
}
