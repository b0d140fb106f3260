import type { OpenInCurrency, PartnerLedgerLine, PrepaidBalanceRow, TransferCreate } from '@p8/contract/finance';
import type { PagedResult, QueryParams } from '../../app/http.ts';
import { http } from '../../app/http.ts';

/** One partner's row of the receivable / payable report (amounts as exact decimal text). */
export interface PartnerBalanceRow {
  partnerId: number;
  partnerCode: string;
  partnerName: string;
  balance: string;
  advance?: string;
  prepaid?: string;
  open: string;
  /** Open bills in a foreign currency, per currency (in the currency and in CNY). */
  currencies?: OpenInCurrency[];
  d0_30: string;
  d31_60: string;
  d61_90: string;
  d90: string;
}

/** A line of a partner's running ledger. */
export type LedgerRow = PartnerLedgerLine;

export interface TrialBalanceRow {
  code: string;
  name: { zh: string; en: string };
  kind: string;
  /** The balance before the period's start, on the account's normal side. */
  opening: string;
  debit: string;
  credit: string;
  /** The balance at the period's end. */
  balance: string;
}

/** The whole report as one page (a report has one row per partner or account). */
const onePage = <T,>(data: T[]): PagedResult<T> => ({ data, pagination: { current: 1, pageSize: data.length, total: data.length } });

/** GET /admin/finance/receivable | payable — per partner with aging on `asOf`. */
export async function partnerBalances(side: 'receivable' | 'payable', asOf?: string): Promise<PagedResult<PartnerBalanceRow>> {
  return onePage(await http.get<PartnerBalanceRow[]>(`/admin/finance/${side}`, asOf ? { asOf } : undefined, { noLoading: true }));
}

/** GET /admin/finance/<side>/ledger — a page of a partner's running ledger, oldest first. */
export function partnerLedger(side: 'receivable' | 'payable', partnerId: number, current: number, pageSize: number): Promise<PagedResult<LedgerRow>> {
  return http.list<LedgerRow>(`/admin/finance/${side}/ledger`, { partnerId, current, pageSize }, { noLoading: true });
}

export type PrepaidRow = PrepaidBalanceRow;

/** GET /admin/finance/prepaid — a page of partners, by code unless sorted; filters `kind`, `keyword`, `nonZero`. */
export function listPrepaid(params: QueryParams): Promise<PagedResult<PrepaidRow>> {
  return http.list<PrepaidRow>('/admin/finance/prepaid', params, { noLoading: true });
}

/** GET /admin/finance/prepaid/ledger — a page of a partner's prepaid (supplier) or advance (customer) ledger. */
export function prepaidLedger(partnerId: number, current: number, pageSize: number): Promise<PagedResult<LedgerRow>> {
  return http.list<LedgerRow>('/admin/finance/prepaid/ledger', { partnerId, current, pageSize }, { noLoading: true });
}

/** GET /admin/finance/trialBalance */
export async function trialBalance(params: { start?: string; end?: string }) {
  return http.get<{ accounts: TrialBalanceRow[]; debitTotal: string; creditTotal: string }>('/admin/finance/trialBalance', params, { noLoading: true });
}

/** A transfer as the list shows it (amount as exact decimal text), with both accounts' names. */
export interface MoneyDocRow {
  id: number;
  docKind: 'transfer';
  moneyType: string;
  docCode: string;
  docDate: string;
  fundAccountId: number | null;
  targetFundAccountId: number | null;
  fromAccountName: string | null;
  toAccountName: string | null;
  amount: string;
  status: 'Posted' | 'Abandoned';
  remark: string;
  createdAt: string;
  abandonedAt: string | null;
}

export type MoneyKind = MoneyDocRow['docKind'];

/** GET /admin/finance/<kind> — a page, newest first unless sorted (`<field>Sort`); filters `status`, `start` / `end`. */
export function listMoneyDocs(kind: MoneyKind, params: QueryParams): Promise<PagedResult<MoneyDocRow>> {
  return http.list<MoneyDocRow>(`/admin/finance/${kind}`, params, { noLoading: true });
}

/** POST /admin/finance/transfer — posted at once (`finance_transfer_add`). */
export function createTransfer(body: TransferCreate): Promise<{ id: number }> {
  return http.post<{ id: number }>('/admin/finance/transfer', body);
}

/** POST /admin/finance/<kind>/:id/abandon — the reversal (`finance_<kind>_abandon`). */
export function abandonMoneyDoc(kind: MoneyKind, id: number): Promise<unknown> {
  return http.post(`/admin/finance/${kind}/${id}/abandon`, {});
}
