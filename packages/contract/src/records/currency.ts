import { z } from 'zod';
import { dateSchema } from '../bills/fields.ts';
import { codeText, nameText, storableText } from '../text.ts';
import type { RecordKindDecl } from './registry.ts';

/*
 * Cross-border commerce's records (docs/cross-border.md): the foreign currencies a tenant trades in and their
 * daily exchange rates, both declared records (routes, screens, Excel import and export from the declaration).
 * The base currency is CNY: it is no record, bills without a currency are in it, and the ledger is kept in it.
 */

/** The base currency: what the books are kept in, and what a bill without a currency is in. */
export const BASE_CURRENCY = 'CNY';

/** An exchange rate: CNY per one unit of the currency, above zero, at most six decimals. */
export const exchangeRateSchema = z
  .number()
  .finite({ message: 'ExchangeRateOutOfRange' })
  .positive({ message: 'ExchangeRateOutOfRange' })
  .max(1e6, { message: 'ExchangeRateOutOfRange' });

/** Currencies (币种): the ISO 4217 code (USD), its name and symbol. */
export const currency = {
  kind: 'currency',
  area: 'basic',
  entity: 'currency',
  label: { zh: '币种', en: 'Currencies' },
  noun: { zh: '币种', en: 'currency' },
  icon: 'DollarOutlined',
  fields: [
    {
      key: 'code',
      label: { zh: '币种代码', en: 'Code' },
      kind: 'text',
      // ISO 4217 by convention (USD); the base currency CNY is no record (the kind's hook refuses it).
      schema: codeText(50),
      required: true,
      search: true,
      sortable: true,
      width: 110,
      help: { zh: 'ISO 4217 代码，如 USD；本位币人民币（CNY）无需添加', en: 'ISO 4217, such as USD; the base currency CNY needs no record' },
    },
    { key: 'name', label: { zh: '币种名称', en: 'Currency' }, kind: 'text', schema: nameText(50), required: true, search: true, sortable: true, width: 160, title: true, excelTitle: { zh: '名称', en: 'Name' } },
    { key: 'symbol', label: { zh: '符号', en: 'Symbol' }, kind: 'text', schema: storableText().trim().max(50), width: 90 },
  ],
  unique: [
    { fields: ['code'], error: 'CodeRepeat' },
    { fields: ['name'], error: 'NameRepeat' },
  ],
  notExist: 'CurrencyNotExist',
  inUse: 'CurrencyInUseProhibitDelete',
  category: 'basic',
  template: 'currency',
  filename: { zh: '币种', en: 'currencies' },
} as const satisfies RecordKindDecl;

/**
 * Exchange rates (汇率): a currency's rate on a day, in CNY per unit. A bill dated D takes the latest rate of
 * its currency on or before D (`ExchangeRateNotFound` when there is none). One rate per currency and day.
 */
export const exchangeRate = {
  kind: 'exchangeRate',
  area: 'basic',
  entity: 'exchange rate',
  label: { zh: '汇率', en: 'Exchange rates' },
  noun: { zh: '汇率', en: 'exchange rate' },
  icon: 'SwapOutlined',
  fields: [
    { key: 'currencyId', label: { zh: '币种', en: 'Currency' }, kind: 'record', ref: 'currency', schema: z.number().int().positive(), required: true, search: true, width: 140 },
    {
      key: 'rateDate',
      label: { zh: '日期', en: 'Date' },
      kind: 'text',
      schema: dateSchema,
      required: true,
      sortable: true,
      width: 130,
      // A year of days: samples of one currency (tests, imports of many rows) take different ones.
      examples: Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10)),
      help: { zh: '格式 2026-10-01；单据取其日期当天或之前最近的汇率', en: 'As 2026-10-01; a bill takes the latest rate on or before its date' },
    },
    {
      key: 'rate',
      label: { zh: '汇率（1 外币 = 人民币）', en: 'Rate (CNY per unit)' },
      kind: 'number',
      precision: 6,
      schema: exchangeRateSchema,
      required: true,
      sortable: true,
      width: 170,
      examples: [7.1, 7.2, 7.3],
    },
    {
      key: 'source',
      label: { zh: '来源', en: 'Source' },
      kind: 'text',
      schema: storableText().trim().max(100),
      search: true,
      width: 200,
      title: true,
      help: { zh: '如：中国银行外汇牌价中间价', en: "As the Bank of China's middle rate" },
    },
  ],
  unique: [{ fields: ['currencyId', 'rateDate'], error: 'ExchangeRateRepeat' }],
  notExist: 'ExchangeRateNotExist',
  inUse: 'ExchangeRateInUseProhibitDelete',
  category: 'basic',
  template: 'exchangeRate',
  filename: { zh: '汇率', en: 'exchange-rates' },
} as const satisfies RecordKindDecl;
