import dayjs from 'dayjs';
import { microText, roundTo, toMicro } from '@p8/contract/bills/decimal';
import type { KitSettings } from '../../hooks/kit-settings.ts';
import type { ValueType } from './types.ts';

/**
 * Cell values as shown: numbers with the tenant's decimal places (numberRetainsSmallDigit for
 * quantities, amountRetainsSmallDigit for money), dates in the list's date format. Rounded as exact
 * decimals, half away from zero, as the server rounds (the contract's decimal.ts): decimal text keeps every
 * digit it has — `Number("99999999999999.99").toFixed(2)` would show 99999999999999.98.
 */
export function formatNumber(value: unknown, digits: number): string {
  if (value === null || value === undefined || value === '') return '';
  const places = Math.max(0, Math.min(6, digits));
  let micro: bigint;
  try {
    micro = toMicro(typeof value === 'number' ? value : String(value));
  } catch {
    return String(value);
  }
  const [whole, fraction = ''] = microText(roundTo(micro, places)).split('.');
  const fixed = places > 0 ? `${whole}.${fraction.slice(0, places)}` : whole;
  // -0.00 reads as a sign error on a statement.
  return /^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed;
}

export function digitsFor(valueType: ValueType | undefined, settings: Pick<KitSettings, 'numberRetainsSmallDigit' | 'amountRetainsSmallDigit'>, precision?: number): number | undefined {
  if (typeof precision === 'number') return precision;
  if (valueType === 'number') return settings.numberRetainsSmallDigit;
  if (valueType === 'amount') return settings.amountRetainsSmallDigit;
  return undefined;
}

export function formatCell(
  value: unknown,
  valueType: ValueType | undefined,
  settings: Pick<KitSettings, 'numberRetainsSmallDigit' | 'amountRetainsSmallDigit'>,
  precision?: number,
): string {
  if (value === null || value === undefined) return '';
  const digits = digitsFor(valueType, settings, precision);
  if (digits !== undefined) return formatNumber(value, digits);
  if (valueType === 'date' || valueType === 'dateTime') {
    const d = dayjs(value as string);
    return d.isValid() ? d.format(valueType === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm:ss') : String(value);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A nested field (`supplier.name`) of a row. */
export function valueAt(record: unknown, prop: string): unknown {
  let current: unknown = record;
  for (const part of prop.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
