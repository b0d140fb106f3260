import type { FundAccountCreate, FundAccountUpdate, FundKind } from '@p8/contract/finance';
import { http, type PagedResult } from '../../app/http.ts';

export interface FundAccountRow {
  id: number;
  name: string;
  kind: FundKind;
  accountNumber: string;
  openingBalance: string;
  openingDate: string;
  balance: string;
  enabled: boolean;
  remark: string;
  /** Something but the opening has posted to it: its kind and opening balance no longer change. */
  moved: boolean;
}

/** GET /admin/finance/account — every fund account with its balance (one page). */
export async function listFundAccounts(): Promise<PagedResult<FundAccountRow>> {
  const data = await http.get<FundAccountRow[]>('/admin/finance/account', undefined, { noLoading: true });
  return { data, pagination: { current: 1, pageSize: data.length, total: data.length } };
}

/** POST /admin/finance/account — needs finance_account_add; the opening balance is posted. */
export function createFundAccount(body: FundAccountCreate): Promise<{ id: number }> {
  return http.post<{ id: number }>('/admin/finance/account', body);
}

/** PUT /admin/finance/account — needs finance_account_update; kind and opening only while `moved` is false. */
export function updateFundAccount(body: FundAccountUpdate): Promise<{ id: number }> {
  return http.put<{ id: number }>('/admin/finance/account', body);
}

/** PUT /admin/finance/account/enable — needs finance_account_enable; an account with a balance cannot be disabled. */
export function enableFundAccounts(ids: number[], enabled: boolean): Promise<null> {
  return http.put<null>('/admin/finance/account/enable', { ids, enabled }, { noLoading: true, silent: true });
}
