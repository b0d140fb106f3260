import dayjs from 'dayjs';
import { formatNumber } from './number-format.ts';
import type { KitSettings } from '../../hooks/kit-settings.ts';
import type { ValueType } from './types.ts';

export { formatNumber };

/**
 * Cell values as shown: numbers with the tenant's decimal places (numberRetainsSmallDigit for
 * quantities, amountRetainsSmallDigit for money, `formatNumber`, number-format.ts), dates in the list's
 * date format.
 */
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
