import type { DistrictNode, PartnerCreate, PartnerDetail } from '@p8/contract/basic';
import { pathOfPlace, placeOf } from '../Pickers/region-place.ts';

/*
 * The supplier / customer form and the contract payload: what the dialog starts from (a stored record,
 * its places turned into cascader paths) and what it sends (trimmed texts, a region code or own district id, the
 * partner's phone defaulted from the default contact). Pure; tested in partner-form.test.ts.
 */

/** Phone rule of the contract (digits, +, -, parentheses and spaces, 3–30 characters) or empty. */
export const PHONE_PATTERN = /^[0-9+\-() ]{3,30}$/;

/** One contact row of the form. */
export interface ContactForm {
  name: string;
  phone?: string;
  email?: string;
  position?: string;
  isDefault: boolean;
}

/** One address row of the form: its place as the region cascader's path (region-place.ts). */
export interface AddressForm {
  place?: string[];
  address?: string;
  contactName?: string;
  phone?: string;
  isDefault: boolean;
}

export interface PartnerForm {
  code: string;
  name: string;
  shortName?: string;
  phone?: string;
  email?: string;
  taxNumber?: string;
  invoiceTitle?: string;
  bankName?: string;
  bankAccount?: string;
  managerId?: number | null;
  /** Cross-border: the country, and the currency its bills default to (none: CNY). */
  country?: string;
  currencyId?: number | null;
  /** Shown, never sent: the sum of the partner's audited opening balances (finance). */
  openingReceivable?: number | null;
  openingPayable?: number | null;
  sort?: number | null;
  remark?: string;
  contacts: ContactForm[];
  addresses: AddressForm[];
}

const EMPTY: PartnerForm = {
  code: '',
  name: '',
  shortName: '',
  phone: '',
  email: '',
  taxNumber: '',
  invoiceTitle: '',
  bankName: '',
  bankAccount: '',
  managerId: null,
  country: '',
  currencyId: null,
  openingReceivable: 0,
  openingPayable: 0,
  sort: 0,
  remark: '',
  contacts: [],
  addresses: [],
};

export function formOf(detail: PartnerDetail | undefined, districts: DistrictNode[]): PartnerForm {
  if (!detail) return EMPTY;
  return {
    code: detail.code,
    name: detail.name,
    shortName: detail.shortName,
    phone: detail.phone,
    email: detail.email,
    taxNumber: detail.taxNumber,
    invoiceTitle: detail.invoiceTitle,
    bankName: detail.bankName,
    bankAccount: detail.bankAccount,
    managerId: detail.managerId,
    country: detail.country,
    currencyId: detail.currencyId,
    openingReceivable: Number(detail.openingReceivable),
    openingPayable: Number(detail.openingPayable),
    sort: detail.sort,
    remark: detail.remark,
    contacts: detail.contacts.map((c) => ({ name: c.name, phone: c.phone, email: c.email, position: c.position, isDefault: c.isDefault })),
    addresses: detail.addresses.map((a) => ({
      place: pathOfPlace(a.regionPath ?? [], a.districtId, districts),
      address: a.address,
      contactName: a.contactName,
      phone: a.phone,
      isDefault: a.isDefault,
    })),
  };
}

const text = (v: string | undefined) => v?.trim() ?? '';

/** The payload of the contract from the form: trimmed texts, each address's region or own district, the partner phone defaulted. */
export function payloadOf(values: PartnerForm): PartnerCreate {
  const contacts = (values.contacts ?? []).map((c) => ({ name: text(c.name), phone: text(c.phone), email: text(c.email), position: text(c.position), isDefault: !!c.isDefault }));
  const main = contacts.find((c) => c.isDefault) ?? contacts[0];
  return {
    code: text(values.code),
    name: text(values.name),
    shortName: text(values.shortName),
    // The list and pickers show the partner's phone: without one, the default contact's.
    phone: text(values.phone) || main?.phone || '',
    email: text(values.email),
    taxNumber: text(values.taxNumber),
    invoiceTitle: text(values.invoiceTitle),
    bankName: text(values.bankName),
    bankAccount: text(values.bankAccount),
    managerId: values.managerId ?? null,
    country: text(values.country),
    currencyId: values.currencyId ?? null,
    sort: values.sort ?? 0,
    remark: text(values.remark),
    contacts,
    addresses: (values.addresses ?? []).map((a) => ({
      ...placeOf(a.place),
      address: text(a.address),
      contactName: text(a.contactName),
      phone: text(a.phone),
      isDefault: !!a.isDefault,
    })),
  };
}
