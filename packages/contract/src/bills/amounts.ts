import { div, mul, roundTo, sum, toMicro, type Micro } from './decimal.ts';

/**
 * A line's amounts from its quantity, price, tax and discount, rounded to the tenant's digits: the
 * server stores exactly what the web kit showed while the user typed.
 *
 *   priceTotal    = round(number × unitPrice × (1 − discount%))          (tax excluded)
 *   taxUnitPrice  = round(unitPrice × (1 + tax%))
 *   taxPriceTotal = round(priceTotal × (1 + tax%))
 *
 * Tax applies only with the tenant's openTaxRate, discount only with openDiscount.
 */
export interface LineAmountInput {
  number: number | string;
  unitPrice?: number | string | null;
  taxRate?: number | string | null;
  discountRate?: number | string | null;
}

export interface AmountRules {
  numberDigits: number;
  amountDigits: number;
  tax: boolean;
  discount: boolean;
}

export interface LineAmounts {
  number: Micro;
  unitPrice: Micro;
  taxRate: Micro;
  discountRate: Micro;
  taxUnitPrice: Micro;
  priceTotal: Micro;
  taxPriceTotal: Micro;
}

const HUNDRED = toMicro(100);
const ONE = toMicro(1);

export function lineAmounts(line: LineAmountInput, rules: AmountRules): LineAmounts {
  const number = roundTo(toMicro(line.number), rules.numberDigits);
  const unitPrice = toMicro(line.unitPrice ?? 0);
  const taxRate = rules.tax ? toMicro(line.taxRate ?? 0) : 0n;
  const discountRate = rules.discount ? toMicro(line.discountRate ?? 0) : 0n;
  const taxFactor = ONE + div(taxRate, HUNDRED);
  const keep = ONE - div(discountRate, HUNDRED);
  const priceTotal = roundTo(mul(mul(number, unitPrice), keep), rules.amountDigits);
  return {
    number,
    unitPrice,
    taxRate,
    discountRate,
    taxUnitPrice: roundTo(mul(unitPrice, taxFactor), rules.amountDigits),
    priceTotal,
    taxPriceTotal: roundTo(mul(priceTotal, taxFactor), rules.amountDigits),
  };
}

/** The header totals of a bill: the sums of its lines. */
export function billTotals(lines: readonly LineAmounts[]): { number: Micro; priceTotal: Micro; taxPriceTotal: Micro } {
  return {
    number: sum(lines.map((l) => l.number)),
    priceTotal: sum(lines.map((l) => l.priceTotal)),
    taxPriceTotal: sum(lines.map((l) => l.taxPriceTotal)),
  };
}
