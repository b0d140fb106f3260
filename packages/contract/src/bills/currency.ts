import { z } from 'zod';
import { mul, roundTo, toMicro, type Micro } from './decimal.ts';
import type { FieldDecl } from './fields.ts';

/*
 * Bills in a foreign currency (docs/cross-border.md). A type declaring `currency: true` (the commercial bills:
 * purchase and sale orders, in- and out-stocks, refunds, notices, quotations, payments and receipts) has two
 * more header fields, added by the registry's `headerFields` — the engine does the rest for every such type:
 *
 * - `currencyId`: the bill's currency (a `currency` record); none is the base currency, CNY. Left out, it is the
 *   partner's currency (the supplier's or customer's `currencyId`).
 * - `exchangeRate`: CNY per unit of the currency. Left out, the latest rate of the currency on or before the
 *   bill date (`ExchangeRateNotFound` when there is none). A bill in CNY keeps none.
 *
 * The lines' prices and the bill's totals are in the currency (what the partner sees and pays); the ledger and
 * the stock's value are in CNY: an amount × the rate, rounded to the fen (`toBase`).
 */

/** Decimal places of a CNY amount converted from a foreign one (the fen). */
export const BASE_DIGITS = 2;
/** Decimal places an exchange rate keeps. */
export const RATE_DIGITS = 6;

export const CURRENCY_HEADER = {
  currencyId: {
    key: 'currencyId',
    label: { zh: '币种', en: 'Currency' },
    kind: 'record',
    ref: 'currency',
    schema: z.number().int().positive(),
    list: true,
    search: 'in',
    width: 90,
  },
  exchangeRate: {
    key: 'exchangeRate',
    label: { zh: '汇率', en: 'Exchange rate' },
    kind: 'number',
    precision: 6,
    schema: z.number().finite({ message: 'ExchangeRateOutOfRange' }).positive({ message: 'ExchangeRateOutOfRange' }).max(1e6, { message: 'ExchangeRateOutOfRange' }),
    list: true,
    width: 100,
  },
} as const satisfies Record<string, FieldDecl>;

/** The header fields a type declaring `currency` has, after its own. */
export const CURRENCY_FIELDS: readonly FieldDecl[] = [CURRENCY_HEADER.currencyId, CURRENCY_HEADER.exchangeRate];

/** A bill header's exchange rate (millionths), or undefined for a bill in the base currency. */
export function billRate(header: Record<string, unknown>): Micro | undefined {
  const rate = header.exchangeRate;
  if (header.currencyId == null || rate == null || rate === '') return undefined;
  return toMicro(String(rate));
}

/** An amount of the bill's currency in CNY: × the rate, rounded to the fen; the amount itself without a rate. */
export function toBase(amount: Micro, rate: Micro | undefined): Micro {
  return rate === undefined ? amount : roundTo(mul(amount, rate), BASE_DIGITS);
}

/**
 * What export documents print of a line's material (docs/cross-border.md), for the types declaring `currency`:
 * never entered on the bill, answered with its lines (GET {path}/:id) from the material — its English name, HS
 * code and country of origin, and the line's net and gross weight (the material's per main unit × the line's
 * main-unit quantity, kg). Print templates may show them as columns; the bill form does not.
 */
export const EXPORT_LINE_FIELDS: readonly FieldDecl[] = [
  { key: 'englishName', label: { zh: '英文品名', en: 'Description' }, kind: 'text', schema: z.string(), readOnly: true, width: 200 },
  { key: 'hsCode', label: { zh: 'HS编码', en: 'HS code' }, kind: 'text', schema: z.string(), readOnly: true, width: 110 },
  { key: 'originCountry', label: { zh: '原产国', en: 'Origin' }, kind: 'text', schema: z.string(), readOnly: true, width: 90 },
  { key: 'netWeight', label: { zh: '净重(kg)', en: 'Net weight (kg)' }, kind: 'quantity', schema: z.number(), readOnly: true, sum: true, width: 110 },
  { key: 'grossWeight', label: { zh: '毛重(kg)', en: 'Gross weight (kg)' }, kind: 'quantity', schema: z.number(), readOnly: true, sum: true, width: 110 },
];
