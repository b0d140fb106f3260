import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../app/http.ts';

/** GET /admin/basic/fee — fee types (first 200) with their kind (income | expense), for fee and income lines. */
export const feeTypeOptionsQuery = queryOptions({
  queryKey: ['basic', 'fee', 'options'],
  queryFn: () => http.list<{ id: number; name: string; kind: string; enabled: boolean }>('/admin/basic/fee', { current: 1, pageSize: 200 }, { noLoading: true }).then((page) => page.data),
  staleTime: 30_000,
});

/**
 * GET /admin/finance/account/picker — the fund accounts (name, kind, enabled), for the fund account of
 * finance bills; their balances belong to the fund accounts' own screen.
 */
export const fundAccountOptionsQuery = queryOptions({
  queryKey: ['finance', 'account', 'options'],
  queryFn: () => http.get<Array<{ id: number; name: string; kind: string; enabled: boolean }>>('/admin/finance/account/picker', undefined, { noLoading: true }),
  staleTime: 10_000,
});
