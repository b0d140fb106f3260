/**
 * Exact decimal arithmetic for quantities, prices and amounts. The database stores them as
 * numeric(20,6); JavaScript numbers cannot add 0.1 and 0.2 exactly, and a stock ledger whose sum drifts
 * by 0.000000000001 from its balance is a wrong ledger. So every computation that ends in a stored
 * quantity or amount works on integers of millionths (`Micro`, a bigint: 1.5 → 1_500_000n) and rounds
 * once, half away from zero, to the tenant's digits.
 *
 * The server and the web kit use the same functions, so the totals a user sees while typing are the
 * totals the server stores.
 */

/** A decimal as an integer count of millionths (scale 6, the database's numeric(20,6)). */
export type Micro = bigint;

export const SCALE = 6;
const ONE = 1_000_000n;

/** Largest magnitude numeric(20,6) holds: 14 digits before the point. */
export const MAX_MICRO: Micro = 10n ** 20n - 1n;

/** Parses a number or a decimal string ("12.5", "-0.000001") into millionths, rounding beyond 6 places. */
export function toMicro(value: number | string): Micro {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const digits = (fraction + '0000000').slice(0, SCALE + 1);
  let micro = BigInt(whole || '0') * ONE + BigInt(digits.slice(0, SCALE));
  if (Number(digits[SCALE]) >= 5) micro += 1n; // half away from zero, on the magnitude
  return sign === '-' ? -micro : micro;
}

/** A JS number as plain decimal text (no exponent), to at most 10 fraction digits. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  // toFixed writes an exponent from 1e21 on; a double that large is a whole number, written out as its
  // shortest form reads (1e37 as 1 and 37 zeros, not the double's exact binary value).
  return Math.abs(value) >= 1e21 ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 0 }) : value.toFixed(10);
}

/** Millionths as the decimal text PostgreSQL reads ("-12.500000"). */
export function microText(micro: Micro): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / ONE;
  const fraction = String(abs % ONE).padStart(SCALE, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Millionths as a JS number (for answers and display; never compute further with it). */
export function microNumber(micro: Micro): number {
  return Number(microText(micro));
}

/** Divides and rounds half away from zero to millionths' integer: `a / b` both in the same unit. */
export function divRound(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('division by zero');
  const negative = a < 0n !== b < 0n;
  const absA = a < 0n ? -a : a;
  const absB = b < 0n ? -b : b;
  const q = (absA * 2n + absB) / (absB * 2n);
  return negative ? -q : q;
}

/** a × b, both millionths, as millionths (rounded). */
export function mul(a: Micro, b: Micro): Micro {
  return divRound(a * b, ONE);
}

/** a ÷ b, both millionths, as millionths (rounded). */
export function div(a: Micro, b: Micro): Micro {
  return divRound(a * ONE, b);
}

/** Rounds millionths to `digits` decimal places (0–6), half away from zero. */
export function roundTo(micro: Micro, digits: number): Micro {
  if (digits >= SCALE) return micro;
  const step = 10n ** BigInt(SCALE - Math.max(0, digits));
  return divRound(micro, step) * step;
}

export const ZERO: Micro = 0n;

export function sum(values: Iterable<Micro>): Micro {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

export function min(a: Micro, b: Micro): Micro {
  return a < b ? a : b;
}

export function max(a: Micro, b: Micro): Micro {
  return a > b ? a : b;
}

export function abs(a: Micro): Micro {
  return a < 0n ? -a : a;
}
