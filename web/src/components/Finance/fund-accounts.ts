import type { FundAccountCreate, FundKind } from '@p8/contract/finance';
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
