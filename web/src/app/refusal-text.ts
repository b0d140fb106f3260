import { REFUSAL_FIELDS, refusalLabels, type RefusalDetails, type RefusalField } from '@p8/contract/refusals';
import { formatNumber } from '../components/ProTable/number-format.ts';
import type { CatalogueText } from '@p8/contract/errors';

/**
 * The text of a refusal: the catalogue's sentence, then what the refusal is about and its figures
 * (the envelope's `details`, contract refusals.ts) in the user's language — line number, bill, partner,
 * fund account, material code and name, warehouse, location, batch — and what was asked against what there
 * is, rounded to the tenant's decimal places with thousands separators by the lists' own number formatter.
 * The HTTP client and the upload client write every refusal with it (http.ts `envelopeErrorText`).
 */
/** The screens' languages (stores/global.ts `Language`): those the catalogue is written in. */
type Language = keyof CatalogueText;

export interface RefusalDigits {
  numberRetainsSmallDigit: number;
  amountRetainsSmallDigit: number;
}

// The lists' defaults (hooks/kit-settings.ts) until the tenant's settings have been read.
let tenantDigits: RefusalDigits = { numberRetainsSmallDigit: 3, amountRetainsSmallDigit: 2 };

/** The tenant's decimal places, handed over whenever its settings are read (hooks/useTenantConfig.ts). */
export function provideRefusalDigits(digits: RefusalDigits): void {
  tenantDigits = digits;
}

function placesOf(details: RefusalDetails, digits: RefusalDigits): number {
  if (details.measure === 'count') return 0;
  return details.measure === 'amount' ? digits.amountRetainsSmallDigit : digits.numberRetainsSmallDigit;
}

function valueText(field: RefusalField, details: RefusalDetails, digits: RefusalDigits): string {
  const value = details[field];
  if (field === 'need' || field === 'have') return formatNumber(value, placesOf(details, digits));
  if (field === 'material') return [details.material?.code, details.material?.name].filter(Boolean).join(' ');
  return value === undefined || value === null ? '' : String(value);
}

/** `base` followed by what `details` name, in `language`, figures with `digits` (the tenant's, by default). */
export function refusalText(base: string, details: RefusalDetails | undefined, language: Language, digits: RefusalDigits = tenantDigits): string {
  if (!details) return base;
  const parts = REFUSAL_FIELDS.filter((field) => details[field] !== undefined && details[field] !== null && details[field] !== '').map((field) =>
    refusalLabels[field][language].replace('{value}', valueText(field, details, digits)),
  );
  if (!parts.length) return base;
  return language === 'zh' ? `${base}（${parts.join('，')}）` : `${base} (${parts.join(', ')})`;
}

