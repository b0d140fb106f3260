import type { PaymentCreate, ReceiptCreate, TransferCreate } from '@p8/contract/finance';
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
  d0_30: string;
  d31_60: string;
  d61_90: string;
  d90: string;
}

export interface LedgerRow {
  id: number;
  date: string;
  sourceKind: string;
  sourceCode: string;
  memo: string;
  reversal: boolean;
  billId: number | null;
  increase: string;
  decrease: string;
  balance: string;
}

export interface TrialBalanceRow {
  code: string;
  name: { zh: string; en: string };
  kind: string;
  debit: string;
  credit: string;
  balance: string;
}

/** The whole report as one page (a report has one row per partner or account). */
const onePage = <T,>(data: T[]): PagedResult<T> => ({ data, pagination: { current: 1, pageSize: data.length, total: data.length } });

/** GET /admin/finance/receivable | payable — per partner with aging on `asOf`. */
export async function partnerBalances(side: 'receivable' | 'payable', asOf?: string): Promise<PagedResult<PartnerBalanceRow>> {
  return onePage(await http.get<PartnerBalanceRow[]>(`/admin/finance/${side}`, asOf ? { asOf } : undefined, { noLoading: true }));
}

/** GET /admin/finance/<side>/ledger — a partner's running ledger. */
export function partnerLedger(side: 'receivable' | 'payable', partnerId: number): Promise<LedgerRow[]> {
  return http.get<LedgerRow[]>(`/admin/finance/${side}/ledger`, { partnerId }, { noLoading: true });
}

/** GET /admin/finance/trialBalance */
export async function trialBalance(params: { start?: string; end?: string }) {
  return http.get<{ accounts: TrialBalanceRow[]; debitTotal: string; creditTotal: string }>('/admin/finance/trialBalance', params, { noLoading: true });
}

/** A payment, receipt or transfer as the lists show it (amount as exact decimal text). */
export interface MoneyDocRow {
  id: number;
  docKind: 'payment' | 'receipt' | 'transfer';
  moneyType: string;
  docCode: string;
  docDate: string;
  partnerId: number | null;
  partnerName: string | null;
  fundAccountId: number | null;
  targetFundAccountId: number | null;
  amount: string;
  status: 'Posted' | 'Abandoned';
  remark: string;
  createdAt: string;
  abandonedAt: string | null;
}

export interface MoneyDocDetail extends MoneyDocRow {
  allocations: Array<{ billId: number; billCode: string; billType: string; billDate: string; amount: string }>;
}

/** One bill a payment or receipt may settle (`/<side>/openBills`). */
export interface OpenBill {
  billId: number;
  billCode: string;
  billType: string;
  billDate: string;
  amount: string;
  settled: string;
  unsettled: string;
  settledStatus: string;
}

export type MoneyKind = MoneyDocRow['docKind'];

/** GET /admin/finance/<kind> — a page, newest first; filters `moneyType`, `status`, `partnerId`, `start` / `end`. */
export function listMoneyDocs(kind: MoneyKind, params: QueryParams): Promise<PagedResult<MoneyDocRow>> {
  return http.list<MoneyDocRow>(`/admin/finance/${kind}`, params, { noLoading: true });
}

/** GET /admin/finance/<kind>/:id — with the bills it settled. */
export function getMoneyDoc(kind: MoneyKind, id: number): Promise<MoneyDocDetail> {
  return http.get<MoneyDocDetail>(`/admin/finance/${kind}/${id}`, undefined, { noLoading: true });
}

/** POST /admin/finance/<kind> — posted at once (`finance_<kind>_add`). */
export function createMoneyDoc(kind: MoneyKind, body: PaymentCreate | ReceiptCreate | TransferCreate): Promise<{ id: number }> {
  return http.post<{ id: number }>(`/admin/finance/${kind}`, body);
}

/** POST /admin/finance/<kind>/:id/abandon — the reversal (`finance_<kind>_abandon`). */
export function abandonMoneyDoc(kind: MoneyKind, id: number): Promise<unknown> {
  return http.post(`/admin/finance/${kind}/${id}/abandon`, {});
}

/** GET /admin/finance/<side>/openBills — a partner's bills not settled in full. */
export function openBills(side: 'receivable' | 'payable', partnerId: number): Promise<OpenBill[]> {
  return http.get<OpenBill[]>(`/admin/finance/${side}/openBills`, { partnerId }, { noLoading: true });
}
